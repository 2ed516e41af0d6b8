// The Nodes pane's rows and verdict, from the recorded yellow scenario and sized variations of it.
import { describe, expect, it } from 'vitest';
import { nodeLines, nodeVerdict, NODE_COLUMNS } from '../../../src/domain/panes/nodes';
import { scenario } from './scenario';

const y = scenario('yellow');
const GB = 1024 ** 3;

describe('nodes pane rows', () => {
  it('joins each node with its open contexts and the cluster limit, and shows them as columns', () => {
    const [n] = nodeLines(y.nodes, y.nodeSearch, y.settings.maxOpenScrollContext);
    expect(n).toMatchObject({ name: 'fixtures', openContexts: 0, scrollContextLimit: 500 });
    expect(NODE_COLUMNS.map((c) => c.text(n))).toEqual(['*fixtures', '33%', '███·······', '170mb/512mb', '23.5gb', '2%', '0/500', '68%']);
    // A node the search stats do not name: no count, shown as '-'.
    const [unknown] = nodeLines(y.nodes, [], 500);
    expect(NODE_COLUMNS.find((c) => c.title === 'scroll')!.text(unknown)).toBe('-');
  });

  it('the verdict names the heap rule, and says what to do when it is broken', () => {
    const [n] = nodeLines(y.nodes, y.nodeSearch, 500);
    expect(nodeVerdict(n)).toEqual([
      { text: 'heap max 512mb = 2% of RAM (limit 50%, never above 32gb)', tone: 'green' },
      { text: 'open search contexts 0 of search.max_open_scroll_context 500', tone: 'green' },
    ]);
    expect(nodeVerdict({ ...n, heapMaxBytes: 40 * GB, ramTotalBytes: 128 * GB })[0]).toMatchObject({ tone: 'red', text: expect.stringMatching(/above 32gb: compressed pointers are off/) });
    expect(nodeVerdict({ ...n, heapMaxBytes: 16 * GB, ramTotalBytes: 24 * GB })[0]).toMatchObject({ tone: 'yellow', text: expect.stringMatching(/over 50% of RAM/) });
    const full = nodeVerdict({ ...n, openContexts: 499 })[1];
    expect(full.tone).not.toBe('green');
    expect(full.text).toMatch(/raise the limit or shorten client scroll keep-alive$/);
    expect(nodeVerdict({ ...n, scrollContextLimit: null })).toHaveLength(1);
  });
});
