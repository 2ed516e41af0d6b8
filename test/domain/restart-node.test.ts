// The rolling restart's checks and step machine, on plain values.
import { describe, expect, it } from 'vitest';
import {
  flushPlan,
  newRestartProgress,
  nextRestartStep,
  parseRestartProgress,
  recordRestartStep,
  RESTART_STEPS,
  restartChecks,
  restartTimings,
  restoreAllocationNow,
  resumeFrom,
  type RestartProgress,
} from '../../src/domain/maintenance/restart-node';
import { checkPlanPath } from '../../src/domain/mutation/targets';
import { restartWizardMachine, type RestartWizardState } from '../../src/domain/wizards/restart-node';

const shard = (index: string, n: number, primary: boolean, node: string | null, state = 'STARTED') => ({
  index,
  shard: n,
  primary,
  state,
  node,
});
const green = { status: 'green' as const, relocating: 0, unassigned: 0 };

describe('restart checks', () => {
  it('green, copies elsewhere: no warning; the indices on the node are what is flushed', () => {
    const c = restartChecks({
      node: 'a',
      health: green,
      shards: [shard('logs', 0, true, 'a'), shard('logs', 0, false, 'b'), shard('crm', 0, true, 'b'), shard('crm', 0, false, 'a')],
    });
    expect(c).toEqual({ refusal: null, warnings: [], noCopyElsewhere: [], indices: ['crm', 'logs'] });
  });

  it('names the shards with no started copy on another node, and says why not green', () => {
    const c = restartChecks({
      node: 'a',
      health: { status: 'yellow', relocating: 0, unassigned: 1 },
      shards: [
        shard('logs', 0, true, 'a'),
        shard('logs', 0, false, null, 'UNASSIGNED'),
        shard('logs', 1, true, 'a'),
        shard('logs', 1, false, 'b', 'INITIALIZING'),
      ],
    });
    expect(c.noCopyElsewhere).toEqual([
      { index: 'logs', shard: 0 },
      { index: 'logs', shard: 1 },
    ]);
    expect(c.warnings[0]).toMatch(/the cluster is yellow \(1 unassigned shard\)/);
    expect(c.warnings[1]).toMatch(
      /2 shards have no copy on another node and will be unavailable \(red\) while a is down: logs\[0\], logs\[1\]/,
    );
    expect(c.refusal).toBeNull();
  });

  it('refuses while shards relocate', () => {
    expect(restartChecks({ node: 'a', health: { ...green, relocating: 2 }, shards: [] }).refusal).toMatch(/2 shards are relocating/);
  });

  it('flushes exactly the named indices, never _all, and the guard accepts the path', () => {
    const p = flushPlan(['logs-1', 'crm'], 'a');
    expect(p).toMatchObject({ method: 'POST', path: '/logs-1,crm/_flush', risk: 'reversible' });
    expect(checkPlanPath(p)).toBeNull();
  });
});

