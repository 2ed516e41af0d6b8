// Every key acts on what the screen shows: the cursor follows the item (not the row number) when
// a poll re-sorts or reorders the rows, and when the item disappears the highlight moves to its
// neighbour but no action key fires on it until the operator moves (domain/console/list-nav.ts).
import React from 'react';
import { Text } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { keysOf } from '../../src/keys/keymap';
import { setSnapshot } from '../../src/store/console';
import type { IndexRow } from '../../src/domain/types';
import { useUi } from '../../src/ui/app/context';
import type { WizardEntry } from '../../src/ui/wizards/registry';
import { failOnConsoleError, frameWhere, KEYS, loadScenario, makeStore, NOW, renderApp, type Rendered } from './harness';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

/** Stands in for the replicas wizard: shows the index it was opened on. */
function Probe() {
  const index = useUi((s) => s.selection.indices?.index);
  return <Text>{`probe opened on ${index}`}</Text>;
}
const PROBE: WizardEntry = { id: 'probe', title: 'Probe', commandId: 'wizard.replicas', component: Probe };

/** The index under the cursor (the row DataTable draws inverse; colour is off in this project). */
function highlighted(app: Rendered): string | undefined {
  return app.ui.getState().selection.indices?.index;
}

async function indicesPane(): Promise<Rendered> {
  const store = makeStore();
  loadScenario(store, 'yellow');
  store.setState({ pane: 'indices' });
  r = await renderApp(store, { wizards: [PROBE] });
  return r;
}

/** A new Indices snapshot, as a poll brings it; waits until the frame shows it (`drawn`). */
async function setIndices(app: Rendered, rows: IndexRow[], what: string, drawn: (frame: string) => boolean): Promise<void> {
  setSnapshot(app.store, 'indices', { data: rows, fetchedAt: NOW, failures: 0 });
  await frameWhere(app, what, drawn);
}

const row = (name: string, like: IndexRow): IndexRow => ({ ...like, name });

describe('the cursor follows the item', () => {
  it('stays on the index chosen when a poll adds rows above it, and R acts on that index', async () => {
    const app = await indicesPane();
    const rows = app.store.getState().snapshots.indices.data!;
    await app.press(KEYS.down);
    await app.press(KEYS.down);
    expect(highlighted(app)).toBe('service_v9_kb');
    // The next poll: two new indices sort before it, so row 2 is now another index.
    await setIndices(app, [row('service_v9_aa1', rows[0]), row('service_v9_aa2', rows[0]), ...rows], 'the two new rows', (f) =>
      f.includes('service_v9_aa2'),
    );
    expect(highlighted(app)).toBe('service_v9_kb');
    expect(app.ui.getState().selection.indices).toEqual({ index: 'service_v9_kb' });
    await app.press(keysOf('wizard.replicas')[0]);
    expect(app.frame()).toContain('probe opened on service_v9_kb');
  });

  it('stays on the index chosen when the table is re-sorted', async () => {
    const app = await indicesPane();
    await app.press(KEYS.down);
    expect(highlighted(app)).toBe('service_v9_bravo');
    // The header's arrow says each key was handled (else "stays" would prove nothing).
    const sortedBy = () => app.frame().match(/[\w/]+[↑↓]/)?.[0];
    const first = sortedBy();
    await app.press(keysOf('table.sortReverse')[0]);
    expect(sortedBy()).not.toBe(first);
    expect(highlighted(app)).toBe('service_v9_bravo');
    const reversed = sortedBy();
    await app.press(keysOf('table.sort')[0]);
    expect(sortedBy()).not.toBe(reversed);
    expect(highlighted(app)).toBe('service_v9_bravo');
    await app.press(keysOf('wizard.replicas')[0]);
    expect(app.frame()).toContain('probe opened on service_v9_bravo');
  });

  it('when the index disappears: the neighbour is highlighted, the footer says so, and R waits for a move', async () => {
    const app = await indicesPane();
    const rows = app.store.getState().snapshots.indices.data!;
    await app.press(KEYS.down);
    await app.press(KEYS.down);
    expect(highlighted(app)).toBe('service_v9_kb');
    await setIndices(
      app,
      rows.filter((x) => x.name !== 'service_v9_kb'),
      'the footer saying service_v9_kb is gone',
      (f) => f.includes('selection moved: service_v9_kb is gone'),
    );
    // The row now at its old position.
    expect(highlighted(app)).toBe('service_v9_legacy');
    expect(app.frame()).toContain('selection moved: service_v9_kb is gone');
    await app.press(keysOf('wizard.replicas')[0]);
    expect(app.frame()).not.toContain('probe opened');
    expect(app.ui.getState().dialog).toBeUndefined();
    // Enter (the index detail) waits too.
    await app.press(KEYS.enter);
    expect(app.store.getState().indexDetail).toBeUndefined();
    // A look: up and down again, and the key acts on the index now chosen.
    await app.press(KEYS.up);
    expect(app.frame()).not.toContain('selection moved');
    await app.press(KEYS.down);
    expect(highlighted(app)).toBe('service_v9_legacy');
    await app.press(keysOf('wizard.replicas')[0]);
    expect(app.frame()).toContain('probe opened on service_v9_legacy');
  });

  it('a filter typed starts from its first row (a fresh choice), and Esc keeps the item', async () => {
    const app = await indicesPane();
    await app.press(KEYS.down);
    await app.press('/');
    await app.type('v9_');
    await app.press(KEYS.enter);
    expect(highlighted(app)).toBe('service_v9_alpha');
    expect(app.frame()).not.toContain('selection moved');
  });
});

