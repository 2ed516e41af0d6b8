// The Tasks pane's cancel / rethrottle machine (shared by `shardeck tasks cancel / rethrottle`),
// with plain values: refusals before anything is asked, the typed id of a writing task's cancel
// (a key or --yes alone does not confirm it), the rate typed for a rethrottle.
import { describe, expect, it } from 'vitest';
import type { TaskProgress } from '../../src/domain/delete/task';
import { taskControlMachine, type TaskControlEvent, type TaskControlState, type TaskVerb } from '../../src/domain/wizards/task-control';

function task(over: Partial<TaskProgress> = {}): TaskProgress {
  return {
    id: 'n1:53',
    action: 'indices:data/write/delete/byquery',
    description: 'delete-by-query [logs]',
    completed: false,
    cancelled: false,
    cancellable: true,
    total: 300,
    deleted: 20,
    batches: 2,
    versionConflicts: 0,
    throttledMillis: 0,
    requestsPerSecond: 1,
    runningMillis: 20_000,
    failures: [],
    ...over,
  };
}

function run(verb: TaskVerb, t: TaskProgress, events: TaskControlEvent[], rate = '') {
  const m = taskControlMachine(verb, t.id, rate);
  const first = m.init();
  expect(first.effects).toEqual([{ type: 'load', id: t.id }]);
  let state: TaskControlState = first.state;
  let effects: unknown[] = [];
  for (const e of [{ type: 'loaded', task: t } as TaskControlEvent, ...events]) {
    const next = m.step(state, e);
    state = next.state;
    effects = next.effects;
  }
  return { state, effects };
}

const type = (text: string): TaskControlEvent[] => [...text].map((c) => ({ type: 'line', edit: { type: 'insert', text: c } }));

describe('task control machine', () => {
  it('a writing task: a key does not cancel it, the wrong number neither; its number typed does (not all 27 characters of the id)', () => {
    const byKey = run('cancel', task(), [{ type: 'confirm', confirmation: { by: 'key' } }]);
    expect(byKey.state).toMatchObject({ phase: 'confirming', error: "type the task's number 53 exactly" });
    expect(byKey.effects).toEqual([]);
    const yesAlone = run('cancel', task(), [{ type: 'confirm', confirmation: { by: 'yes-flag' } }]);
    expect(yesAlone.state.phase).toBe('confirming');
    const wrong = run('cancel', task(), [...type('5'), { type: 'submit' }]);
    expect(wrong.state).toMatchObject({ phase: 'confirming', error: "type the task's number 53 exactly" });
    expect(wrong.effects).toEqual([]);
    const typed = run('cancel', task(), [...type('53'), { type: 'submit' }]);
    expect(typed.state.phase).toBe('applying');
    expect(typed.effects).toMatchObject([
      {
        type: 'mutate',
        confirmation: { by: 'typed', text: '53' },
        plans: [{ method: 'POST', path: '/_tasks/n1%3A53/_cancel', risk: 'destructive' }],
      },
    ]);
    // The CLI's --yes with the id given on the command line.
    const flag = run('cancel', task(), [{ type: 'confirm', confirmation: { by: 'yes-flag', text: '53' } }]);
    expect(flag.state.phase).toBe('applying');
  });

  it('a task that does not write: a key cancels it', () => {
    const r = run('cancel', task({ action: 'indices:data/read/search' }), [{ type: 'confirm', confirmation: { by: 'key' } }]);
    expect(r.effects).toMatchObject([{ type: 'mutate', plans: [{ risk: 'reversible', path: '/_tasks/n1%3A53/_cancel' }] }]);
  });

  it('refused before anything is asked, with the reason', () => {
    expect(run('cancel', task({ completed: true }), []).state).toMatchObject({
      phase: 'nothing',
      message: 'task n1:53 has finished: nothing to cancel',
    });
    expect(run('cancel', task({ cancellable: false }), []).state.phase).toBe('nothing');
    expect(run('cancel', task({ cancelled: true }), []).state.phase).toBe('nothing');
    expect(run('rethrottle', task({ action: 'indices:data/read/search' }), []).state).toMatchObject({ phase: 'nothing' });
  });

  it('rethrottle: the rate typed (a bad one said), Backspace on the review back to it, y sends', () => {
    const bad = run('rethrottle', task(), [...type('0'), { type: 'submit' }]);
    expect(bad.state).toMatchObject({ phase: 'review', error: expect.stringContaining('is not a rate') });
    const back = run('rethrottle', task(), [...type('5'), { type: 'submit' }, { type: 'line', edit: { type: 'erase' } }]);
    expect(back.state).toMatchObject({ phase: 'review', input: '5' });
    const sent = run('rethrottle', task({ action: 'indices:data/write/update/byquery' }), [
      ...type('2.5'),
      { type: 'submit' },
      { type: 'confirm', confirmation: { by: 'key' } },
    ]);
    expect(sent.effects).toMatchObject([
      { type: 'mutate', plans: [{ path: '/_update_by_query/n1%3A53/_rethrottle', querystring: { requests_per_second: '2.5' } }] },
    ]);
    // The CLI gives the rate up front: the review is filled.
    expect(run('rethrottle', task(), [{ type: 'submit' }], '-1').state).toMatchObject({
      phase: 'confirming',
      plan: { querystring: { requests_per_second: '-1' } },
    });
  });

  it('Esc before sending cancels; a finished answer ends in done', () => {
    expect(run('cancel', task(), [{ type: 'cancel' }]).state.phase).toBe('cancelled');
    const done = run('cancel', task({ action: 'indices:data/read/search' }), [
      { type: 'confirm', confirmation: { by: 'key' } },
      { type: 'applied', results: [{ summary: 's', ok: true, applied: 'yes', message: 'applied (HTTP 200)' }] },
    ]);
    expect(done.state).toMatchObject({ phase: 'done', result: { ok: true } });
  });
});
