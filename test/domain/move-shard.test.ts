// Moving a shard copy, from an 8.19 two-node cluster's recorded answers (test/fixtures/admin/):
// allocation explain of a primary whose replica holds the other node (same_shard says no), and a
// reroute dry run refused by an exclude filter.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chooseCopy,
  dryRunRefusal,
  moveDone,
  movePlan,
  moveTargets,
  parseCopies,
  refusedTarget,
} from '../../src/domain/maintenance/move-shard';

const read = (f: string) => JSON.parse(fs.readFileSync(`test/fixtures/admin/${f}`, 'utf8'));

describe('copies', () => {
  const copies = parseCopies([
    { shard: '0', prirep: 'p', state: 'STARTED', node: 'node-1' },
    { shard: '0', prirep: 'r', state: 'STARTED', node: 'node-2' },
    { shard: '1', prirep: 'p', state: 'RELOCATING', node: 'node-1 -> 127.0.0.1 LUnp5pjrR7CD94z9veNljQ node-3' },
    { shard: '1', prirep: 'r', state: 'UNASSIGNED', node: null },
  ]);

  it('reads where a relocating copy goes', () => {
    expect(copies[2]).toEqual({ shard: 1, primary: true, state: 'RELOCATING', node: 'node-1', relocatingTo: 'node-3' });
    expect(copies[3].node).toBeNull();
  });

  it('several started copies need --from; a copy that is not started is refused', () => {
    const many = chooseCopy('i', 0, copies);
    expect(!many.ok && many.error).toMatch(/2 started copies: say which with --from NODE/);
    expect(chooseCopy('i', 0, copies, 'node-2')).toMatchObject({ ok: true, copy: { primary: false } });
    const moving = chooseCopy('i', 1, copies, 'node-1');
    expect(!moving.ok && moving.error).toMatch(/is relocating: only a started copy/);
    const none = chooseCopy('i', 7, copies);
    expect(!none.ok && none.error).toMatch(/has no shard 7 \(its shards: 0, 1\)/);
  });

  it('done once started on the new node and nothing of the shard still moves', () => {
    const ref = { index: 'i', shard: 1, from: 'node-1', to: 'node-3' };
    expect(moveDone(ref, copies)).toBe(false);
    expect(moveDone(ref, parseCopies([{ shard: '1', prirep: 'p', state: 'STARTED', node: 'node-3' }]))).toBe(true);
    const v = movePlan(ref, true).verify!;
    expect(v.check([{ shard: '1', prirep: 'p', state: 'RELOCATING', node: 'node-1 -> 127.0.0.1 x node-3' }]).ok).toBe(true);
    expect(v.check([{ shard: '1', prirep: 'p', state: 'STARTED', node: 'node-1' }]).ok).toBe(false);
  });
});

describe('targets', () => {
  const t = moveTargets(read('explain-same-shard-8.19.json'));

  it('the node holding the replica refuses the primary, in the decider words', () => {
    expect(t.yes).toEqual([]);
    expect(t.no).toEqual([
      {
        node: 'node-1',
        decision: 'no',
        reasons: [expect.stringMatching(/^same_shard: a copy of this shard is already allocated to this node/)],
      },
    ]);
    expect(refusedTarget('node-1', t, ['node-1', 'node-2'], 'node-2')).toMatch(
      /would not move it to node-1 \(no\): same_shard: .*No node accepts it now/,
    );
    expect(refusedTarget('node-2', t, ['node-1', 'node-2'], 'node-2')).toMatch(/already on node-2/);
    expect(refusedTarget('node-9', t, ['node-1', 'node-2'], 'node-2')).toMatch(
      /node-9 is not a node of this cluster \(its nodes: node-1, node-2\)/,
    );
  });

  it('the dry run: the deciders that said no', () => {
    expect(dryRunRefusal(read('reroute-dry-run-filter-no-8.19.json'))).toMatch(
      /^the dry run refuses the move: filter: node matches index setting \[index\.routing\.allocation\.exclude\.\]/,
    );
    expect(dryRunRefusal({ explanations: [{ decisions: [{ decider: 'filter', decision: 'YES', explanation: 'ok' }] }] })).toBeNull();
  });
});
