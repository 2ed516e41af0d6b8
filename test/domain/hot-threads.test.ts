// Hot threads: the plain text of GET _nodes/<id>/hot_threads recorded from a real 8.19.21 node
// under bulk and search load (dev/record-hot-threads.ts), parsed into threads with their share,
// pool and frames; drawn at 80 columns, escaped; the options and the node checked.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import {
  hotThreadLines,
  hotThreadsNode,
  parseHotThreads,
  parseHotThreadsOptions,
  shortFrame,
  threadPool,
} from '../../src/domain/nodes/hot-threads';

const recorded = (name: string) => fs.readFileSync(path.join(__dirname, '../fixtures/hot-threads', `${name}.txt`), 'utf8');

describe('parseHotThreads', () => {
  it('a busy node sampled for cpu: threads with their share, split, pool and frames', () => {
    const [n, ...rest] = parseHotThreads(recorded('cpu'));
    expect(rest).toEqual([]);
    expect(n).toMatchObject({ name: 'hot-fixtures', id: 'fHrdPCN1Qxmi36s87UxO3Q', interval: '500ms', type: 'cpu', busiest: 3 });
    expect(n.at).toMatch(/^2026-11-26T/);
    expect(n.threads.length).toBeGreaterThan(0);
    expect(n.threads[0]).toMatchObject({ percent: 86.4, cpu: 5.4, other: 81, usage: '432ms out of 500ms', pool: 'write' });
    expect(n.threads[0].name).toBe('elasticsearch[hot-fixtures][write][T#2]');
    expect(n.threads[0].stacks[0].snapshots).toBe('2/10');
    // Module prefixes dropped, innermost frame first.
    expect(n.threads[0].stacks[0].frames[0]).toBe('java.util.concurrent.atomic.AtomicReferenceArray.set(AtomicReferenceArray.java:112)');
    expect(n.threads[0].stacks[0].frames.some((f) => f.startsWith('app/'))).toBe(false);
  });

  it('sampled for wait: no cpu split, a unique snapshot', () => {
    const [n] = parseHotThreads(recorded('wait'));
    expect(n.type).toBe('wait');
    expect(n.threads[0]).toMatchObject({ percent: 112, cpu: null, other: null, pool: 'search' });
    expect(n.threads[0].stacks[0].snapshots).toBe('unique');
  });

  it('odd input: nothing, or a node with no thread', () => {
    expect(parseHotThreads('')).toEqual([]);
    expect(parseHotThreads('not hot threads at all')).toEqual([]);
    const [n] = parseHotThreads(
      '::: {a}{id1}{x}\n   Hot threads at 2026-01-01T00:00:00Z, interval=1s, busiestThreads=3, ignoreIdleThreads=true:\n',
    );
    expect(n).toMatchObject({ name: 'a', id: 'id1', interval: '1s', threads: [] });
    // No busy thread says no type: the one asked for is the one sampled (seen: "? over 500ms" for wait).
    const idle = '::: {a}{id1}{x}\n   Hot threads at 2026-01-01T00:00:00Z, interval=500ms, busiestThreads=3, ignoreIdleThreads=true:\n';
    expect(parseHotThreads(idle, 'wait')[0].type).toBe('wait');
    expect(hotThreadLines(parseHotThreads(idle, 'wait'), 80)[0].text).toMatch(/^a: wait over 500ms/);
    expect(hotThreadLines([n], 80).map((l) => l.text.trimEnd())).toContain('  no busy thread in the interval (idle threads are left out)');
  });
});

describe('hotThreadLines', () => {
  it('fits 80 columns, the hot ones in colour, frames shortened', () => {
    const lines = hotThreadLines(parseHotThreads(recorded('cpu')), 80);
    for (const l of lines) expect(l.text.length).toBeLessThanOrEqual(80);
    expect(lines[0].text).toMatch(/^hot-fixtures: cpu over 500ms · sampled 2026-11-26T/);
    expect(lines[1]).toMatchObject({ tone: 'red' });
    expect(lines[1].text).toMatch(/^ 86\.4% write elasticsearch\[hot-fixtures\]\[write\]\[T#2\] \(cpu 5\.4%, other 81%\)/);
    expect(lines[3].text.trim()).toBe('j.u.c.a.AtomicReferenceArray.set(AtomicReferenceArray.java:112)');
  });

  it('escapes what the node wrote (a thread or node name with control characters)', () => {
    const text =
      "::: {evil\u001b[2J}{id}\n   Hot threads at x, interval=500ms, busiestThreads=1, ignoreIdleThreads=true:\n   50.0% (250ms out of 500ms) cpu usage by thread 'worker\u001b]0;pwned\u0007'\n     unique snapshot\n       a.b.C.m\u001b[31m(C.java:1)\n";
    const lines = hotThreadLines(parseHotThreads(text), 80).map((l) => l.text);
    // eslint-disable-next-line no-control-regex -- the test looks for raw control characters
    for (const l of lines) expect(l).not.toMatch(/[\u0000-\u001f\u007f]/);
    const out = lines.join(' ');
    expect(out).toContain('worker\\u001b]0;pwned'); // shown escaped, not run
    expect(out).toContain('evil');
    expect(out).toContain('worker');
  });

  it('shortFrame and threadPool', () => {
    expect(shortFrame('org.elasticsearch.search.query.QueryPhase.execute(QueryPhase.java:70)')).toBe(
      'o.e.s.q.QueryPhase.execute(QueryPhase.java:70)',
    );
    expect(shortFrame('java.lang.Thread.run(Thread.java:840)')).toBe('j.l.Thread.run(Thread.java:840)');
    expect(threadPool('elasticsearch[n][search][T#3]')).toBe('search');
    expect(threadPool('Common-Cleaner')).toBeNull();
  });
});

describe('options and node', () => {
  it('checks threads, interval and type', () => {
    expect(parseHotThreadsOptions({})).toEqual({ ok: true, value: { threads: 3, interval: '500ms', type: 'cpu' } });
    expect(parseHotThreadsOptions({ threads: '10', interval: '2s', type: 'block' })).toEqual({
      ok: true,
      value: { threads: 10, interval: '2s', type: 'block' },
    });
    expect(parseHotThreadsOptions({ threads: '0' }).ok).toBe(false);
    expect(parseHotThreadsOptions({ interval: '1m' }).ok).toBe(false);
    expect(parseHotThreadsOptions({ interval: '20s' }).ok).toBe(false);
    expect(parseHotThreadsOptions({ type: 'mem' }).ok).toBe(false);
  });

  it('a node by its exact id or name, never a pattern', () => {
    const nodes = [
      { id: 'abc', name: 'node-1' },
      { id: 'def', name: 'node-2' },
    ];
    expect(hotThreadsNode(nodes, 'node-2')).toEqual({ ok: true, id: 'def', name: 'node-2' });
    expect(hotThreadsNode(nodes, 'abc')).toEqual({ ok: true, id: 'abc', name: 'node-1' });
    for (const pattern of ['*', '_all', 'node-*', 'node-1,node-2', '_local'])
      expect(hotThreadsNode(nodes, pattern)).toMatchObject({ ok: false, error: expect.stringContaining('no node is named') });
    expect(hotThreadsNode([...nodes, { id: 'ghi', name: 'node-1' }], 'node-1')).toMatchObject({
      ok: false,
      error: expect.stringContaining('give the node id'),
    });
  });
});
