// What the real-node wizard UI tests share: frames without colour, waiting for a frame, the
// 80x24 fit check, and registry wizards wired to real services.
import React from 'react';
import { expect } from 'vitest';
import type { WizardServices } from '../../src/services/wizards';
import { WIZARDS, type WizardEntry } from '../../src/ui/wizards/registry';
import { WizardServicesProvider } from '../../src/ui/wizards/services';
import type { Rendered } from '../ui/harness';
import { waitUntil } from './wait-until';

// eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
export const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/** Waits until the frame matches; the frame (without colour) then, or an error showing it. */
export function until(app: Rendered, re: RegExp, timeoutMs = 30_000): Promise<string> {
  return waitUntil(
    `a frame matching ${re}`,
    () => plain(app.frame()),
    (f) => re.test(f),
    { timeoutMs, intervalMs: 50 },
  );
}

/** The whole frame fits the 80x24 terminal: no line wider, no more lines. */
export function expectFits(frame: string): void {
  const lines = frame.split('\n');
  expect(lines.length).toBeLessThanOrEqual(24);
  for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(80);
}

/** The registry's wizards of these ids, each given `services` (as the TUI's provider does). */
export function wizardsWith(ids: string[], services: WizardServices): WizardEntry[] {
  return WIZARDS.filter((w) => ids.includes(w.id)).map((w) => ({
    ...w,
    component: ({ onClose }: { onClose: () => void }) => (
      <WizardServicesProvider value={services}>
        <w.component onClose={onClose} />
      </WizardServicesProvider>
    ),
  }));
}
