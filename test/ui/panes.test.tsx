// The panes on data recorded from a real Elasticsearch 8.19 node (test/fixtures/yellow: demo
// data, one index with a replica on a single node, one read-only block), at 80x24.
import { afterEach, describe, expect, it } from 'vitest';
import { KEYMAP, keysOf } from '../../src/keys/keymap';
import { setSnapshot } from '../../src/store/console';
import { waitUntil } from '../helpers/wait-until';
import { failOnConsoleError, frameWhere, KEYS, loadScenario, makeStore, NOW, renderApp, type Rendered } from './harness';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

async function open(pane: 'health' | 'indices' | 'shards' | 'disk' | 'nodes', opts: Parameters<typeof makeStore>[0] = {}) {
  const store = makeStore(opts);
  loadScenario(store, 'yellow');
  store.setState({ pane });
  r = await renderApp(store);
  return r;
}

describe('layout', () => {
  it('fits 80x24: one line short of the screen, no line wider than 80', async () => {
    const app = await open('health');
    const lines = app.lines();
    expect(lines.length).toBe(23);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
  });

  it('header names the cluster, its status and version; footer hints come from the keymap', async () => {
    const app = await open('indices');
    expect(app.lines()[0]).toMatch(/shardeck-fixtures-\d+ +YELLOW +8\.19\.21/);
    expect(app.lines().at(-2)).toContain('q quit');
    // At 80 columns the Indices pane's changes come first (S shrink); / filter is hinted from 100.
    expect(app.lines().at(-2)).toContain('S shrink');
  });

  it('data fetched every few intervals is "just now" within its own period, and counts seconds once late', async () => {
    const app = await open('health');
    const report = app.store.getState().snapshots.healthReport;
    // 7 s old read at the console's interval (5 s) is late: seconds counted. (The scenario's reads
    // are 3 s old, "just now" already: this makes the wait below prove the period.)
    setSnapshot(app.store, 'healthReport', { ...report, fetchedAt: NOW - 7000, periodMs: undefined });
    await frameWhere(app, 'the Health title 7s ago', (f) => /^Health .* 7s ago$/.test(f.split('\n')[2]));
    // The health report is read every second interval (10 s at the default 5 s): 7 s old is on time.
    setSnapshot(app.store, 'healthReport', { ...report, fetchedAt: NOW - 7000, periodMs: 10_000 });
    setSnapshot(app.store, 'health', { ...app.store.getState().snapshots.health, fetchedAt: NOW - 1000, periodMs: 5000 });
    await frameWhere(app, 'the Health title just now', (f) => /^Health .* just now$/.test(f.split('\n')[2]));
    setSnapshot(app.store, 'healthReport', { ...report, fetchedAt: NOW - 12_000, periodMs: 10_000 });
    await frameWhere(app, 'the Health title 12s ago', (f) => /^Health .* 12s ago$/.test(f.split('\n')[2]));
  });

  it('works at 80x23 (80x24 less a tmux line), degrades below, says it is too small under 80x16 and recovers', async () => {
    const app = await open('indices');
    // Ink redraws after a resize in its own time: wait for the frame of the new size.
    const at = (rows: number, what: string) =>
      waitUntil(
        `the ${rows}-row frame`,
        () => app.frame(),
        (f) => f.split('\n').length === rows - 1 && f.includes(what),
        { timeoutMs: 5000, intervalMs: 10 },
      );
    await app.resize(80, 23);
    await at(23, 'q quit');
    expect(app.frame()).not.toContain('too small');
    expect(app.lines().at(-2)).toContain('q quit  ? help');
    // Shorter: fewer rows, and the key hints line goes (the status bar stays).
    await app.resize(80, 17);
    await at(17, 'service_v9_alpha');
    expect(app.frame()).not.toContain('q quit');
    expect(app.lines().at(-1)).toContain('http://127.0.0.1:9200');
    await app.resize(80, 15);
    await waitUntil(
      'the too-small message',
      () => app.frame(),
      (f) => f.includes('terminal too small: 80x15, need 80x16'),
      { timeoutMs: 5000, intervalMs: 10 },
    );
    await app.resize(70, 20);
    await waitUntil(
      'the too-small message',
      () => app.frame(),
      (f) => f.includes('terminal too small: 70x20, need 80x16'),
      { timeoutMs: 5000, intervalMs: 10 },
    );
    expect(app.frame()).not.toContain('service_v9_alpha');
    await app.resize(80, 24);
    await at(24, 'service_v9_alpha');
    expect(app.frame()).not.toContain('too small');
  });

  it('marks read-only mode and --insecure', async () => {
    const app = await open('health', { readOnly: true, insecure: true });
    expect(app.lines()[0]).toContain('READ-ONLY');
    expect(app.lines().at(-1)).toContain('INSECURE: TLS certificate not verified');
  });
});

