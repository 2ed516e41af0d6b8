// Issue 48: a restore in place over a red original copies its shard folders before the delete, as
// a machine: the confirmation is judged first (a mistyped one copies nothing either), the copy
// runs before any request, a failed copy sends nothing, the copy taken is said when the restore
// fails after its delete, and a red index with folders on another host asks for ":without-copy".
// The real node: test/integration/recovery-loss.test.ts.
import { describe, expect, it } from 'vitest';
import type { IndexCopyPlan } from '../../src/domain/corruption/copy';
import { replaceConfirmText, restoreMachine, restorePlans, type RestoreFacts, type RestoreForm } from '../../src/domain/wizards/restore';
import { drive } from '../helpers/machines';

const form: RestoreForm = { repository: 'nightly', snapshot: 's1', indices: 'idx', mode: 'replace', suffix: '-restored' };
const copy: IndexCopyPlan = {
  index: 'idx',
  uuid: 'U1',
  backupDir: '/var/backups/shardeck',
  node: 'n1',
  here: [
    { shard: 0, folder: '/data/indices/U1/0', bytes: 1000, files: 5, dirs: 3, archive: '/var/backups/shardeck/idx-0-20261128T200000Z.tar' },
  ],
  elsewhere: [],
  unreadable: [],
  freeBytes: 1_000_000,
  stamp: '20261128T200000Z',
  engine: null,
};
const facts = (c: IndexCopyPlan = copy): RestoreFacts => ({
  snapshot: {
    repository: 'nightly',
    name: 's1',
    uuid: 'u',
    state: 'SUCCESS',
    indices: ['idx'],
    dataStreams: [],
    includeGlobalState: false,
    shards: { total: 1, ok: 1, failed: 0 },
    failures: [],
  },
  indices: [{ index: 'idx', target: 'idx', existing: { status: 'open', health: 'red' }, copy: c }],
});

describe('the copy before a red original is deleted', () => {
  it('confirmed: the copy first, then (once it is checked) the delete and the restore', () => {
    const m = restoreMachine(form);
    let r = drive(m, [
      { type: 'loaded', facts: facts() },
      { type: 'confirm', confirmation: { by: 'typed', text: 'idx' } },
    ]);
    expect(r.state.phase).toBe('copying');
    expect(r.effects.map((e) => e.type)).toEqual(['load', 'copy']);
    r = drive(m, [
      { type: 'loaded', facts: facts() },
      { type: 'confirm', confirmation: { by: 'typed', text: 'idx' } },
      { type: 'copied', ok: true, lines: ['copied: idx shard 0 -> /var/backups/shardeck/idx-0-20261128T200000Z.tar'] },
    ]);
    expect(r.state.phase).toBe('applying');
    expect(r.effects.map((e) => e.type)).toEqual(['load', 'copy', 'mutate']);
  });

  it('a mistyped confirmation copies nothing and sends nothing', () => {
    const r = drive(restoreMachine(form), [
      { type: 'loaded', facts: facts() },
      { type: 'confirm', confirmation: { by: 'typed', text: 'id' } },
    ]);
    expect(r.state).toMatchObject({
      phase: 'failed',
      message: 'this cannot be undone: type "idx" to confirm (nothing was copied or sent)',
    });
    expect(r.effects.map((e) => e.type)).toEqual(['load']);
  });

  it('a copy that fails sends nothing', () => {
    const r = drive(restoreMachine(form), [
      { type: 'loaded', facts: facts() },
      { type: 'confirm', confirmation: { by: 'typed', text: 'idx' } },
      { type: 'copied', ok: false, lines: [], message: 'the copy of idx shard 0 failed: No space left on device' },
    ]);
    expect(r.state).toMatchObject({
      phase: 'failed',
      message: 'the copy of idx shard 0 failed: No space left on device: nothing was deleted or sent',
    });
    expect(r.effects.map((e) => e.type)).toEqual(['load', 'copy']);
  });

  it('the delete went through and the restore failed: the copy kept is named', () => {
    const r = drive(restoreMachine(form), [
      { type: 'loaded', facts: facts() },
      { type: 'confirm', confirmation: { by: 'typed', text: 'idx' } },
      { type: 'copied', ok: true, lines: ['copied: idx shard 0 -> /b/idx-0.tar'] },
      {
        type: 'applied',
        results: [
          { summary: 'delete', ok: true, applied: 'yes', message: 'applied (HTTP 200)' },
          { summary: 'restore', ok: false, applied: 'no', message: 'HTTP 404 snapshot_missing_exception' },
        ],
      },
    ]);
    expect(r.state).toMatchObject({
      phase: 'failed',
      message:
        'HTTP 404 snapshot_missing_exception (idx is DELETED now: run the restore again; the copy of its folders is kept: copied: idx shard 0 -> /b/idx-0.tar)',
      copied: ['copied: idx shard 0 -> /b/idx-0.tar'],
    });
  });

  it('shard folders on another host: not copied, and the typed names accept it', () => {
    const away = facts({ ...copy, here: [], elsewhere: [{ shard: 0, node: 'n2', host: '10.0.0.2' }] });
    expect(replaceConfirmText(['idx'], away)).toBe('idx:without-copy');
    const plans = restorePlans(form, away);
    expect(plans.map((p) => p.confirmText)).toEqual(['idx:without-copy', 'idx:without-copy']);
    expect(plans[0].summary).toMatch(/NOT every folder of idx copied \(accepted by the typed confirmation\)$/);
    // Nothing to copy here: confirmed with the acceptance, straight to the requests.
    const r = drive(restoreMachine(form), [
      { type: 'loaded', facts: away },
      { type: 'confirm', confirmation: { by: 'typed', text: 'idx:without-copy' } },
    ]);
    expect(r.effects.map((e) => e.type)).toEqual(['load', 'mutate']);
    // The names alone do not confirm it (the guard refuses the plans).
    expect(replaceConfirmText(['idx'], facts())).toBe('idx');
  });

  it('a copy that does not fit is refused before anything is sent', () => {
    const r = drive(restoreMachine(form), [{ type: 'loaded', facts: facts({ ...copy, freeBytes: 100 }) }]);
    expect(r.state).toMatchObject({
      phase: 'refused',
      kind: 'input',
      message: expect.stringMatching(/^the copy of idx needs .* and \/var\/backups\/shardeck has 100b \(100 bytes\) free/),
    });
  });
});
