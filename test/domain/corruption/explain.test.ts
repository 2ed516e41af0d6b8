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
