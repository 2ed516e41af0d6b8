// The console's move of one shard copy as a machine, with plain values: the YES nodes chosen round,
// a dry-run refusal back on the choice with its words, one request on y, and Esc while following
// ends the following, never the move (nothing "cancelled" after a send).
import { describe, expect, it } from 'vitest';
import { movePlan, type MoveTargets } from '../../src/domain/maintenance/move-shard';
import { moveMachine, type MoveEvent } from '../../src/domain/wizards/move-shard';

const opened = { index: 'service_v9_mv', shard: 0, from: 'node-1' };
const targets: MoveTargets = {
  yes: ['node-2', 'node-3'],
  no: [{ node: 'node-4', decision: 'no', reasons: ['[filter] node matches cluster exclude'] }],
  canRemain: 'yes',
};
const copy = { shard: 0, primary: true, state: 'STARTED', node: 'node-1', relocatingTo: null };
const ref = { index: 'service_v9_mv', shard: 0, from: 'node-1', to: 'node-3' };

function run(...events: MoveEvent[]) {
  const m = moveMachine(opened);
  let { state, effects } = m.init();
  const all = [...effects];
  for (const e of events) {
    ({ state, effects } = m.step(state, e));
    all.push(...effects);
  }
  return { state: state, effects: all };
}

describe('move wizard', () => {
  it('asks for the targets, offers the YES nodes, checks the one chosen', () => {
    const { state, effects } = run({ type: 'offered', copy, targets }, { type: 'focus', by: 1 }, { type: 'submit' });
    expect(state.phase).toBe('checking');
    expect(effects).toEqual([
      { type: 'targets', opened },
      { type: 'check', opened, to: 'node-3' },
    ]);
    expect(run({ type: 'offered', copy, targets }, { type: 'focus', by: -1 }).state).toMatchObject({ choice: 1 });
  });

  it('no YES node: nothing to choose, the deciders kept for the screen', () => {
    expect(run({ type: 'offered', copy, targets: { ...targets, yes: [] } }).state).toMatchObject({
      phase: 'nothing',
      targets: { no: targets.no },
    });
  });

  it('the dry run refuses: back on the choice with its words; accepted: y sends the one plan, then follows', () => {
    const refused = run(
      { type: 'offered', copy, targets },
      { type: 'submit' },
      { type: 'rejected', message: 'the dry run refuses the move: same_shard' },
    );
    expect(refused.state).toMatchObject({ phase: 'choose', error: 'the dry run refuses the move: same_shard' });
    const plan = movePlan(ref, true);
    const sent = run(
      { type: 'offered', copy, targets },
      { type: 'submit' },
      { type: 'checked', ref, plan },
      { type: 'confirm' },
      { type: 'applied', results: [{ summary: plan.summary, ok: true, message: 'sent' }] },
    );
    expect(sent.state).toMatchObject({ phase: 'following', ref });
    expect(sent.effects.slice(2)).toEqual([
      { type: 'mutate', plans: [plan], confirmation: { by: 'key' } },
      { type: 'follow', ref },
    ]);
  });

  it('Esc while following ends the following (done, not started), never says cancelled', () => {
    const plan = movePlan(ref, true);
    const esc = run(
      { type: 'offered', copy, targets },
      { type: 'submit' },
      { type: 'checked', ref, plan },
      { type: 'confirm' },
      { type: 'applied', results: [{ summary: plan.summary, ok: true, message: 'sent' }] },
      { type: 'cancel' },
    );
    expect(esc.state).toMatchObject({ phase: 'done', started: false });
  });
});
