// Recognising a corrupt primary in allocation explain, on what a real 8.19 node answered.
import { describe, expect, it } from 'vitest';
import { findCorruption, losslessOptions } from '../../../src/domain/corruption/explain';
import { fixture } from './fixtures';

describe('detection', () => {
  it('recognises no_valid_shard_copy with a corrupt copy and names the node and the file', () => {
    const f = findCorruption(JSON.parse(fixture('explain-primary.json')))!;
    expect(f).toMatchObject({
      index: 'corrupt-exp',
      shard: 0,
      canAllocate: 'no_valid_shard_copy',
      corrupt: true,
      node: { name: 'corrupt-exp' },
    });
    expect(f.reason).toMatch(/CorruptIndexException|corrupt/i);
  });

  it('while allocation is still retried (max_retry, the store reads fine), the failure details name the corrupt copy', () => {
    const f = findCorruption(JSON.parse(fixture('explain-primary-retrying.json')))!;
    expect(f).toMatchObject({ index: 'service_v9_broken', canAllocate: 'no', corrupt: true, node: { name: 'corrupt' } });
    expect(f.copies).toEqual([expect.objectContaining({ node: 'corrupt', inSync: true, corrupt: true })]);
    expect(f.reason).toMatch(/^codec mismatch/);
    expect(f.file).toMatch(/\/index\/_1\.cfs$/);
    // Its only copy is the corrupt one: a snapshot or a backup is what loses nothing, not "bring the node back".
    expect(losslessOptions(f, []).join('\n')).not.toMatch(/in-sync copy that is not corrupt/);
  });

  it('is not fooled by a primary that is merely unassigned (allocation filter)', () => {
    expect(
      findCorruption({
        index: 'x',
        shard: 0,
        primary: true,
        current_state: 'unassigned',
        can_allocate: 'no',
        node_allocation_decisions: [],
      }),
    ).toBeNull();
  });
});

