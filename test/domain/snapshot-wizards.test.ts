// The snapshot and restore machines and their plans, with plain values (the real-node side is
// test/integration/snapshots.test.ts).
import { describe, expect, it } from 'vitest';
import { confirmationSatisfies } from '../../src/domain/mutation/confirmation';
import { checkPlanPath } from '../../src/domain/mutation/targets';
import type { SnapshotInfo } from '../../src/domain/snapshots';
import {
  defaultRestoreIndices,
  matchSnapshotIndices,
  refusalOf,
  restoreMachine,
  restoreCancelOf,
  restoreNotes,
  restorePlans,
  type RestoreFacts,
  type RestoreForm,
} from '../../src/domain/wizards/restore';
import { checkName, defaultSnapshotName, reviewOf, snapshotMachine } from '../../src/domain/wizards/snapshot';

const snap: SnapshotInfo = {
  repository: 'backups',
  name: 'nightly',
  uuid: 'u',
  state: 'SUCCESS',
  indices: ['logs-a', 'logs-b', 'other'],
  dataStreams: [],
  includeGlobalState: false,
  shards: { total: 3, ok: 3, failed: 0 },
  failures: [],
};
const repos = [{ name: 'backups', type: 'fs', location: '/repo/backups', settings: {} }];
const nodes = [{ node: 'n1', paths: ['/repo'] }];

describe('snapshot requests', () => {
  it('names are checked as Elasticsearch does, before connecting', () => {
    expect(checkName('snapshot', 'nightly-1')).toBeUndefined();
    expect(checkName('snapshot', 'Nightly')).toMatch(/lower case/);
    expect(checkName('repository', '_all')).toMatch(/cannot start with _/);
    expect(checkName('repository', 'a\u001bb')).toMatch(/control characters/);
    expect(checkName('repository', 'a*')).toMatch(/cannot hold/);
    expect(defaultSnapshotName(Date.UTC(2026, 10, 26, 1, 2, 3))).toBe('shardeck-2026.11.26-01.02.03');
    // Lower case is a snapshot rule only; the sentence gives the name to use; 255 characters at most.
    expect(checkName('snapshot', 'Nightly-A')).toBe('a snapshot name must be lower case: nightly-a');
    expect(checkName('repository', 'Backups')).toBeUndefined();
    expect(checkName('snapshot', 'a'.repeat(255))).toBeUndefined();
    expect(checkName('snapshot', 'a'.repeat(256))).toBe('a snapshot name is at most 255 characters');
  });
  it('repo add: refused before any plan when the location is outside path.repo or the name is taken', () => {
    expect(reviewOf({ kind: 'repo-add', name: 'x', location: '/elsewhere' }, { repositories: repos, pathRepo: nodes })).toMatchObject({
      kind: 'input',
      message: expect.stringMatching(/not under path\.repo \(n1: \/repo\)/),
    });
    expect(reviewOf({ kind: 'repo-add', name: 'backups', location: '/repo/b' }, { repositories: repos, pathRepo: nodes })).toMatchObject({
      kind: 'input',
    });
    const ok = reviewOf({ kind: 'repo-add', name: 'new', location: '/repo/new' }, { repositories: repos, pathRepo: nodes });
    expect(ok).toMatchObject({
      plan: { method: 'PUT', path: '/_snapshot/new', body: { type: 'fs', settings: { location: '/repo/new' } } },
    });
  });
  it('verify and remove name a registered repository, else it is missing', () => {
    expect(reviewOf({ kind: 'repo-remove', name: 'nope' }, { repositories: repos })).toMatchObject({ kind: 'missing' });
    expect(reviewOf({ kind: 'repo-verify', name: 'backups' }, { repositories: repos })).toMatchObject({
      plan: { method: 'POST', path: '/_snapshot/backups/_verify' },
    });
  });
  it('create names exactly the resolved indices, never a pattern, without the global state', () => {
    const r = reviewOf(
      { kind: 'create', repository: 'backups', name: 's1', wait: true },
      { repositories: repos, indices: ['logs-a', 'logs-b'] },
    );
    expect(r).toMatchObject({ plan: { body: { indices: 'logs-a,logs-b', include_global_state: false, partial: false } } });
    expect(reviewOf({ kind: 'create', repository: 'backups', name: 's1', wait: true }, { repositories: repos, indices: [] })).toMatchObject(
      {
        kind: 'missing',
      },
    );
  });
  it('the machine: review, send, follow until finished (a cancel while following changes nothing)', () => {
    const m = snapshotMachine({ kind: 'create', repository: 'backups', name: 's1', wait: true });
    let s = m.init().state;
    s = m.step(s, { type: 'loaded', facts: { repositories: repos, indices: ['logs-a'] } }).state;
    expect(s.phase).toBe('review');
    const sent = m.step(s, { type: 'confirm', confirmation: { by: 'key' } });
    expect(sent.effects[0]).toMatchObject({ type: 'send' });
    const follow = m.step(sent.state, { type: 'sent', result: { summary: 'x', ok: true, message: 'done' } });
    expect(follow.state.phase).toBe('following');
    expect(follow.effects).toEqual([{ type: 'follow', repository: 'backups', name: 's1' }]);
    expect(m.step(follow.state, { type: 'cancel' }).state.phase).toBe('following');
    // Before anything was sent, Esc leaves the wizard.
    expect(m.step(s, { type: 'cancel' }).state).toEqual({ phase: 'cancelled' });
    expect(m.step(follow.state, { type: 'finished', snapshot: snap }).state).toMatchObject({ phase: 'done', snapshot: snap });
  });
});

