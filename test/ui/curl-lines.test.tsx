// The requests behind a pane as curl lines (`c`): a line longer than the terminal wraps whole, and
// the next request starts on a row of its own. Shrunk by the layout when the lines outgrow their
// box, a wrapped line's rows were drawn over the next one (ui/panes/table.tsx WrappedLines).
import { afterEach, describe, expect, it } from 'vitest';
import { curlLinesOf } from '../../src/ui/panes/curl';
import { failOnConsoleError, loadScenario, makeStore, renderApp, type Rendered } from './harness';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

describe('curl lines under a table', () => {
  it('Nodes at 80x24: each read wraps whole from a row of its own (the nodes read is two requests), the statistics line that has no room whole is named, not cut', async () => {
    const store = makeStore();
    loadScenario(store, 'yellow');
    store.setState({ pane: 'nodes' });
    r = await renderApp(store, { columns: 80, rows: 24 });
    await r.press('c');
    const rows = r.frame().split('\n');
    const lines = curlLinesOf(['nodes', 'nodeJvm', 'nodeStats'], store.getState().connection);
    expect(lines.map((l) => /9200(\/[^?']*)/.exec(l)?.[1])).toEqual([
      '/_nodes/_all/_none',
      '/_cluster/state/master_node',
      '/_nodes/jvm',
      '/_nodes/stats/jvm,os,fs,thread_pool,breaker,indices/fielddata,search,indexing',
    ]);
    const stats = lines.pop()!;
    let at = rows.findIndex((l) => l.startsWith('curl -X GET'));
    expect(at).toBeGreaterThan(0);
    const wrapped = (line: string) => Math.ceil(line.length / 80);
    // Each request from the first column of its own row, its rows together make the whole line.
    for (const line of lines) {
      expect(
        rows
          .slice(at, at + wrapped(line))
          .map((l) => l.trimEnd())
          .join(''),
      ).toBe(line);
      at += wrapped(line);
    }
    // Issue 47 item 7: a command cut by the box could be copied half; it is left out and said.
    expect(stats.length).toBeGreaterThan(80);
    expect(r.frame()).not.toContain(stats.slice(0, 80));
    expect(rows[at]).toMatch(/^\(1 more line: a taller terminal shows it\)/);
  });
});