describe('the step machine', () => {
  const done = (ms = 1000) => ({ status: 'done' as const, at: 't', ms, message: 'ok' });
  const start = () => newRestartProgress({ name: 'a', id: 'id-a' }, ['logs'], '2026-11-26T04:00:00Z');

  it('runs the documented order and ends finished, with each step timed', () => {
    let p = start();
    const order: string[] = [];
    for (let id = nextRestartStep(p); id; id = nextRestartStep(p)) {
      order.push(id);
      p = recordRestartStep(p, id, done(1500));
    }
    expect(order).toEqual(['allocation-off', 'flush', 'stop', 'start', 'allocation-back', 'green', 'verify']);
    expect(p.finished).toBe(true);
    expect(restartTimings(p)).toBe(RESTART_STEPS.map((id) => `${id} 1.5 s`).join(', '));
  });

  it('a failed step is where a re-run goes on', () => {
    let p = recordRestartStep(start(), 'allocation-off', done());
    p = recordRestartStep(p, 'flush', done());
    p = recordRestartStep(p, 'stop', done());
    p = recordRestartStep(p, 'start', { status: 'failed', at: 't', ms: 1, message: 'did not answer' });
    expect(nextRestartStep(p)).toBe('start');
    expect(p.finished).toBeUndefined();
  });

  it('allocation goes back at once when a restart fails before the engine stopped, not after', () => {
    const off = recordRestartStep(start(), 'allocation-off', done());
    expect(restoreAllocationNow(start())).toBe(false);
    expect(restoreAllocationNow(recordRestartStep(off, 'flush', { status: 'failed', at: 't', ms: 1, message: 'x' }))).toBe(true);
    const stopped = recordRestartStep(recordRestartStep(off, 'flush', done()), 'stop', done());
    expect(restoreAllocationNow(stopped)).toBe(false);
  });

  it('a stop that failed or timed out leaves allocation off: the engine may still be stopping (issue 40 N8)', () => {
    const flushed = recordRestartStep(recordRestartStep(start(), 'allocation-off', done()), 'flush', done());
    const timedOut = recordRestartStep(flushed, 'stop', { status: 'failed', at: 't', ms: 120_000, message: 'did not end within 120 s' });
    expect(restoreAllocationNow(timedOut)).toBe(false);
    expect(nextRestartStep(timedOut)).toBe('stop');
  });

  it('resumed after allocation was put back meanwhile, and the engine not stopped: allocation off again first', () => {
    const flushed = recordRestartStep(recordRestartStep(start(), 'allocation-off', done()), 'flush', done());
    expect(nextRestartStep(resumeFrom(flushed, true))).toBe('stop');
    expect(nextRestartStep(resumeFrom(flushed, false))).toBe('allocation-off');
    const stopped = recordRestartStep(flushed, 'stop', done());
    expect(nextRestartStep(resumeFrom(stopped, false))).toBe('start');
  });

  it('a progress file is read back only in its own shape', () => {
    const p: RestartProgress = recordRestartStep(start(), 'allocation-off', done());
    expect(parseRestartProgress(JSON.stringify(p))).toEqual(p);
    expect(parseRestartProgress('{')).toBeNull();
    expect(parseRestartProgress(JSON.stringify({ ...p, steps: { 'rm -rf': done() } }))).toBeNull();
    expect(parseRestartProgress(JSON.stringify({ ...p, indices: [1] }))).toBeNull();
  });
});

describe('the restart wizard', () => {
  const facts = { node: 'a', resumeAt: null, warnings: [], steps: ['allocation-off: ...'] };
  const type = (m: ReturnType<typeof restartWizardMachine>, s: RestartWizardState, text: string) =>
    [...text].reduce((st, ch) => m.step(st, { type: 'line', edit: { type: 'insert', text: ch } }).state, s);

  it('runs only once the node name is typed, and Esc does not stop it half-way', () => {
    const m = restartWizardMachine();
    let s = m.step(m.init().state, { type: 'loaded', facts }).state;
    const wrong = m.step(type(m, s, 'b'), { type: 'submit' });
    expect(wrong.effects).toEqual([]);
    expect(wrong.state).toMatchObject({ phase: 'review', error: "type the node's name, a, to restart it" });
    s = type(m, s, 'a');
    const run = m.step(s, { type: 'submit' });
    expect(run.effects).toEqual([{ type: 'run', confirmation: { by: 'typed', text: 'a' } }]);
    s = m.step(run.state, { type: 'cancel' }).state;
    expect(s.phase).toBe('running');
    s = m.step(s, { type: 'step', line: { id: 'stop', phase: 'start', text: 'stop' } }).state;
    s = m.step(s, { type: 'finished', ok: true, message: 'restarted a' }).state;
    expect(s).toMatchObject({ phase: 'done', ok: true, log: [{ id: 'stop' }] });
  });
});
