// The checklist's saved progress: where it resumes, what a failure undoes, the loss counted.
import { describe, expect, it } from 'vitest';
import { failureAdvice, lossReport, newProgress, nextStep, progressSteps, recordStep } from '../../../src/domain/corruption/progress';
import { parseCheckIndex } from '../../../src/domain/corruption/tool-output';
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
