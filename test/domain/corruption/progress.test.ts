// The checklist's saved progress: where it resumes, what a failure undoes, the loss counted.
import { describe, expect, it } from 'vitest';
import { failureAdvice, lossReport, newProgress, nextStep, progressSteps, recordStep } from '../../../src/domain/corruption/progress';
import { parseCheckIndex } from '../../../src/domain/corruption/tool-output';
import { recoveryPlan, stalePrimaryPlan } from '../../../src/domain/corruption/plan';
import { facts, fixture } from './fixtures';

describe('progress', () => {
  const at = '2026-11-23T12:00:00Z';
  const done = { status: 'done' as const, at, message: '' };

  it('resumes at the first step neither done nor skipped', () => {
    let p = newProgress('checkindex', facts, at);
    expect(nextStep(p)!.id).toBe('stop');
    for (const id of ['stop', 'backup', 'verify-backup']) p = recordStep(p, id, done);
    expect(nextStep(p)!.id).toBe('check');
    p = recordStep(p, 'check', { status: 'failed', at, message: 'exit 3' });
    expect(nextStep(p)!.id).toBe('check');
  });

  it('takes the backup again when its verification failed, and starts the node again when it did not answer', () => {
    let p = newProgress('checkindex', facts, at);
    for (const id of ['stop', 'backup']) p = recordStep(p, id, done);
    p = recordStep(p, 'verify-backup', { status: 'failed', at, message: 'size differs' });
    expect(nextStep(p)!.id).toBe('backup');
    for (const id of ['backup', 'verify-backup', 'check', 'exorcise', 'markers', 'start']) p = recordStep(p, id, done);
    p = recordStep(p, 'wait', { status: 'failed', at, message: 'timeout' });
    expect(nextStep(p)!.id).toBe('start');
    expect(failureAdvice('wait', p)).toMatch(/starts it again/);
    expect(failureAdvice('backup', p)).toMatch(/--backup-dir/);
  });

  it('skips the reroute when the check says so, ends when all is done, and counts the loss', () => {
    let p = newProgress('checkindex', facts, at);
    for (const s of progressSteps(p)) p = recordStep(p, s.id, s.id === 'reroute' ? { status: 'skipped', at, message: 'started' } : done);
    expect(nextStep(p)).toBeNull();
    p = { ...p, check: parseCheckIndex(fixture('checkindex-readonly.txt'))!, docsAfter: 1999 };
    expect(lossReport(p)).toEqual({ docsBefore: 2000, docsAfter: 1999, lost: 1, predictedLost: 1 });
  });

  it('uses the reroute elasticsearch-shard printed (by node id) once it printed one', () => {
    const p = { ...newProgress('shard-tool', facts, at), toolReroute: { index: 'service_v9_abc', shard: 0, node: 'ID1' } };
    const body = progressSteps(p).find((s) => s.id === 'reroute')!.request!.body as {
      commands: { allocate_stale_primary: { node: string; accept_data_loss: boolean } }[];
    };
    expect(body.commands[0].allocate_stale_primary).toMatchObject({ node: 'ID1', accept_data_loss: true });
  });
});

describe('progress, plain values', () => {
  const at = '2026-11-23T12:00:00Z';

  it('what to do after each step failed, in its words (the text the operator reads, committed)', async () => {
    const p = newProgress('checkindex', facts, at);
    const ids = [...progressSteps(p), ...progressSteps({ ...p, method: 'shard-tool' })]
      .map((s) => s.id)
      .filter((id, i, all) => all.indexOf(id) === i);
    const text = [...ids, 'unknown-step'].map((id) => `${id}: ${failureAdvice(id, p)}`).join('\n') + '\n';
    await expect(text).toMatchFileSnapshot('__plans__/failure-advice.txt');
  });

  it('a new progress, and a failed step that undoes nothing else', () => {
    const p = newProgress('shard-tool', facts, at);
    expect(p).toStrictEqual({ version: 1, index: 'service_v9_abc', shard: 0, method: 'shard-tool', facts, startedAt: at, steps: {} });
    const done = { status: 'done' as const, at, message: '' };
    let q = recordStep(p, 'backup', done);
    q = recordStep(q, 'start', done);
    q = recordStep(q, 'check', { status: 'failed', at, message: 'x' });
    expect(Object.keys(q.steps)).toEqual(['backup', 'start', 'check']);
    // A step done after a failure of verify-backup or wait keeps what it undid done.
    expect(Object.keys(recordStep(q, 'wait', done).steps)).toEqual(['backup', 'start', 'check', 'wait']);
    expect(Object.keys(recordStep(q, 'verify-backup', done).steps)).toEqual(['backup', 'start', 'check', 'verify-backup']);
  });

  it('the shard tool method: its own steps, the planned reroute until the tool printed one', () => {
    const p = newProgress('shard-tool', facts, at);
    const ids = progressSteps(p).map((s) => s.id);
    expect(ids).toContain('shard-tool');
    expect(ids).not.toContain('exorcise');
    expect(progressSteps(p)).toEqual(recoveryPlan(facts).alternative);
    expect(progressSteps(newProgress('checkindex', facts, at))).toEqual(recoveryPlan(facts).steps);
    // Only the reroute step changes when the tool printed its own.
    const rerouted = progressSteps({ ...p, toolReroute: { index: 'service_v9_abc', shard: 0, node: 'ID9' } });
    expect(rerouted.map((s) => s.id)).toEqual(ids);
    const planned = progressSteps(p);
    rerouted.forEach((s, i) => {
      if (s.id !== 'reroute') expect(s).toEqual(planned[i]);
    });
    expect(rerouted.find((s) => s.id === 'reroute')!.request).toEqual(stalePrimaryPlan('service_v9_abc', 0, 'ID9'));
  });

  it('the loss: unknown until both counts are known', () => {
    const p = newProgress('checkindex', facts, at);
    expect(lossReport(p)).toEqual({ docsBefore: null, docsAfter: null, lost: null, predictedLost: null });
    expect(lossReport({ ...p, docsAfter: 5 })).toEqual({ docsBefore: null, docsAfter: 5, lost: null, predictedLost: null });
    const check = parseCheckIndex(fixture('checkindex-readonly.txt'))!;
    expect(lossReport({ ...p, check })).toEqual({ docsBefore: 2000, docsAfter: null, lost: null, predictedLost: 1 });
    expect(lossReport({ ...p, check, docsAfter: 0 })).toEqual({ docsBefore: 2000, docsAfter: 0, lost: 2000, predictedLost: 1 });
  });
});

describe('without elasticsearch-shard', () => {
  it('the shard-tool method has no steps, so nothing is next', () => {
    const p = newProgress('shard-tool', { ...facts, hasShardTool: false }, '2026-11-23T12:00:00Z');
    expect(progressSteps(p)).toEqual([]);
    expect(nextStep(p)).toBeNull();
  });
});
