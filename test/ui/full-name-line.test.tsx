// A name cut in the middle can look like another: every table pane that cuts names shows the
// highlighted row's whole names on a line under the table (the shared FullNameLine of
// ui/panes/table.tsx), and it follows the cursor. Shards (index and node), Nodes, Templates.
import { afterEach, describe, expect, it } from 'vitest';
import { setSnapshot, type ConsoleStore } from '../../src/store/console';
import type { ShardRow } from '../../src/domain/types';
import { failOnConsoleError, KEYS, loadScenario, makeStore, NOW, renderApp, type Rendered } from './harness';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const LONG = 'service_v9_logs-application-eu-west-1-2026-11-22-';
const tick = () => new Promise((res) => setTimeout(res, 0));

async function pane(name: 'shards' | 'nodes' | 'templates', edit: (store: ConsoleStore) => void, columns = 80): Promise<Rendered> {
  const store = makeStore();
  loadScenario(store, 'yellow');
  edit(store);
  store.setState({ pane: name });
  r = await renderApp(store, { columns });
  await tick();
  return r;
}

describe('the whole name of the highlighted row under every table that cuts names', () => {
  it('Shards: the index and the node, following the cursor', async () => {
    const app = await pane('shards', (store) => {
      const base = store.getState().snapshots.shards.data![0];
      const rows: ShardRow[] = ['000017', '000018'].map((n, i) => ({
        ...base,
        index: `${LONG}${n}`,
        shard: 0,
        primary: true,
        state: 'STARTED',
        node: `storage-node-in-rack-${i}-of-the-west-hall`,
      }));
      setSnapshot(store, 'shards', { data: rows, fetchedAt: NOW, failures: 0 });
    });
    expect(app.frame()).toContain(`index: ${LONG}000017 · node: storage-node-in-rack-0-of-the-west-hall`.slice(0, 79));
    await app.press(KEYS.down);
    expect(app.frame()).toContain(`index: ${LONG}000018`);
  });

  it('Nodes: the node name', async () => {
    const app = await pane('nodes', (store) => {
      const s = store.getState().snapshots.nodes;
      const base = s.data![0];
      setSnapshot(store, 'nodes', { ...s, data: [{ ...base, name: `${LONG}node-a`.repeat(2) }] });
    });
    expect(app.frame()).toContain(`node: *${LONG}node-a`);
  });

  it('Templates: the template name', async () => {
    const app = await pane('templates', (store) => {
      const s = store.getState().snapshots.indexTemplates;
      const body = s.data as { index_templates: { name: string }[] };
      setSnapshot(store, 'indexTemplates', {
        ...s,
        data: { index_templates: body.index_templates.map((t) => ({ ...t, name: `${t.name}-${'x'.repeat(30)}` })) } as never,
      });
    });
    expect(app.frame()).toMatch(/name: \S+-x{30}/);
  });

  it('no line when nothing is cut (wide enough for every name)', async () => {
    const app = await pane('shards', () => undefined, 160);
    expect(app.frame()).not.toMatch(/^index: /m);
  });
});