describe('Health', () => {
  it('asks for the verbose diagnosis on d and shows cause and action under the indicator', async () => {
    const app = await open('health');
    expect(app.frame()).toContain('d: diagnose (verbose health report)');
    await app.press('d');
    expect(app.diagnoses).toBe(1);
    app.store.setState({
      diagnoses: {
        inFlight: false,
        fetchedAt: Date.now(),
        byIndicator: {
          disk: [{ cause: '1 index resides on nodes short of disk', action: 'Free up disk space', affectedIndices: ['service_v9_bravo'] }],
        },
      },
    });
    await frameWhere(app, 'the diagnosis drawn', (f) => f.includes('cause: 1 index resides on nodes short of disk'));
    expect(app.frame()).toContain('do: Free up disk space');
    expect(app.frame()).toContain('diagnosis below (d: again)');
  });

  it('d with every indicator green says there is nothing to diagnose, and asks the node nothing (issue 47)', async () => {
    const app = await open('health');
    const snaps = app.store.getState().snapshots;
    const report = snaps.healthReport;
    app.store.setState({
      snapshots: {
        ...snaps,
        healthReport: { ...report, data: { ...report.data!, indicators: report.data!.indicators.map((i) => ({ ...i, status: 'green' })) } },
      },
    });
    await frameWhere(app, 'the diagnose hint gone', (f) => !f.includes('d: diagnose'));
    await app.press('d');
    expect(app.diagnoses).toBe(0);
    await frameWhere(app, 'the notice', (f) => f.includes('every health indicator is green: nothing to diagnose'));
  });

  it('says yellow and why: replicas that cannot be placed on one node', async () => {
    const app = await open('health');
    const f = app.frame();
    expect(f).toContain('YELLOW');
    expect(f).toMatch(/unassigned shards: 6 replica REPLICA_ADDED/);
    expect(f).toContain('single-node cluster');
    expect(f).toMatch(/unassigned 6 \(pri 0\)/);
  });

  it('lists health report indicators worst first with their impact', async () => {
    const app = await open('health');
    const lines = app.lines();
    const disk = lines.findIndex((l) => /^RED +disk/.test(l));
    const green = lines.findIndex((l) => /^GREEN /.test(l));
    expect(disk).toBeGreaterThan(0);
    expect(green).toBeGreaterThan(disk);
    expect(lines[disk + 1]).toContain('impact: Cannot insert or update documents');
  });

  it('goes stale with the one-sentence error and keeps retrying', async () => {
    const app = await open('health');
    setSnapshot(app.store, 'health', {
      error: {
        kind: 'unreachable',
        message: 'nothing listens at http://127.0.0.1:9200 (connection refused): is Elasticsearch running? check --url',
      },
      failures: 2,
    });
    const f = await frameWhere(app, 'STALE drawn', (x) => x.includes('STALE 3s ago'));
    expect(f).toContain('nothing listens at http://127.0.0.1:9200 (connection refused)');
    expect(f).toContain('retrying every 20s');
    expect(f).toContain('YELLOW?');
    expect(app.lines().at(-1)).toContain('node not answering, retrying');
  });
});

