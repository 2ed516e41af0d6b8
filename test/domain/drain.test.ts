// Draining a node: the exclude list merged and taken apart (plain values shaped like GET
// _cluster/settings?flat_settings answers), the copies left on the node, and what blocks their move
// (an allocation explain of an assigned shard, shaped like 8.19's answer).
import { describe, expect, it } from 'vitest';
import { allocationValuesOf, touchesAllocation } from '../../src/domain/maintenance/allocation-limits';
import {
  drainChange,
  drainProgress,
  drainRefusal,
  isDataNode,
  EXCLUDE_NAME,
  moveBlockers,
  progressLine,
  shardsOnNode,
  stuckShards,
  undoDrainChange,
} from '../../src/domain/maintenance/drain';
import type { ShardRow } from '../../src/domain/types';
import { drainWizardMachine } from '../../src/domain/wizards/drain';

const NODES = ['node-1', 'node-2', 'node-3'];
const settings = (persistent: Record<string, string> = {}, transient: Record<string, string> = {}) =>
  allocationValuesOf({ persistent, transient });

const row = (index: string, shard: number, primary: boolean, state: string, node: string | null): ShardRow => ({
  index,
  shard,
  primary,
  state,
  node,
  docs: null,
  storeBytes: null,
  unassignedReason: null,
  unassignedDetails: null,
});

describe('drain: refused where it cannot work (issue 47)', () => {
  const rows = [
    row('logs', 0, true, 'STARTED', 'node-1'),
    row('logs', 0, false, 'STARTED', 'node-2'),
    row('solo', 0, true, 'STARTED', 'node-1'),
  ];
  it('the only data node, or the last one not drained', () => {
    expect(drainRefusal('node-1', ['node-1'], settings(), rows)).toMatch(
      /^node-1 is the only data node: .*no new index could be allocated anywhere/,
    );
    expect(drainRefusal('node-1', ['node-1', 'node-2'], settings({ [EXCLUDE_NAME]: 'node-2' }), [])).toMatch(
      /^every other data node is drained already \(node-2\)/,
    );
    expect(drainChange('node-1', ['node-1'], settings(), drainRefusal('node-1', ['node-1'], settings(), rows))).toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/only data node.*; nothing was changed$/),
    });
  });

  it('a copy with nowhere to go: every other node left holds a copy of the same shard', () => {
    expect(drainRefusal('node-1', ['node-1', 'node-2'], settings(), rows)).toMatch(
      /^1 shard copy on node-1 has nowhere to go .*: logs\[0\]; lower their replicas first/,
    );
    // A third node: both copies can move.
    expect(drainRefusal('node-1', NODES, settings(), rows)).toBeNull();
  });

  it('data roles as _cat/nodes abbreviates them; a master-only node holds nothing', () => {
    expect(['cdfhilmrstw', 'd', 'h', 's', 'mr', 'im'].map(isDataNode)).toEqual([true, true, true, true, false, false]);
    expect(drainRefusal('master-1', ['node-1'], settings(), rows)).toBeNull();
  });
});

describe('drain: the exclude list', () => {
  it('adds the name to what is there (persistent), never overwriting another exclude', () => {
    const c = drainChange('node-2', NODES, settings({ [EXCLUDE_NAME]: 'old-node', 'cluster.routing.allocation.exclude._ip': '10.0.0.9' }));
    expect(c.kind).toBe('plan');
    if (c.kind !== 'plan') return;
    expect(c).toMatchObject({ level: 'persistent', before: 'old-node', after: 'old-node,node-2' });
    expect(c.plan.body).toEqual({ persistent: { [EXCLUDE_NAME]: 'old-node,node-2' } });
    expect(c.plan.path).toBe('/_cluster/settings');
    // The guard records the value before it (allocation-limits' watched keys).
    expect(touchesAllocation(c.plan)).toBe(true);
    expect(c.plan.summary).toContain('old-node -> old-node,node-2');
  });

  it('changes the transient list when one is set there (it wins over the persistent one)', () => {
    const c = drainChange('node-3', NODES, settings({ [EXCLUDE_NAME]: 'p' }, { [EXCLUDE_NAME]: 't' }));
    expect(c).toMatchObject({ kind: 'plan', level: 'transient', before: 't', after: 't,node-3' });
  });

  it('refuses a wildcard, a list, a name that is not a node; says when it is already drained', () => {
    expect(drainChange('node-*', NODES, settings())).toMatchObject({ kind: 'refused' });
    expect(drainChange('node-1,node-2', NODES, settings())).toMatchObject({ kind: 'refused' });
    expect(drainChange('node-9', NODES, settings())).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining('no node is named node-9'),
    });
    expect(drainChange('node', NODES, settings())).toMatchObject({ kind: 'refused' });
    expect(drainChange('node-2', NODES, settings({ [EXCLUDE_NAME]: 'a, node-2' }))).toMatchObject({ kind: 'nothing' });
  });

  it('undo removes exactly that name, and unsets the list when it was the only one', () => {
    const c = undoDrainChange('node-2', settings({ [EXCLUDE_NAME]: 'node-20,node-2,old' }));
    expect(c).toMatchObject({ kind: 'plan', level: 'persistent', after: 'node-20,old' });
    const only = undoDrainChange('node-2', settings({ [EXCLUDE_NAME]: 'node-2' }));
    expect(only).toMatchObject({ kind: 'plan', after: null });
    if (only.kind === 'plan') expect(only.plan.body).toEqual({ persistent: { [EXCLUDE_NAME]: null } });
    expect(undoDrainChange('node-2', settings({ [EXCLUDE_NAME]: 'node-20' }))).toMatchObject({ kind: 'nothing' });
  });

  it("the plan's read-back fails when the list is not what was sent", () => {
    const c = drainChange('node-2', NODES, settings({ [EXCLUDE_NAME]: 'old' }));
    if (c.kind !== 'plan') throw new Error(c.kind);
    expect(c.plan.verify!.check({ persistent: { [EXCLUDE_NAME]: 'old,node-2' }, transient: {} }).ok).toBe(true);
    expect(c.plan.verify!.check({ persistent: { [EXCLUDE_NAME]: 'node-2' }, transient: {} }).ok).toBe(false);
  });
});