describe('the table toggles (dot indices, problem shards)', () => {
  it('the cursor follows the item across a toggle that keeps it; a toggle that hides it puts the highlight on the first row', async () => {
    const app = await indicesPane();
    // Dot indices shown: choose a plain index, then hide the dots again: still the same index.
    await app.press('.');
    const rows = () => app.lines().filter((l) => /service_v9_|\.shardeck/.test(l));
    expect(rows().some((l) => l.includes('.shardeck-demo-internal'))).toBe(true);
    await app.press(KEYS.down);
    await app.press(KEYS.down);
    const chosen = highlighted(app)!;
    expect(chosen.startsWith('.')).toBe(false);
    await app.press('.');
    expect(highlighted(app)).toBe(chosen);
    // Show the dots, go to the dot index and hide it: the first row, and no "selection moved".
    await app.press('.');
    for (let i = 0; i < 10 && highlighted(app) !== '.shardeck-demo-internal'; i++) await app.press(KEYS.up);
    expect(highlighted(app)).toBe('.shardeck-demo-internal');
    await app.press('.');
    expect(highlighted(app)).toBe(app.ui.getState().tables.indices.key);
    expect(app.ui.getState().tables.indices.cursor).toBe(0);
    expect(highlighted(app)?.startsWith('.')).toBe(false);
    expect(app.frame()).not.toContain('selection moved');
  });
});

describe('long names', () => {
  it('are cut in the middle in the table, and the selected one is shown whole under it', async () => {
    const app = await indicesPane();
    const rows = app.store.getState().snapshots.indices.data!;
    const long = (n: string) => row(`service_v9_logs-application-eu-west-1-2026-11-22-${n}`, rows[0]);
    await setIndices(app, [long('000017'), long('000018')], 'the two long names', (f) => /…[\w-]*000018/.test(f));
    const shown = app.lines().filter((l) => /service_v9_l…/.test(l));
    expect(shown).toHaveLength(2);
    // The distinct ends stay on screen: the two rows are told apart.
    expect(shown[0]).toMatch(/…[\w-]*000017/);
    expect(shown[1]).toMatch(/…[\w-]*000018/);
    expect(app.frame()).toContain('index: service_v9_logs-application-eu-west-1-2026-11-22-000017');
    await app.press(KEYS.down);
    expect(app.frame()).toContain('index: service_v9_logs-application-eu-west-1-2026-11-22-000018');
  });
});

describe('the Fleet view', () => {
  it('keeps the chosen profile when a new answer re-sorts it (worst first), and Enter opens that one', async () => {
    const { createFleetStore, putFleetRow } = await import('../../src/store/fleet');
    const fleetStore = createFleetStore();
    const base = { url: 'http://x:9200', cluster: 'c', nodes: 1, unassigned: 0, disk: 'ok' as const, readOnlyIndices: 0, fetchedAt: NOW };
    for (const p of ['alpha', 'bravo', 'charlie']) putFleetRow(fleetStore, { ...base, profile: p, status: 'green' });
    const opened: string[] = [];
    const fleet = { store: fleetStore, start: () => {}, stop: () => {}, open: (p: string) => void opened.push(p) };
    const store = makeStore();
    loadScenario(store, 'yellow');
    r = await renderApp(store, { fleet });
    await r.press(keysOf('fleet.show')[0]);
    await r.press(KEYS.down);
    // charlie goes red: it moves to the top, and bravo (chosen, row 1) moves down to row 2.
    putFleetRow(fleetStore, { ...base, profile: 'charlie', status: 'red' });
    await frameWhere(r, 'charlie (red) drawn above alpha', (f) => f.indexOf('charlie') >= 0 && f.indexOf('charlie') < f.indexOf('alpha'));
    expect(fleetStore.getState().rows.map((x) => x.profile)).toEqual(['charlie', 'alpha', 'bravo']);
    await r.press(KEYS.enter);
    expect(opened).toEqual(['bravo']);
    // bravo disappears (profile removed): the highlight is on alpha, and Enter waits for a move.
    fleetStore.setState((s) => ({ rows: s.rows.filter((x) => x.profile !== 'bravo') }));
    await frameWhere(r, 'the fleet without bravo', (f) => f.includes('selection moved: bravo is gone'));
    expect(r.frame()).toContain('selection moved: bravo is gone');
    await r.press(KEYS.enter);
    expect(opened).toEqual(['bravo']);
    await r.press(KEYS.up);
    await r.press(KEYS.enter);
    expect(opened).toEqual(['bravo', 'charlie']);
  });
});