describe('Indices', () => {
  it('shows the read-only block and hides dot indices until "." is pressed', async () => {
    const app = await open('indices');
    expect(app.frame()).toMatch(/service_v9_bravo .* ro\/del/);
    expect(app.frame()).toMatch(/service_v9_orders +6\/1/);
    expect(app.frame()).not.toContain('.shardeck-demo-internal');
    expect(app.frame()).toContain('(1 dot hidden: .)');
    await app.press('.');
    expect(app.frame()).toContain('.shardeck-demo-internal');
    expect(app.frame()).toContain('6 of 6');
  });

  it('filter narrows rows as you type; Esc clears', async () => {
    const app = await open('indices');
    await app.press('/');
    await app.type('brav');
    const rows = () => app.lines().filter((l) => /service_v9_/.test(l));
    expect(rows()).toHaveLength(1);
    expect(rows()[0]).toContain('service_v9_bravo');
    // Global keys are off while typing: "q" is text, not quit.
    await app.type('q');
    expect(app.frame()).toContain('/bravq');
    expect(app.frame()).toContain('no index matches "bravq"');
    await app.press(KEYS.escape);
    expect(rows().length).toBe(5);
  });

  it('a filter pasted with its Enter in one piece is applied and closed like typed keys', async () => {
    const app = await open('indices');
    await app.press('/');
    await app.press('bravo\r');
    // The pasted characters are queued one by one: wait for the last (Enter) to be handled.
    await waitUntil(
      'the filter prompt to close',
      () => app.ui.getState().filtering,
      (f) => f === false,
      { timeoutMs: 5000, intervalMs: 10 },
    );
    await waitUntil(
      'the table to show the filtered rows',
      () => app.lines().filter((l) => /service_v9_/.test(l)).length,
      (n) => n === 1,
      { timeoutMs: 5000, intervalMs: 10 },
    );
  });

  it('orders by the next column with o and reverses with O', async () => {
    const app = await open('indices');
    const names = () =>
      app
        .lines()
        .filter((l) => /service_v9_/.test(l))
        .map((l) => /service_v9_\w+/.exec(l)![0]);
    expect(names()).toEqual([...names()].sort());
    await app.press(keysOf('table.sort')[0]); // health: yellow before green
    expect(names()[0]).toBe('service_v9_orders');
    expect(app.frame()).toContain('health↑');
    await app.press(keysOf('table.sortReverse')[0]);
    expect(names().at(-1)).toBe('service_v9_orders');
    expect(app.frame()).toContain('health↓');
  });

  it('puts the project name beside its index when signed in to the platform', async () => {
    const store = makeStore();
    loadScenario(store, 'yellow');
    store.setState({ pane: 'indices', projects: { alpha: 'Alpha Logistics' } });
    r = await renderApp(store);
    expect(r.frame()).toMatch(/service_v9_alpha +Alpha Logis… +6\/0/);
    expect(r.frame()).toMatch(/service_v9_legacy +\? legacy/);
    expect(r.frame()).toMatch(/service_v9_bravo .* ro\/del/);
  });

  it('names the projects that have no index, with the template version of the profile', async () => {
    const store = makeStore();
    loadScenario(store, 'yellow');
    store.setState({ pane: 'indices', projects: { alpha: 'Alpha Logistics', sandbox: 'Sandbox' } });
    // Wide enough for both names on the title line (at 80 columns its end is cut like any title's).
    r = await renderApp(store, { columns: 100 });
    expect(r.frame()).toContain('no index yet: Sandbox');
    expect(r.frame()).not.toMatch(/no index yet: .*Alpha/);
    // Under another template version, service_v9_* are not project indices at all.
    store.setState({ templateVersion: 'v10' });
    await frameWhere(r, 'the v10 projects drawn', (f) => f.includes('no index yet: Alpha Logistics, Sandbox'));
    expect(r.frame()).not.toContain('? legacy');
  });
});

describe('Shards', () => {
  it('lists the unassigned replicas with their reason, alone with u', async () => {
    const app = await open('shards');
    await app.press('u');
    const rows = app.lines().filter((l) => l.includes('UNASSIGNED'));
    expect(rows).toHaveLength(6);
    for (const row of rows) expect(row).toMatch(/service_v9_orders +\d +r +UNASSIGNED +- +- +REPLICA_ADDED/);
    expect(app.frame()).not.toContain('STARTED');
    expect(app.frame()).toContain('(problems only: u)');
  });

  it('keeps the selected shard in the UI store for wizards', async () => {
    const app = await open('shards');
    await app.press('u');
    await app.press(KEYS.down);
    expect(app.ui.getState().selection.shards).toMatchObject({ index: 'service_v9_orders', primary: false, node: null });
  });
});

describe('Disk', () => {
  it('draws a bar with L/H/F marks at the effective watermarks and the level', async () => {
    const app = await open('disk');
    const f = app.frame();
    expect(f).toContain('L low 85% ≤200gb');
    expect(f).toContain('F flood 95% ≤100gb');
    const bar = app.lines().find((l) => l.startsWith('fixtures'))!;
    expect(bar).toMatch(/\[█+·*L·*H·*F·*\] +\d+\.\d% OK/);
    // Marks sit in order at their share of the bar.
    expect(bar.indexOf('L')).toBeLessThan(bar.indexOf('H'));
    expect(f).toMatch(/used [\d.]+gb of [\d.]+gb · free [\d.]+gb · [\d.]+gb before high/);
  });

  it('lists the indices with a read-only block', async () => {
    const app = await open('disk');
    expect(app.frame()).toContain('1 index read-only');
    expect(app.frame()).toContain('service_v9_bravo  index.blocks.read_only_allow_delete');
  });
});

