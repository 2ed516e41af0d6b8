// Every pane as the operator sees it, at 80x24 and at 120x40, on data recorded from a real node
// (test/fixtures/yellow and red) and on the full health report (test/fixtures/full). Colour is kept
// and written as visible markers (test/ui/markers.ts), one file per screen in __screens__/, so a
// change in what the operator sees is a readable diff in the commit.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parseHealthReport } from '../../src/domain/parse';
import type { PaneId } from '../../src/store/console';
import { failOnConsoleError, fixture, loadScenario, makeStore, NOW, renderApp, tick, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const PANES: PaneId[] = ['health', 'indices', 'shards', 'disk', 'nodes'];
const SIZES = [
  [80, 24],
  [120, 40],
] as const;

async function screen(scenario: string, pane: PaneId, columns: number, rows: number, prepare?: (r: Rendered) => void): Promise<string> {
  const store = makeStore();
  loadScenario(store, scenario);
  store.setState({ pane });
  r = await renderApp(store, { columns, rows });
  if (prepare) {
    prepare(r);
    await tick(20);
  }
  return withColourMarkers(r.frame());
}

describe.each(['yellow', 'red', 'full'])('%s scenario', (scenario) => {
  for (const pane of PANES)
    for (const [columns, rows] of SIZES)
      it(`${pane} pane at ${columns}x${rows}`, async () => {
        await expect(await screen(scenario, pane, columns, rows)).toMatchFileSnapshot(`__screens__/${scenario}-${pane}-${columns}x${rows}.txt`);
      });
});

describe('Health pane with the verbose diagnoses fetched (d)', () => {
  for (const [columns, rows] of SIZES)
    it(`full report at ${columns}x${rows}`, async () => {
      const text = await screen('full', 'health', columns, rows, (app) => {
        const byIndicator = Object.fromEntries(parseHealthReport(fixture('full', 'healthReport-verbose') as never).indicators.map((i) => [i.name, i.diagnoses]));
        app.store.setState({ diagnoses: { byIndicator, fetchedAt: Date.now(), inFlight: false } });
      });
      expect(text).toContain('do: Increase the number of nodes'); // the diagnosis' action is on screen
      await expect(text).toMatchFileSnapshot(`__screens__/full-health-diagnosed-${columns}x${rows}.txt`);
    });
});

// A report `shardeck doctor --json` made on a real node with findings (test/fixtures/doctor/report-red.json).
describe('Doctor pane', () => {
  const report = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'doctor', 'report-red.json'), 'utf8'));
  for (const [columns, rows] of SIZES)
    it(`findings of a red node at ${columns}x${rows}, the second one selected`, async () => {
      const text = await screen('red', 'doctor', columns, rows, (app) => {
        app.store.setState({ doctor: { report, fetchedAt: NOW - 5000, inFlight: false } });
        app.ui.setState((s) => ({ tables: { ...s.tables, doctor: { ...s.tables.doctor, cursor: 1 } } }));
      });
      expect(text).toContain('remedy: remove or correct the allocation filter');
      await expect(text).toMatchFileSnapshot(`__screens__/red-doctor-${columns}x${rows}.txt`);
    });
});
