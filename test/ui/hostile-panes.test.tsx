// The console panes over the hostile names fixture: the recorded yellow scenario with one more
// index (and its shard) per hostile name, on a node with a hostile name. No frame holds a raw
// control character (the frames here are uncoloured, so no ESC at all), the names show escaped,
// and every hostile row can still be selected as exactly its own name.
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/cluster/resources';
import { displayText } from '../../src/domain/text/display-text';
import { setSnapshot } from '../../src/store/console';
import { HOSTILE } from '../fixtures/hostile/names';
import { failOnConsoleError, fixture, KEYS, loadScenario, makeStore, NOW, renderApp, type Rendered } from './harness';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const NAMES = HOSTILE.map((h) => h.name);
const NODE = 'node\u001b]0;pwned\u0007\u202eevil';
// eslint-disable-next-line no-control-regex -- asserts no control character reaches the output
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function hostileStore() {
  const store = makeStore();
  loadScenario(store, 'yellow');
  const indices = fixture('yellow', 'indices') as Record<string, string>[];
  const shards = fixture('yellow', 'shards') as Record<string, string | null>[];
  const nodes = fixture('yellow', 'nodes') as { nodes: Record<string, Record<string, unknown>> };
  const rows = NAMES.map((name, i) => ({ ...indices[0], index: name, uuid: `hostile${i}`, health: 'green', rep: '0' }));
  const shardRows = NAMES.map((name) => ({ ...shards[0], index: name, shard: '0', node: NODE }));
  const set = (name: 'indices' | 'shards' | 'nodes', raw: unknown) =>
    setSnapshot(store, name, { data: RESOURCES[name].parse(raw as never) as never, fetchedAt: NOW - 3000, failures: 0 });
  set('indices', [...indices, ...rows]);
  set('shards', [...shards.map((s) => ({ ...s, node: s.node ? NODE : s.node })), ...shardRows]);
  set('nodes', { ...nodes, nodes: Object.fromEntries(Object.entries(nodes.nodes).map(([id, n]) => [id, { ...n, name: NODE }])) });
  return store;
}

describe('hostile names in the console', () => {
  for (const pane of ['indices', 'shards', 'nodes', 'disk', 'health'] as const) {
    it(`the ${pane} pane shows them inert, at 80x24 and 160x40`, async () => {
      for (const [columns, rows] of [
        [80, 24],
        [160, 40],
      ] as const) {
        const store = hostileStore();
        store.setState({ pane });
        r = await renderApp(store, { columns, rows });
        for (let page = 0; page < 4; page++) {
          expect(r.frame(), `${pane} ${columns}x${rows}`).not.toMatch(RAW);
          await r.press(KEYS.pageDown);
        }
        r.unmount();
        r = undefined;
      }
    });
  }

  it('the wide Indices pane shows the escaped names, and every hostile row is selected as exactly its own name', async () => {
    const store = hostileStore();
    store.setState({ pane: 'indices' });
    r = await renderApp(store, { columns: 160, rows: 40 });
    const frame = r.frame();
    for (const name of NAMES.filter((n) => n.length < 30)) expect(frame, JSON.stringify(name)).toContain(displayText(name));
    const seen = new Set<string>();
    for (let i = 0; i < 80; i++) {
      const sel = r.ui.getState().selection.indices?.index;
      if (sel) seen.add(sel);
      await r.press(KEYS.down);
    }
    for (const name of NAMES) expect(seen.has(name), JSON.stringify(name)).toBe(true);
  });
});