describe('detection, plain values', () => {
  const dec = (name: string, store?: Record<string, unknown>) => ({ node_name: name, node_id: `id-${name}`, ...(store ? { store } : {}) });
  const explain = (patch: Record<string, unknown>) => ({
    index: 'i',
    shard: 2,
    primary: true,
    current_state: 'unassigned',
    can_allocate: 'no_valid_shard_copy',
    ...patch,
  });
  const deepCorrupt = {
    type: 'corrupt_index_exception',
    reason: 'outer',
    caused_by: {
      type: 'corrupt_index_exception',
      reason: 'deep (resource=path="/d/_3.cfs")',
      caused_by: { type: 'io_exception', reason: 'disk' },
    },
  };

  it('every copy: the deepest corruption of a chain, the last reason of a clean one, none without an exception', () => {
    const f = findCorruption(
      explain({
        node_allocation_decisions: [
          dec('a', { in_sync: true, store_exception: deepCorrupt }),
          dec('b', { in_sync: true }),
          dec('c', {
            in_sync: false,
            store_exception: { type: 'x', reason: 'outer stale', caused_by: { type: 'y', reason: 'stale reason' } },
          }),
          dec('d'),
        ],
      }),
    );
    expect(f).toStrictEqual({
      index: 'i',
      shard: 2,
      canAllocate: 'no_valid_shard_copy',
      corrupt: true,
      reason: 'deep (resource=path="/d/_3.cfs")',
      file: '/d/_3.cfs',
      node: { name: 'a', id: 'id-a' },
      copies: [
        { node: 'a', nodeId: 'id-a', inSync: true, corrupt: true, error: 'deep (resource=path="/d/_3.cfs")' },
        { node: 'b', nodeId: 'id-b', inSync: true, corrupt: false },
        { node: 'c', nodeId: 'id-c', inSync: false, corrupt: false, error: 'stale reason' },
      ],
    });
    expect(
      losslessOptions(f!, [
        { repository: 'r', snapshot: 'full', state: 'SUCCESS', endTime: '2026-11-20T01:00:00Z' },
        { repository: 'r', snapshot: 'part', state: 'PARTIAL' },
        { repository: 'r', snapshot: 'bad', state: 'FAILED' },
        { repository: 'r', snapshot: 'now', state: 'IN_PROGRESS' },
      ]),
    ).toEqual([
      'node b holds an in-sync copy that is not corrupt: bring that node back or explain why it is refused (shardeck explain i 2 primary)',
      'node c holds a stale copy that is not corrupt: promoting it (allocate_stale_primary) loses the writes it missed',
      'snapshot r/full (SUCCESS, ended 2026-11-20T01:00:00Z) holds i: delete the index (closed, a red index keeps its shard locked), then POST _snapshot/r/full/_restore {"indices":"i"} (writes after the snapshot are lost)',
      'snapshot r/part (PARTIAL) holds i: delete the index (closed, a red index keeps its shard locked), then POST _snapshot/r/part/_restore {"indices":"i"} (writes after the snapshot are lost)',
      'a file-level backup of the shard folder taken before the corruption: with the node stopped, put it back in place of the folder',
    ]);
  });

  it('a chain is read ten deep at most', () => {
    let e: Record<string, unknown> = { type: 'corrupt_index_exception', reason: 'eleventh' };
    for (let i = 10; i >= 1; i--) e = { type: 'wrapper', reason: `level ${i}`, caused_by: e };
    const f = findCorruption(explain({ node_allocation_decisions: [dec('a', { in_sync: true, store_exception: e })] }))!;
    expect(f.copies).toStrictEqual([{ node: 'a', nodeId: 'id-a', inSync: true, corrupt: false, error: 'level 10' }]);
    expect(f.corrupt).toBe(false);
  });

  it('while retried: the failure details mark the copy on the node they name, and only that one', () => {
    const details =
      'failed shard on node [id-b]: shard failure, reason [corrupt file], failure CorruptIndexException: bad header (resource=path="/x/_1.cfs")\n\tat org.apache.lucene.X';
    const f = findCorruption(
      explain({
        can_allocate: 'no',
        unassigned_info: { details },
        node_allocation_decisions: [
          dec('a', { in_sync: true }),
          dec('b', { in_sync: true, store_exception: { type: 'x', reason: 'locked' } }),
        ],
      }),
    );
    expect(f).toStrictEqual({
      index: 'i',
      shard: 2,
      canAllocate: 'no',
      corrupt: true,
      reason: 'bad header (resource=path="/x/_1.cfs")',
      file: '/x/_1.cfs',
      node: { name: 'b', id: 'id-b' },
      copies: [
        { node: 'a', nodeId: 'id-a', inSync: true, corrupt: false },
        { node: 'b', nodeId: 'id-b', inSync: true, corrupt: true, error: 'bad header (resource=path="/x/_1.cfs")' },
      ],
    });
  });

  it('details that say corrupt file without the exception keep the copy its own reason', () => {
    const f = findCorruption(
      explain({
        can_allocate: 'no',
        unassigned_info: { details: 'failed shard on node [id-a]: corrupt file (source: [start])' },
        node_allocation_decisions: [dec('a', { in_sync: true, store_exception: { type: 'x', reason: 'its own' } })],
      }),
    )!;
    expect(f.copies).toStrictEqual([{ node: 'a', nodeId: 'id-a', inSync: true, corrupt: true, error: 'its own' }]);
    expect(f.reason).toBe('its own');
  });

  it('no copy left: the node and the reason from the details, the file from a later line', () => {
    const f = findCorruption(
      explain({
        unassigned_info: { details: 'failed shard on node [id-z]: CorruptIndexException: checksum failed\n\tcaused by path="/y/_2.cfs"' },
      }),
    );
    expect(f).toStrictEqual({
      index: 'i',
      shard: 2,
      canAllocate: 'no_valid_shard_copy',
      corrupt: true,
      reason: 'checksum failed',
      file: '/y/_2.cfs',
      node: { name: 'id-z', id: 'id-z' },
      copies: [],
    });
  });

  it('no valid copy and no corruption: the first line of the details, else the explanation, else can_allocate', () => {
    const copies = [dec('a', { in_sync: false })];
    expect(findCorruption(explain({ node_allocation_decisions: copies, unassigned_info: { details: 'node left\nmore' } }))).toStrictEqual({
      index: 'i',
      shard: 2,
      canAllocate: 'no_valid_shard_copy',
      corrupt: false,
      reason: 'node left',
      copies: [{ node: 'a', nodeId: 'id-a', inSync: false, corrupt: false }],
    });
    expect(findCorruption(explain({ allocate_explanation: 'cannot allocate because all found copies are stale' }))!.reason).toBe(
      'cannot allocate because all found copies are stale',
    );
    expect(findCorruption(explain({}))!.reason).toBe('no_valid_shard_copy');
    // An in-sync copy that is not corrupt holds it.
    expect(
      findCorruption(explain({ node_allocation_decisions: [dec('a', { in_sync: false }), dec('b', { in_sync: true })] }))!.node,
    ).toEqual({
      name: 'b',
      id: 'id-b',
    });
  });

  it('a replica, or a primary that is not unassigned, is never a finding, however corrupt', () => {
    const corrupt = { node_allocation_decisions: [dec('a', { in_sync: true, store_exception: deepCorrupt })] };
    expect(findCorruption(explain(corrupt))).not.toBeNull();
    expect(findCorruption(explain({ ...corrupt, primary: false }))).toBeNull();
    expect(findCorruption(explain({ ...corrupt, current_state: 'initializing' }))).toBeNull();
  });
});

describe('detection, the edges', () => {
  const copyA = { node_name: 'a', node_id: 'id-a', store: { in_sync: true } };
  const base = { index: 'i', shard: 0, primary: true, current_state: 'unassigned' };
  it('details that name a node without a corruption mark no copy corrupt', () => {
    const f = findCorruption({
      ...base,
      can_allocate: 'no_valid_shard_copy',
      unassigned_info: { details: 'failed shard on node [id-a]: node left the cluster' },
      node_allocation_decisions: [copyA],
    })!;
    expect(f.corrupt).toBe(false);
    expect(f.copies).toStrictEqual([{ node: 'a', nodeId: 'id-a', inSync: true, corrupt: false }]);
  });
  it('a corrupt copy with no can_allocate in the answer', () => {
    const f = findCorruption({
      ...base,
      node_allocation_decisions: [
        { ...copyA, store: { in_sync: true, store_exception: { type: 'corrupt_index_exception', reason: 'r' } } },
      ],
    })!;
    expect(f).toMatchObject({ canAllocate: '', corrupt: true, reason: 'r' });
  });
});