describe('Nodes', () => {
  it('shows heap used/max, heap vs RAM and scroll contexts against the limit', async () => {
    const app = await open('nodes');
    // At 80 columns: heap, Xms/Xmx, GC, CPU, load; RAM and the rest are in the selected node's lines.
    expect(app.frame()).toMatch(/\*fixtures +\d+% [█·]{10} +[\d.]+mb\/512mb +512m\/512m +\d+ [\d.]+m?s +\d+% +[\d.]+/);
    expect(app.frame()).toContain('-Xms512m = -Xmx512m');
    expect(app.frame()).toMatch(/RAM [\d.]+gb used of 23\.5gb · load [\d.]+ [\d.]+ [\d.]+ · cpu \d+%/);
    expect(app.frame()).toMatch(/data \d+% used, [\d.]+gb free of [\d.]+gb: \//);
    expect(app.frame()).toContain('heap max 512mb = 2% of RAM (limit 50%, never above 32gb)');
  });

  it('warns when heap max is over half the RAM, and above 32 GB', async () => {
    const app = await open('nodes');
    const figures = app.store.getState().snapshots.nodeStats.data!;
    const sized = (heapMaxBytes: number, ramTotalBytes: number) => ({
      data: { ...figures, stats: [{ ...figures.stats[0], heapMaxBytes, ramTotalBytes }] },
    });
    setSnapshot(app.store, 'nodeStats', sized(20 * 1024 ** 3, 32 * 1024 ** 3));
    await frameWhere(app, 'the heap warning over half the RAM', (f) => f.includes('is over 50% of RAM 32.0gb'));
    setSnapshot(app.store, 'nodeStats', sized(40 * 1024 ** 3, 128 * 1024 ** 3));
    await frameWhere(app, 'the heap warning above 32 GB', (f) => f.includes('is above 32gb: compressed pointers are off'));
  });
});

describe('keys', () => {
  it('switches panes with number keys and Tab', async () => {
    const app = await open('health');
    await app.press('3');
    expect(app.store.getState().pane).toBe('shards');
    expect(app.frame()).toContain('Shards  ');
    await app.press(KEYS.tab);
    expect(app.store.getState().pane).toBe('disk');
    // Shift-Tab goes back, and wraps from the first pane to the last.
    await app.press('\u001b[Z');
    expect(app.store.getState().pane).toBe('shards');
    await app.press('1');
    await app.press('\u001b[Z');
    expect(app.store.getState().pane).toBe('tasks');
    await app.press('1');
    await app.press('0');
    expect(app.store.getState().pane).toBe('tasks');
    await app.press('9');
    expect(app.store.getState().pane).toBe('snapshots');
  });

  it('a pane switched to does not flash a red STALE while its first read since is on its way', async () => {
    const app = await open('health');
    // The Disk pane's read was not polled while Health was on screen: ten minutes old.
    const alloc = app.store.getState().snapshots.allocation;
    setSnapshot(app.store, 'allocation', { ...alloc, fetchedAt: NOW - 600_000 });
    await app.press('4');
    expect(app.store.getState().pane).toBe('disk');
    expect(app.lines()[2]).toMatch(/^Disk/);
    expect(app.frame()).not.toContain('STALE');
  });

  it('p pauses polling, r asks the poller for a refresh', async () => {
    const app = await open('health');
    await app.press('p');
    expect(app.store.getState().paused).toBe(true);
    expect(app.lines()[0]).toContain('PAUSED');
    await app.press('r');
    expect(app.refreshes).toBe(1);
  });

  it('? lists every keymap row; global keys are off under it; Esc closes it', async () => {
    const app = await open('health', {});
    await app.press('?');
    const seen = new Set<string>();
    // Page through the whole overlay and collect what it says, until a page down changes nothing
    // (the end). A page skipping a row would leave its description unseen and fail below.
    for (let i = 0, last = ''; i < KEYMAP.length && app.frame() !== last; i++) {
      last = app.frame();
      app.lines().forEach((l) => seen.add(l.trim()));
      await app.press(KEYS.pageDown);
      await app.settled();
    }
    const text = [...seen].join('\n');
    for (const k of KEYMAP) expect(text).toContain(k.description);
    await app.press('2');
    expect(app.store.getState().pane).toBe('health');
    await app.press(KEYS.escape);
    expect(app.frame()).not.toContain('Esc or ? closes');
  });
});
