// A wizard on a terminal too short to show its whole review is hidden and takes only Esc: no key
// confirms what the operator cannot see; it comes back whole when the terminal grows.
import React from 'react';
import { Text } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { keysOf } from '../../src/keys/keymap';
import { useDialogKeys } from '../../src/ui/wizards/dialog-keys';
import type { WizardEntry } from '../../src/ui/wizards/registry';
import { failOnConsoleError, KEYS, loadScenario, makeStore, renderApp, type Rendered } from './harness';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const sent: string[] = [];
const session = { phase: 'review', getState: () => ({ phase: session.phase }), send: () => void (session.phase = 'cancelled') };

function Review({ onClose }: { onClose: () => void }) {
  useDialogKeys(session, onClose, (key) => {
    if (!key.is('dialog.confirm')) return false;
    sent.push('sent');
    return true;
  });
  return <Text>review: y send</Text>;
}
const REVIEW: WizardEntry = { id: 'review', title: 'A review', commandId: 'wizard.replicas', component: Review };

describe('a wizard on a short terminal', () => {
  it('is hidden under 80x23, takes no key but Esc, and is whole again when the terminal grows', async () => {
    const store = makeStore();
    loadScenario(store, 'yellow');
    store.setState({ pane: 'indices' });
    r = await renderApp(store, { rows: 23, wizards: [REVIEW] });
    await r.press(keysOf('wizard.replicas')[0]);
    expect(r.frame()).toContain('review: y send');
    await r.resize(80, 20);
    expect(r.frame()).toContain('a wizard needs 80x23');
    expect(r.frame()).not.toContain('review: y send');
    await r.press(keysOf('dialog.confirm')[0]);
    expect(sent).toEqual([]);
    await r.resize(80, 23);
    expect(r.frame()).toContain('review: y send');
    await r.press(keysOf('dialog.confirm')[0]);
    expect(sent).toEqual(['sent']);
    await r.resize(80, 20);
    await r.press(KEYS.escape);
    expect(r.ui.getState().dialog).toBeUndefined();
  });
});
