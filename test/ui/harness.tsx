// Renders the console into a fake terminal of a fixed size (ink-testing-library's stdout is fixed at
// 100 columns with no rows), feeds it snapshots parsed from fixtures recorded from a real node, and
// fails the test on any console.error (React's act() warnings among them).
import fs from 'node:fs';
import path from 'node:path';
import React from 'react';
import { render } from 'ink';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { App } from '../../src/ui/app/App';
import { createUiStore, type UiStore } from '../../src/ui/state';
import { createConsoleStore, setSnapshot, type ConsoleStore, type ResourceName } from '../../src/store/console';
import { RESOURCES } from '../../src/cluster/resources';
import { FakeStdin, FakeStdout } from '../helpers/fake-terminal';
import { parsedAsPolled } from '../helpers/recorded';
import { waitUntil } from '../helpers/wait-until';
import type { WizardEntry } from '../../src/ui/wizards/registry';
import type { WizardServices } from '../../src/services/wizards';
import { WizardServicesProvider } from '../../src/ui/wizards/services';
import { LineCommandsProvider, type FleetControl, type LineCommands, type PollControl } from '../../src/ui/app/context';

export const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures');

export const KEYS = {
  up: '\u001b[A',
  down: '\u001b[B',
  pageDown: '\u001b[6~',
  escape: '\u001b',
  enter: '\r',
  tab: '\t',
  backspace: '\u007f',
  ctrlC: '\u0003',
};

/** The raw response of one read of a recorded scenario (test/fixtures/<scenario>/<read>.json). */
export function fixture(scenario: string, read: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, scenario, `${read}.json`), 'utf8'));
}

/** Fills a store with every resource of a scenario, parsed as the poller would (the big tables streamed), `ageMs` old. */
export function loadScenario(store: ConsoleStore, scenario: string, ageMs = 3000): void {
  for (const name of Object.keys(RESOURCES) as ResourceName[]) {
    setSnapshot(store, name, { data: parsedAsPolled(scenario, name) as never, fetchedAt: NOW - ageMs, failures: 0 });
  }
}

export function makeStore(opts: { readOnly?: boolean; insecure?: boolean } = {}): ConsoleStore {
  return createConsoleStore({
    connection: { url: 'http://127.0.0.1:9200', profile: 'default', insecure: opts.insecure ?? false, readOnly: opts.readOnly ?? false },
  });
}

export interface Rendered {
  frame(): string;
  lines(): string[];
  press(key: string): Promise<void>;
  type(text: string): Promise<void>;
  resize(columns: number, rows: number): Promise<void>;
  /** Waits until Ink has drawn what the last input or state change asked for (see `settled`). */
  settled(): Promise<void>;
  unmount(): void;
  store: ConsoleStore;
  ui: UiStore;
  refreshes: number;
  /** How often the UI asked the poller for diagnoses (the d key). */
  diagnoses: number;
  /** How often the UI asked for the doctor's checks (Doctor pane opened, c). */
  doctors: number;
}

export function tick(ms = 0): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Waits for the drawing to settle: no new frame for three turns of the event loop in a row (at most
 * 500 turns). It waits on the frames themselves, not on a clock: a busy machine only takes more turns.
 */
async function settled(stdout: FakeStdout): Promise<void> {
  let seen = stdout.frames.length;
  for (let turn = 0, quiet = 0; turn < 500 && quiet < 3; turn++) {
    await tick();
    if (stdout.frames.length === seen) quiet++;
    else [seen, quiet] = [stdout.frames.length, 0];
  }
}

/** Mounts the App on a terminal of columns x rows and waits a tick so input handlers are registered. */
export async function renderApp(
  store: ConsoleStore,
  // A real Poller and the real clock: the real-node tests (test/integration/node-dies.test.tsx).
  {
    columns = 80,
    rows = 24,
    wizards = [] as WizardEntry[],
    ui = createUiStore(),
    services = undefined as WizardServices | undefined,
    poller: realPoller = undefined as PollControl | undefined,
    clock = () => NOW,
    fleet = undefined as FleetControl | undefined,
    /** The command line's read commands (`:cat allocation`): text recorded from a real node. */
    commands = undefined as LineCommands | undefined,
  } = {},
): Promise<Rendered> {
  const stdout = new FakeStdout(columns, rows);
  const stdin = new FakeStdin();
  const result = {
    refreshes: 0,
    diagnoses: 0,
    doctors: 0,
  } as Rendered;
  const poller = realPoller ?? {
    refreshNow: () => {
      result.refreshes++;
      return Promise.resolve();
    },
    diagnose: () => {
      result.diagnoses++;
      return Promise.resolve();
    },
    doctor: () => {
      result.doctors++;
      return Promise.resolve();
    },
  };
  const app = (
    <LineCommandsProvider value={commands}>
      <App store={store} poller={poller} ui={ui} clock={clock} wizards={wizards} fleet={fleet} />
    </LineCommandsProvider>
  );
  // Views (ui/views/) reach the cluster through the services, as the TUI provides them.
  const instance = render(services ? <WizardServicesProvider value={services}>{app}</WizardServicesProvider> : app, {
    stdout: stdout as never,
    stdin: stdin as never,
    stderr: new FakeStdout(columns, rows) as never,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  await tick();
  const frame = () => stdout.frames.at(-1) ?? '';
  Object.assign(result, {
    frame,
    lines: () => frame().split('\n'),
    // As an operator does: the next key once the screen shows what this one did. A key written
    // before Ink redrew goes to the handlers still drawn (CI, 2026-11-26: a second Esc reached the
    // index detail it had just closed).
    press: async (key: string) => {
      stdin.write(key);
      await tick();
      await settled(stdout);
    },
    type: async (text: string) => {
      for (const ch of text) {
        stdin.write(ch);
        await tick();
      }
    },
    resize: async (c: number, r: number) => {
      const before = stdout.frames.length;
      stdout.columns = c;
      stdout.rows = r;
      stdout.emit('resize');
      // Ink redraws on resize asynchronously; under load one tick is not always enough.
      for (let i = 0; i < 50 && stdout.frames.length === before; i++) await tick(10);
      await tick();
    },
    settled: () => settled(stdout),
    unmount: () => instance.unmount(),
    store,
    ui,
  });
  return result;
}

/**
 * Waits until the drawn frame satisfies `test` (a store change is drawn on Ink's next render, not
 * at once); the frame then. Instead of a fixed sleep before reading the frame.
 */
export function frameWhere(
  app: Pick<Rendered, 'frame'>,
  what: string,
  test: (frame: string) => boolean,
  timeoutMs = 10_000,
): Promise<string> {
  return waitUntil(what, () => app.frame(), test, { timeoutMs, intervalMs: 5 });
}

/**
 * Any console.error during a test (React act() warnings, key warnings) fails it. `file`: one spy
 * for the whole file, checked after it (tests that run concurrently share the one console).
 */
export function failOnConsoleError(scope: 'each' | 'file' = 'each'): void {
  let spy: ReturnType<typeof vi.spyOn>;
  (scope === 'each' ? beforeEach : beforeAll)(() => {
    spy = vi.spyOn(console, 'error');
  });
  (scope === 'each' ? afterEach : afterAll)(() => {
    expect(spy.mock.calls.map((c: unknown[]) => String(c[0]))).toEqual([]);
    spy.mockRestore();
  });
}
