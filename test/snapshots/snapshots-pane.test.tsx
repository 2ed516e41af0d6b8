// The Snapshots pane (9) as the operator sees it, at 80x23 (an 80x24 terminal less a tmux line) and
// 120x40. Every answer was recorded from a real 8.19 node: the empty state is the yellow
// scenario's (no repository: GET _snapshot answers {}); the filled one is test/fixtures/snapshots/
// pane-*.json (a repository, a SUCCESS and a PARTIAL snapshot whose red index failed), with a
// _status and a restore's _recovery recorded by the CLI half standing in for what runs now.
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/cluster/resources';
import { setSnapshot } from '../../src/store/console';
import { failOnConsoleError, fixture, loadScenario, makeStore, NOW, renderApp, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const SIZES = [
  [80, 23],
  [120, 40],
] as const;

type Fill = { running?: boolean; index?: string };

async function screen(columns: number, rows: number, fill?: Fill): Promise<string> {
  const store = makeStore();
  loadScenario(store, 'yellow');
  if (fill) {
    const put = (name: 'snapshotRepositories' | 'snapshots' | 'runningSnapshots' | 'restores', file: string) =>
      setSnapshot(store, name, {
        data: RESOURCES[name].parse(fixture('snapshots', file) as never) as never,
        fetchedAt: NOW - 3000,
        failures: 0,
      });
    put('snapshotRepositories', 'pane-repositories');
    put('snapshots', 'pane-snapshots');
    if (fill.running) {
      put('runningSnapshots', 'status-s1');
      put('restores', 'recovery-after-restore');
    }
  }
  store.setState({ pane: 'snapshots' });
  r = await renderApp(store, { columns, rows });
  if (fill?.index) {
    r.ui.setState((s) => ({ selection: { ...s.selection, indices: { index: fill.index! } } }));
    await r.settled();
  }
  return withColourMarkers(r.frame());
}

describe('Snapshots pane', () => {
  for (const [columns, rows] of SIZES) {
    it(`no repository at ${columns}x${rows}`, async () => {
      const text = await screen(columns, rows);
      expect(text).toContain('no repository: shardeck snapshot repo add');
      await expect(text).toMatchFileSnapshot(`__screens__/snapshots-empty-${columns}x${rows}.txt`);
    });
    it(`a repository, two snapshots, logs-c highlighted in Indices at ${columns}x${rows}`, async () => {
      const text = await screen(columns, rows, { index: 'logs-c' });
      expect(text.indexOf('nightly-2')).toBeLessThan(text.indexOf('nightly-1')); // newest first
      expect(text).toContain('logs-c[0]: primary shard is not allocated'); // the failure, under the table
      expect(text).toContain('logs-c (Indices pane) is in no snapshot'); // PARTIAL without its shard
      await expect(text).toMatchFileSnapshot(`__screens__/snapshots-list-${columns}x${rows}.txt`);
    });
    it(`a snapshot and a restore running at ${columns}x${rows}`, async () => {
      const text = await screen(columns, rows, { running: true, index: 'logs-a' });
      expect(text).toContain('logs-a (Indices pane) is held by backups/nightly-2, backups/nightly-1');
      expect(text).toContain('████████████'); // the bars, full: both recorded at their end
      expect(text).toContain('snapshot r1/s1 SUCCESS: shards 1/1 done');
      expect(text).toContain('restore s1: logs-a-restored[0] DONE 16.4kb/16.4kb'); // at 80 columns without the percent (the bar shows it)
      await expect(text).toMatchFileSnapshot(`__screens__/snapshots-running-${columns}x${rows}.txt`);
    });
  }
});