describe('drain: progress and what blocks it', () => {
  const rows = [
    row('a', 0, true, 'STARTED', 'node-2'),
    row('a', 0, false, 'RELOCATING', 'node-2 -> 127.0.0.1 Xy node-3'),
    row('b', 0, true, 'STARTED', 'node-20'),
    row('b', 0, false, 'STARTED', 'node-1'),
    row('c', 0, false, 'UNASSIGNED', null),
  ];

  it('counts the copies on the node (started, relocating away), not those of a node with a longer name', () => {
    expect(shardsOnNode(rows, 'node-2').map((r) => r.index)).toEqual(['a', 'a']);
    const p = drainProgress(rows, 'node-2', 4);
    expect(p).toEqual({ node: 'node-2', left: 2, relocating: 1, atStart: 4 });
    expect(progressLine(p)).toBe('node node-2: 2 shard copies left (1 moving now), 2 of 4 moved (50%)');
    expect(progressLine(drainProgress([], 'node-2', 4))).toBe('node node-2 holds no shards: it is drained');
    expect(progressLine({ node: 'node-2', left: 1, relocating: 1, atStart: 3 })).toBe(
      'node node-2: 1 shard copy left (1 moving now), 2 of 3 moved (66%)',
    );
    expect(stuckShards(rows, 'node-2')).toEqual([rows[0]]);
  });

  it('groups the deciders that refuse the move, with the nodes and shards', () => {
    const explain = (index: string, primary: boolean) => ({
      index,
      shard: 0,
      primary,
      current_state: 'started',
      can_remain_on_current_node: 'no',
      can_move_to_other_node: 'no',
      node_allocation_decisions: [
        {
          node_name: 'node-1',
          node_decision: 'no',
          deciders: [{ decider: 'same_shard', decision: 'NO', explanation: 'a copy of this shard is already allocated to this node' }],
        },
        {
          node_name: 'node-3',
          node_decision: 'no',
          deciders: [
            {
              decider: 'filter',
              decision: 'NO',
              explanation: 'node matches cluster setting [cluster.routing.allocation.exclude] filters [_name:"node-3"]',
            },
            { decider: 'disk_threshold', decision: 'YES', explanation: 'enough disk' },
          ],
        },
      ],
    });
    const b = moveBlockers([explain('a', true), explain('b', false), { index: 'c', shard: 0, can_move_to_other_node: 'yes' }]);
    expect(b.map((x) => [x.decider, x.nodes, x.shards])).toEqual([
      ['filter', ['node-3'], ['a[0]p', 'b[0]r']],
      ['same_shard', ['node-1'], ['a[0]p', 'b[0]r']],
    ]);
    expect(b[1].words).toMatch(/share a node/);
  });
});

describe('drain wizard machine', () => {
  const facts = (undo: boolean) => {
    const c = drainChange('node-2', NODES, settings());
    if (c.kind !== 'plan') throw new Error(c.kind);
    return { node: 'node-2', undo, plan: c.plan, progress: 'node node-2: 3 shard copies left' };
  };
  const result = { summary: 's', ok: true, message: 'done', verified: { ok: true, message: 'set' } };

  it('review -> y sends the one plan -> follows -> done; Esc while following stops following only', () => {
    const m = drainWizardMachine();
    let s = m.init();
    expect(s.effects).toEqual([{ type: 'load' }]);
    s = m.step(s.state, { type: 'loaded', facts: facts(false) });
    expect(s.state.phase).toBe('review');
    s = m.step(s.state, { type: 'confirm', confirmation: { by: 'key' } });
    expect(s.effects).toMatchObject([{ type: 'apply', follow: true }]);
    expect(m.step(s.state, { type: 'cancel' }).state.phase).toBe('applying');
    s = m.step(s.state, { type: 'applied', result });
    expect(s.state.phase).toBe('following');
    s = m.step(s.state, { type: 'progress', progress: 'p', blockers: ['same_shard: ...'] });
    expect(s.state).toMatchObject({ phase: 'following', progress: 'p', blockers: ['same_shard: ...'] });
    expect(m.step(s.state, { type: 'cancel' }).state.phase).toBe('done');
    expect(m.step(s.state, { type: 'followed', progress: 'empty', blockers: [] }).state).toMatchObject({
      phase: 'done',
      progress: 'empty',
    });
  });

  it('an undo or a failed send is not followed; nothing to change ends at once', () => {
    const m = drainWizardMachine();
    let s = m.step(m.init().state, { type: 'loaded', facts: facts(true) });
    s = m.step(s.state, { type: 'confirm', confirmation: { by: 'key' } });
    expect(s.effects).toMatchObject([{ type: 'apply', follow: false }]);
    expect(m.step(s.state, { type: 'applied', result }).state.phase).toBe('done');
    let t = m.step(m.init().state, { type: 'loaded', facts: facts(false) });
    t = m.step(t.state, { type: 'confirm', confirmation: { by: 'key' } });
    expect(m.step(t.state, { type: 'applied', result: { ...result, ok: false } }).state.phase).toBe('done');
    expect(m.step(m.init().state, { type: 'nothing', message: 'select a node' }).state).toEqual({
      phase: 'nothing',
      message: 'select a node',
    });
  });
});