describe('restore', () => {
  const form = (over: Partial<RestoreForm> = {}): RestoreForm => ({
    repository: 'backups',
    snapshot: 'nightly',
    indices: 'logs-*',
    mode: 'beside',
    suffix: '-restored',
    ...over,
  });
  const facts = (mode: 'beside' | 'replace', existing = false): RestoreFacts => ({
    snapshot: snap,
    indices: ['logs-a', 'logs-b'].map((index) => ({
      index,
      target: mode === 'replace' ? index : `${index}-restored`,
      ...(existing || mode === 'replace' ? { existing: { status: 'open' } } : {}),
      originalDocs: 10,
    })),
  });

  it('a pattern is resolved against what the snapshot holds; * and _all are refused', () => {
    expect(matchSnapshotIndices('logs-*', snap.indices)).toEqual({ ok: true, indices: ['logs-a', 'logs-b'] });
    expect(matchSnapshotIndices('logs-a,other', snap.indices)).toEqual({ ok: true, indices: ['logs-a', 'other'] });
    expect(matchSnapshotIndices('nope', snap.indices)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/holds no index matching "nope"/),
    });
    expect(matchSnapshotIndices('*', snap.indices)).toMatchObject({ ok: false });
    expect(matchSnapshotIndices('_all', snap.indices)).toMatchObject({ ok: false });
    // A dot in a name is a dot, not "any character".
    expect(matchSnapshotIndices('logs.a', ['logs.a', 'logsxa'])).toEqual({ ok: true, indices: ['logs.a'] });
  });

  it('issue 47 item 2: system (dot) indices only when included, the way named for both surfaces; the default list is one the restore accepts', () => {
    const held = ['.kibana_1', 'logs-a', 'logs-b'];
    const refused = matchSnapshotIndices('.kibana_1,logs-a', held);
    expect(refused).toMatchObject({
      ok: false,
      error: expect.stringMatching(/system \(dot\) indices: add --include-system \(in the console: "system indices" included\)/),
    });
    expect(matchSnapshotIndices('.kibana_1,logs-a', held, true)).toEqual({ ok: true, indices: ['.kibana_1', 'logs-a'] });
    // A pattern never reaches a dot index unless they are included.
    expect(matchSnapshotIndices('*s-a,*1', ['.x1', 'logs-a', 'y1'])).toEqual({ ok: true, indices: ['logs-a', 'y1'] });
    expect(matchSnapshotIndices('*1', ['.x1', 'y1'], true)).toEqual({ ok: true, indices: ['.x1', 'y1'] });
    expect(defaultRestoreIndices(held)).toBe('logs-a,logs-b');
    expect(matchSnapshotIndices(defaultRestoreIndices(held), held)).toEqual({ ok: true, indices: ['logs-a', 'logs-b'] });
  });

  it('beside: one reversible restore under the new names, without aliases or global state', () => {
    const plans = restorePlans(form(), facts('beside'));
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({
      method: 'POST',
      path: '/_snapshot/backups/nightly/_restore',
      risk: 'reversible',
      target: 'logs-a-restored,logs-b-restored',
      body: {
        indices: 'logs-a,logs-b',
        include_global_state: false,
        rename_pattern: '(.+)',
        rename_replacement: '$1-restored',
        include_aliases: false,
      },
    });
    expect(refusalOf(form(), facts('beside', true))?.message).toMatch(/logs-a-restored, logs-b-restored already exist/);
    expect(refusalOf(form({ suffix: '-Bad' }), facts('beside'))?.message).toMatch(/lower case/);
  });

  it('beside: a suffix holding $ is sent as literal text, not a group reference (Java replaceAll)', () => {
    const replacement = (suffix: string) => restorePlans(form({ suffix }), facts('beside'))[0].body as { rename_replacement: string };
    expect(replacement('-r$0').rename_replacement).toBe('$1-r\\$0');
    expect(replacement('-$1${x}$').rename_replacement).toBe('$1-\\$1\\${x}\\$');
    expect(refusalOf(form({ suffix: '-r\\1' }), facts('beside'))?.message).toMatch(/lower case, without spaces or any of/);
  });

  it('in place: close then restore, both destructive, confirmed only by the typed names (never by --yes alone)', () => {
    const plans = restorePlans(form({ mode: 'replace' }), facts('replace'));
    expect(plans.map((p) => `${p.method} ${p.path}`)).toEqual(['POST /logs-a,logs-b/_close', 'POST /_snapshot/backups/nightly/_restore']);
    expect(plans.every((p) => p.risk === 'destructive' && p.confirmText === 'logs-a,logs-b')).toBe(true);
    expect(plans[1].body).toEqual({ indices: 'logs-a,logs-b', include_global_state: false, include_aliases: true });
    for (const p of plans) {
      expect(confirmationSatisfies(p, { by: 'yes-flag' })).toBe(false);
      expect(confirmationSatisfies(p, { by: 'key' })).toBe(false);
      expect(confirmationSatisfies(p, { by: 'yes-flag', text: 'logs-a,logs-b' })).toBe(true);
      expect(checkPlanPath(p)).toBeNull();
    }
  });

  it('in place over a RED original: delete it, then restore (a closed red index keeps its shard locked: the restore never starts)', () => {
    const red = facts('replace');
    red.indices[0] = {
      ...red.indices[0],
      existing: { status: 'open', health: 'red' },
      originalDocs: undefined,
      unreadable: 'cannot be counted',
    };
    const plans = restorePlans(form({ mode: 'replace' }), red);
    expect(plans.map((p) => `${p.method} ${p.path}`)).toEqual([
      'DELETE /logs-a',
      'POST /logs-b/_close',
      'POST /_snapshot/backups/nightly/_restore',
    ]);
    expect(plans.every((p) => p.risk === 'destructive' && p.confirmText === 'logs-a,logs-b')).toBe(true);
    expect(plans[0].summary).toBe('delete logs-a (red: closed, it keeps its shard locked and the restore never starts)');
    for (const p of plans) expect(checkPlanPath(p)).toBeNull();
    // The delete is read back as gone; a closed red index is deleted too (it is locked the same way).
    expect(plans[0].verify!.check([{ index: 'logs-b' }])).toEqual({ ok: true, message: 'deleted: logs-a' });
    expect(plans[0].verify!.check([{ index: 'logs-a' }])).toMatchObject({ ok: false });
    const closedRed = facts('replace');
    closedRed.indices = closedRed.indices.map((i) => ({ ...i, existing: { status: 'close', health: 'red' } }));
    expect(restorePlans(form({ mode: 'replace' }), closedRed).map((p) => `${p.method} ${p.path}`)).toEqual([
      'DELETE /logs-a,logs-b',
      'POST /_snapshot/backups/nightly/_restore',
    ]);
    // Beside never touches the original, red or not.
    const besideRed = facts('beside', true);
    besideRed.indices[0].existing = { status: 'open', health: 'red' };
    expect(
      restorePlans(form(), { ...besideRed, indices: besideRed.indices.map(({ existing: _e, ...i }) => i) }).map((p) => p.method),
    ).toEqual(['POST']);
    // A delete that went through without its restore: the message says the index is gone until restored.
    const m = restoreMachine(form({ mode: 'replace' }));
    let s = m.step(m.init().state, { type: 'loaded', facts: red }).state;
    s = m.step(s, { type: 'confirm', confirmation: { by: 'typed', text: 'logs-a,logs-b' } }).state;
    const failed = m.step(s, {
      type: 'applied',
      results: [
        { summary: 'delete', ok: true, message: 'done' },
        { summary: 'close', ok: true, message: 'done' },
        { summary: 'restore', ok: false, message: 'refused' },
      ],
    }).state;
    expect(failed).toMatchObject({
      phase: 'failed',
      message:
        'refused (logs-a is DELETED now: run the restore again; logs-b is CLOSED now: open it with POST /logs-b/_open, or run the restore again)',
    });
  });

  it('aliases: beside leaves them out unless asked, in place brings them back; the notes say what that does', () => {
    expect(restorePlans(form({ includeAliases: true }), facts('beside'))[0].body).toMatchObject({ include_aliases: true });
    const held = facts('beside');
    held.indices[0].aliases = [
      { name: 'logs', write: false },
      { name: 'logs-write', write: true },
    ];
    const [besideAliases, settings] = restoreNotes(form(), held, '--include-aliases');
    expect(besideAliases).toEqual({
      text: 'aliases: left out (now logs-a: logs, logs-write (write)): on the copies they would point at both and searches see both; --include-aliases adds them',
    });
    expect(settings.text).toBe("settings: the snapshot's, all of them (no index_settings, no ignore_index_settings); no cluster state");
    expect(restoreNotes(form({ includeAliases: true }), held, 'x')[0]).toMatchObject({
      tone: 'red',
      text: expect.stringMatching(/logs-write \(write\)\) points at both, and searches see both; a write alias is refused$/),
    });
    const inPlace = restoreNotes(
      form({ mode: 'replace' }),
      { ...held, indices: held.indices.map((i) => ({ ...i, target: i.index })) },
      'x',
    );
    expect(inPlace[0]).toEqual({
      tone: 'yellow',
      text: "aliases: the snapshot's replace the current ones (now logs-a: logs, logs-write (write)): added since are dropped, removed since return",
    });
    expect(inPlace[1].text).toMatch(/; changed since \(replicas, refresh\) go back$/);
    // No original with aliases: nothing to name.
    expect(restoreNotes(form(), facts('beside'), 'x')[0].text).not.toMatch(/now/);
  });

  it('restore cancel: only indices being restored now, from one snapshot; exactly them, typed', () => {
    const rec = (index: string, from: string, stage = 'INDEX', snapshot = 'nightly') => ({
      index,
      shard: 0,
      primary: true,
      type: 'SNAPSHOT',
      stage,
      bytesTotal: 10,
      bytesRecovered: 1,
      filesTotal: 1,
      filesRecovered: 0,
      timeMs: 5,
      source: { repository: 'backups', snapshot, index: from },
    });
    const ok = restoreCancelOf(['logs-a-restored'], [rec('logs-a-restored', 'logs-a'), rec('logs-b', 'logs-b')]);
    expect(ok).toMatchObject({ ok: true, from: { repository: 'backups', snapshot: 'nightly' } });
    if (!ok.ok) return;
    expect(ok.plan).toMatchObject({ method: 'DELETE', path: '/logs-a-restored', confirmText: 'logs-a-restored', risk: 'destructive' });
    expect(ok.plan.summary).toMatch(/the originals are untouched/);
    // In place (the snapshot's own name): the index is gone until restored again.
    const inPlace = restoreCancelOf(['logs-b'], [rec('logs-b', 'logs-b')]);
    expect(inPlace.ok && inPlace.plan.summary).toMatch(/GONE until restored again/);
    // Finished, or not a restore: refused.
    expect(restoreCancelOf(['logs-a-restored'], [rec('logs-a-restored', 'logs-a', 'DONE')])).toEqual({
      ok: false,
      error: 'logs-a-restored is not being restored (no running restore of it); restoring now: none',
    });
    expect(restoreCancelOf(['x'], [{ ...rec('x', 'x'), type: 'PEER', source: undefined }])).toMatchObject({ ok: false });
    expect(restoreCancelOf(['a', 'b'], [rec('a', 'a'), rec('b', 'b', 'INDEX', 'other')])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/cancel one snapshot's indices at a time/),
    });
  });

  it('a snapshot that failed, or whose shards of the index failed, is refused', () => {
    expect(refusalOf(form(), { ...facts('beside'), snapshot: { ...snap, state: 'FAILED' } })?.message).toMatch(/only a finished snapshot/);
    const partial = { ...snap, state: 'PARTIAL', failures: [{ index: 'logs-b', shard: 0, reason: 'x', status: 'y' }] };
    expect(refusalOf(form(), { ...facts('beside'), snapshot: partial })?.message).toMatch(/no whole copy of logs-b/);
  });

  it('the machine: a close that went through without its restore says the originals are closed and how to open them', () => {
    const m = restoreMachine(form({ mode: 'replace' }));
    let s = m.init().state;
    s = m.step(s, { type: 'loaded', facts: facts('replace') }).state;
    expect(s.phase).toBe('review');
    s = m.step(s, { type: 'confirm', confirmation: { by: 'typed', text: 'logs-a,logs-b' } }).state;
    const failed = m.step(s, {
      type: 'applied',
      results: [
        { summary: 'close', ok: true, message: 'done' },
        { summary: 'restore', ok: false, message: 'refused' },
      ],
    }).state;
    expect(failed).toMatchObject({
      phase: 'failed',
      message: expect.stringMatching(
        /^refused \(logs-a,logs-b are CLOSED now: open them with POST \/logs-a,logs-b\/_open, or run the restore again\)$/,
      ),
    });
    const watching = m.step(s, {
      type: 'applied',
      results: [
        { summary: 'close', ok: true, message: 'done' },
        { summary: 'restore', ok: true, message: 'done' },
      ],
    });
    expect(watching.effects).toEqual([
      {
        type: 'watch',
        indices: [
          { index: 'logs-a', target: 'logs-a', before: 10 },
          { index: 'logs-b', target: 'logs-b', before: 10 },
        ],
      },
    ]);
  });

  it('a failure after the requests went out (the watch, the count) keeps every applied step in the results', () => {
    const m = restoreMachine(form({ mode: 'replace' }));
    let s = m.step(m.init().state, { type: 'loaded', facts: facts('replace') }).state;
    s = m.step(s, { type: 'confirm', confirmation: { by: 'typed', text: 'logs-a,logs-b' } }).state;
    const results = [
      { summary: 'close', ok: true, message: 'done' },
      { summary: 'restore', ok: true, message: 'done' },
    ];
    s = m.step(s, { type: 'applied', results }).state;
    expect(s.phase).toBe('watching');
    expect(m.step(s, { type: 'error', message: 'failed (503): all shards failed' }).state).toEqual({
      phase: 'failed',
      message: 'failed (503): all shards failed (after the requests went out: the close and the restore were applied)',
      results,
    });
  });

  it('cancel a running restore: x, the restoring indices typed, one guarded DELETE of exactly them; Esc backs out', () => {
    const m = restoreMachine(form());
    let s = m.init().state;
    s = m.step(s, { type: 'loaded', facts: facts('beside') }).state;
    s = m.step(s, { type: 'confirm', confirmation: { by: 'key' } }).state;
    s = m.step(s, { type: 'applied', results: [{ summary: 'restore', ok: true, message: 'done' }] }).state;
    expect(s.phase).toBe('watching');
    s = m.step(s, { type: 'cancelRestore' }).state;
    const plan = s.phase === 'watching' ? s.cancel!.plan : undefined;
    expect(plan).toMatchObject({ method: 'DELETE', path: '/logs-a-restored,logs-b-restored', risk: 'destructive' });
    expect(confirmationSatisfies(plan!, { by: 'key' })).toBe(false);
    expect(checkPlanPath(plan!)).toBeNull();
    // Esc: the prompt closes, the restore is still followed.
    expect(m.step(s, { type: 'cancel' }).state).toMatchObject({ phase: 'watching', cancel: undefined });
    // A wrong name: nothing sent.
    for (const ch of 'logs-a') s = m.step(s, { type: 'line', edit: { type: 'insert', text: ch } }).state;
    const wrong = m.step(s, { type: 'confirmCancel' });
    expect(wrong.effects).toEqual([]);
    expect(wrong.state).toMatchObject({ phase: 'watching', cancel: { error: expect.stringMatching(/nothing was sent/) } });
    s = wrong.state;
    for (const ch of 'logs-a-restored,logs-b-restored') s = m.step(s, { type: 'line', edit: { type: 'insert', text: ch } }).state;
    const sent = m.step(s, { type: 'confirmCancel' });
    expect(sent.effects).toEqual([{ type: 'stop', plan, confirmation: { by: 'typed', text: 'logs-a-restored,logs-b-restored' } }]);
    s = sent.state;
    expect(s.phase).toBe('stopping');
    // The watch failing on the deleted indices, or a late progress, changes nothing; the delete's result ends it.
    expect(m.step(s, { type: 'error', message: 'index_not_found' }).state.phase).toBe('stopping');
    // The delete is out: Esc cannot call it back, and a late watch event after it ended changes nothing.
    expect(m.step(s, { type: 'cancel' }).state).toBe(s);
    const stopped = m.step(s, { type: 'applied', results: [{ summary: 'cancel', ok: true, message: 'done' }] }).state;
    expect(m.step(stopped, { type: 'error', message: 'index_not_found' }).state).toBe(stopped);
    expect(m.step(s, { type: 'applied', results: [{ summary: 'cancel', ok: true, message: 'done' }] }).state.phase).toBe('stopped');
    expect(m.step(s, { type: 'applied', results: [{ summary: 'cancel', ok: false, message: 'HTTP 403' }] }).state).toMatchObject({
      phase: 'failed',
      message: 'the restore was not cancelled: HTTP 403',
    });
  });
});
