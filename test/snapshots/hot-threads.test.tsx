// H on the Nodes pane: the highlighted node's hot threads, as sampled by a real 8.19.21 node under
// bulk and search load (test/fixtures/hot-threads, dev/record-hot-threads.ts), at 80x24 and
// 120x40. The services answer the sample with the recorded text, parsed as the facade parses it,
// and record what was asked (the node by id, the type) so Space's change of type is seen.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parseHotThreads, type HotThreadsOptions } from '../../src/domain/nodes/hot-threads';
import type { WizardServices } from '../../src/services/wizards';
import { failOnConsoleError, KEYS, loadScenario, makeStore, renderApp, tick, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';
import { waitUntil } from '../helpers/wait-until';

const frameWith = (text: string) =>
  waitUntil(
    `a frame with ${text}`,
    () => withColourMarkers(r!.frame()),
    (f) => f.includes(text),
    { timeoutMs: 10_000, intervalMs: 20 },
  );

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const recorded = (type: string) => parseHotThreads(fs.readFileSync(path.join(__dirname, '../fixtures/hot-threads', `${type}.txt`), 'utf8'));

describe.each([
  [80, 24],
  [120, 40],
] as const)('hot threads at %ix%i', (columns, rows) => {
  it('H samples the highlighted node; Space measures wait instead; Esc back to the pane', async () => {
    const asked: { node: string; o: HotThreadsOptions }[] = [];
    let answer: (v: ReturnType<typeof recorded>) => void = () => undefined;
    const services = {
      hotThreads: (node: string, o: HotThreadsOptions) => {
        asked.push({ node, o });
        return new Promise((res) => (answer = res));
      },
    } as unknown as WizardServices;
    const store = makeStore();
    loadScenario(store, 'yellow');
    store.setState({ pane: 'nodes' });
    r = await renderApp(store, { columns, rows, services });
    const node = store.getState().snapshots.nodes.data![0];
    await r.press('H');
    await frameWith('sampling 500ms on the node…');
    expect(asked).toEqual([{ node: node.id, o: { threads: 3, interval: '500ms', type: 'cpu' } }]);
    answer(recorded('cpu'));
    const cpu = await frameWith('86.4%');
    expect(cpu).toContain(`Hot threads of ${node.name}`);
    expect(cpu).toContain('86.4% write elasticsearch[hot-fixtures][write][T#2]');
    await expect(cpu).toMatchFileSnapshot(`__screens__/nodes-hot-threads-cpu-${columns}x${rows}.txt`);
    await r.press(' ');
    await frameWith('wait over 500ms, the 3 busiest');
    await waitUntil(
      'a second sample asked',
      () => asked.length,
      (n) => n === 2,
      { timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(asked[1]).toEqual({ node: node.id, o: { threads: 3, interval: '500ms', type: 'wait' } });
    answer(recorded('wait'));
    const wait = await frameWith('hot-fixtures: wait over 500ms');
    expect(wait).toContain('hot-fixtures: wait over 500ms');
    await expect(wait).toMatchFileSnapshot(`__screens__/nodes-hot-threads-wait-${columns}x${rows}.txt`);
    await r.press(KEYS.escape);
    await frameWith('5 Nodes');
    await tick(20);
    expect(r.frame()).not.toContain('Hot threads of');
  });
});
