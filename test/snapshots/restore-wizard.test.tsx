// The restore wizard (R on the Snapshots pane), every step as the operator sees it at 80x23 and
// 120x40: the form (beside, in place), the refusal of a PARTIAL snapshot's failed index, the
// review with its request, the typed names of an in-place restore, the restore followed shard by
// shard, and the counts after. Opened on its key over the yellow scenario with the Snapshots
// pane's reads recorded from a real node (test/fixtures/snapshots/pane-*.json); the session runs
// the real machine (domain/wizards/restore.ts) and the test answers its effects with the events
// the runner sends, built from recorded answers (recovery-after-restore.json).
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/cluster/resources';
import { buildPreview } from '../../src/domain/mutation/preview';
import type { PlanResult } from '../../src/domain/wizards/machine';
import { restoreMachine, type RestoreForm } from '../../src/domain/wizards/restore';
import { KEYMAP } from '../../src/keys/keymap';
import type { WizardServices } from '../../src/services/wizards';
import { restoreWizard } from '../../src/services/wizards/restore';
import { WizardSession } from '../../src/services/wizards/session';
import { setSnapshot } from '../../src/store/console';
import { wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, fixture, KEYS, loadScenario, makeStore, NOW, renderApp, tick, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const SIZES = [
  [80, 23],
  [120, 40],
] as const;

const snaps = RESOURCES.snapshots.parse(fixture('snapshots', 'pane-snapshots'));
const nightly1 = snaps.find((s) => s.name === 'nightly-1')!;
const restoring = RESOURCES.restores.parse(fixture('snapshots', 'recovery-after-restore'));

type Session = WizardSession<any, any, any>;

async function open(columns: number, rows: number): Promise<{ app: Rendered; session: () => Session | undefined }> {
  let session: Session | undefined;
  const services = {
    open: (make: unknown, form: RestoreForm) => {
      expect(make).toBe(restoreWizard);
      return (session = new WizardSession(restoreMachine(form), () => Promise.resolve(undefined)));
    },
    preview: (plan) => buildPreview(plan, { url: 'http://127.0.0.1:9200', user: 'elastic' }),
  } as WizardServices;
  const store = makeStore();
  loadScenario(store, 'yellow');
  setSnapshot(store, 'snapshotRepositories', {
    data: RESOURCES.snapshotRepositories.parse(fixture('snapshots', 'pane-repositories') as never),
    fetchedAt: NOW - 3000,
  });
  setSnapshot(store, 'snapshots', { data: snaps, fetchedAt: NOW - 3000 });
  store.setState({ pane: 'snapshots' });
  r = await renderApp(store, { columns, rows, wizards: wizardsWith(['restore'], services) });
  return { app: r, session: () => session };
}

const shot = async (app: Rendered, name: string, columns: number, rows: number) => {
  await tick(20);
  const text = withColourMarkers(app.frame());
  await expect(text).toMatchFileSnapshot(`__screens__/wizard-restore-${name}-${columns}x${rows}.txt`);
  return text;
};

const R = KEYMAP.find((k) => k.id === 'wizard.restore')!.keys[0];
const ok = (summary: string, verified: string): PlanResult => ({
  summary,
  ok: true,
  applied: 'yes',
  message: 'applied (HTTP 200)',
  verified: { ok: true, message: verified },
});

describe.each(SIZES)('restore wizard at %ix%i', (columns, rows) => {
  it('beside: form, review, sent, followed shard by shard, counted', async () => {
    const { app, session } = await open(columns, rows);
    await app.press(KEYS.down); // nightly-1, the SUCCESS one
    await app.press(R);
    const form = await shot(app, 'form', columns, rows);
    expect(form).toContain('from backups/nightly-1');
    expect(form).toContain('logs-a,logs-b'); // every index of the snapshot by default
    expect(form).toContain('-restored');
    await app.press(KEYS.enter);
    expect(session()!.getState()).toMatchObject({ phase: 'loading', form: { indices: 'logs-a,logs-b', mode: 'beside' } });
    await shot(app, 'loading', columns, rows);
    session()!.send({
      type: 'loaded',
      facts: {
        snapshot: nightly1,
        indices: [
          { index: 'logs-a', target: 'logs-a-restored', originalDocs: 20 },
          { index: 'logs-b', target: 'logs-b-restored', originalDocs: 0 },
        ],
      },
    });
    const review = await shot(app, 'review', columns, rows);
    expect(review).toContain('/_snapshot/backups/nightly-1/');
    expect(review).toContain('aliases: left out: on the copies they would point at both');
    expect(review).toContain('"rename_replacement":"$1-restored"');
    await app.press('y');
    expect(session()!.getState().phase).toBe('applying');
    const plans = session()!.getState().plans;
    session()!.send({ type: 'applied', results: [ok(plans[0].summary, 'restoring or restored: logs-a-restored, logs-b-restored')] });
    await shot(app, 'watching', columns, rows);
    const half = { ...restoring[0], stage: 'INDEX', bytesRecovered: 8400, filesRecovered: 8, timeMs: 120 };
    session()!.send({ type: 'progress', progress: { recoveries: [half], health: 'red' } });
    const progress = await shot(app, 'progress', columns, rows);
    // At 80 columns the percent and the files give way to the rate and time left (the bar shows the percent).
    expect(progress).toContain(
      columns === 80
        ? 'logs-a-restored[0] INDEX 8.20kb/16.4kb 68.4kb/s eta 120ms'
        : 'logs-a-restored[0] INDEX 8.20kb/16.4kb (50%) 8/16 files 68.4kb/s eta 120ms',
    );
    session()!.send({
      type: 'settled',
      report: {
        counts: [
          { index: 'logs-a', target: 'logs-a-restored', before: 20, after: 20 },
          { index: 'logs-b', target: 'logs-b-restored', before: 0, after: 0 },
        ],
        health: 'green',
        green: true,
      },
    });
    const done = await shot(app, 'done', columns, rows);
    expect(done).toContain('logs-a-restored: 20 docs (logs-a before: 20)');
  });

  it('x while it runs: the restoring indices typed, one DELETE of exactly them, then stopped', async () => {
    const { app, session } = await open(columns, rows);
    await app.press(KEYS.down);
    await app.press(R);
    await app.press(KEYS.enter);
    session()!.send({
      type: 'loaded',
      facts: { snapshot: nightly1, indices: [{ index: 'logs-a', target: 'logs-a-restored', originalDocs: 20 }] },
    });
    await tick(20);
    await app.press('y');
    const plans = session()!.getState().plans;
    session()!.send({ type: 'applied', results: [ok(plans[0].summary, 'restoring or restored: logs-a-restored')] });
    const half = { ...restoring[0], stage: 'INDEX', bytesRecovered: 8400, filesRecovered: 8, timeMs: 120 };
    session()!.send({ type: 'progress', progress: { recoveries: [half], health: 'red' } });
    await tick(20);
    await app.press(KEYMAP.find((k) => k.id === 'restore.cancel')!.keys[0]);
    await app.type('logs-a-rest');
    const asking = await shot(app, 'cancel-typing', columns, rows);
    expect(asking).toContain("curl -X DELETE 'http://127.0.0.1:9200/logs-a-restored'");
    expect(asking).toContain('type logs-a-restored to delete them: ');
    expect(session()!.getState().cancel.typed).toBe('logs-a-rest');
    await app.type('ored');
    await app.press(KEYS.enter);
    expect(session()!.getState()).toMatchObject({ phase: 'stopping', cancelPlan: { method: 'DELETE', path: '/logs-a-restored' } });
    session()!.send({ type: 'applied', results: [ok('cancel', 'deleted: logs-a-restored')] });
    const stopped = await shot(app, 'cancel-stopped', columns, rows);
    expect(stopped).toContain('restore cancelled: its indices are deleted; the snapshot is untouched');
  });

  it('in place: the names typed; a PARTIAL snapshot refused for its failed index', async () => {
    const { app, session } = await open(columns, rows);
    await app.press(KEYS.down);
    await app.press(R);
    await app.press(KEYS.tab);
    await app.press(' ');
    await shot(app, 'form-in-place', columns, rows);
    await app.press(KEYS.enter);
    expect(session()!.getState().form).toMatchObject({ mode: 'replace' });
    session()!.send({
      type: 'loaded',
      facts: {
        snapshot: nightly1,
        indices: [
          { index: 'logs-a', target: 'logs-a', existing: { status: 'open' }, originalDocs: 15 },
          { index: 'logs-b', target: 'logs-b', existing: { status: 'open' }, originalDocs: 0 },
        ],
      },
    });
    await tick(20);
    await app.type('logs-a,logs');
    const typed = await shot(app, 'review-typing', columns, rows);
    expect(typed).toContain('type logs-a,logs-b to restore in place: ⟦red bold⟧logs-a,logs⟦⟧_');
    expect(session()!.getState().phase).toBe('review'); // nothing sent while typing
  });

  it("in place over a red original (issue 48): each way back's loss, the copy taken first, then the copy running before anything is sent", async () => {
    const { app, session } = await open(columns, rows);
    await app.press(KEYS.down);
    await app.press(R);
    await app.press(KEYS.tab);
    await app.press(' ');
    await app.press(KEYS.enter);
    const copy = {
      index: 'logs-a',
      uuid: 'U1',
      backupDir: '/var/backups/shardeck',
      node: 'node-0',
      here: [
        {
          shard: 0,
          folder: '/var/lib/elasticsearch/indices/U1/0',
          bytes: 151_023,
          files: 27,
          dirs: 4,
          archive: '/var/backups/shardeck/logs-a-0-20261122T120000Z.tar',
        },
      ],
      elsewhere: [],
      unreadable: [],
      freeBytes: 10_240_000_000,
      stamp: '20261122T120000Z',
      engine: null,
    };
    const restoreLine = {
      route: 'restore' as const,
      lost: 337,
      about: true,
      label: 'restore from backups/nightly-1 of 2026-11-21 01:00 UTC',
      basis: '2337 documents at 2026-11-22 11:58 UTC (the last read before it turned red) against 2000 in the snapshot',
    };
    const exorcise = {
      route: 'exorcise' as const,
      lost: 37,
      label: 'offline repair (CheckIndex -exorcise)',
      basis: 'CheckIndex on the copy',
    };
    session()!.send({
      type: 'loaded',
      facts: {
        snapshot: nightly1,
        indices: [
          {
            index: 'logs-a',
            target: 'logs-a',
            existing: { status: 'open', health: 'red' },
            unreadable: 'cannot be counted: no_shard_available_action_exception (a primary shard is not available)',
            copy,
            loss: { restore: restoreLine, exorcise, before: { docs: 2337, at: '2026-11-22T11:58:00Z', source: 'x' } },
          },
        ],
      },
    });
    await tick(20);
    const review = await shot(app, 'review-red', columns, rows);
    expect(review).toContain('37 documents (unidentified): offline repair');
    expect(review).toContain('type logs-a to restore in place');
    await app.type('logs-a');
    await app.press(KEYS.enter);
    // The copy first: nothing is sent before it is checked.
    expect(session()!.getState().phase).toBe('copying');
    session()!.send({ type: 'copyLine', line: 'ok: archive /var/backups/shardeck/logs-a-0-20261122T120000Z.tar' });
    await shot(app, 'copying', columns, rows);
  });

  it("beside with the snapshot's aliases: chosen in the form, said in red on the review with the originals' aliases now", async () => {
    const { app, session } = await open(columns, rows);
    await app.press(KEYS.down);
    await app.press(R);
    for (let i = 0; i < 3; i++) await app.press(KEYS.tab);
    await app.press(' ');
    const form = await shot(app, 'form-aliases', columns, rows);
    expect(form).toContain('included (one the original holds then points at both)');
    await app.press(KEYS.enter);
    expect(session()!.getState().form).toMatchObject({ mode: 'beside', includeAliases: true });
    session()!.send({
      type: 'loaded',
      facts: {
        snapshot: nightly1,
        indices: [{ index: 'logs-a', target: 'logs-a-restored', originalDocs: 20, aliases: [{ name: 'logs', write: false }] }],
      },
    });
    const review = await shot(app, 'review-aliases', columns, rows);
    expect(review).toContain('"include_aliases":true');
    expect(review).toMatch(/⟦red⟧aliases: put on the copies too: one an original still holds \(now logs-a: logs\)/);
  });

  it('a review taller than the screen (60 indices beside) is not shown and cannot be confirmed', async () => {
    const { app, session } = await open(columns, rows);
    await app.press(KEYS.down); // nightly-1, the SUCCESS one
    await app.press(R);
    await app.press(KEYS.enter);
    const indices = Array.from({ length: 60 }, (_, i) => ({ index: `logs-${i}`, target: `logs-${i}-restored`, originalDocs: i }));
    session()!.send({ type: 'loaded', facts: { snapshot: nightly1, indices } });
    const text = await shot(app, 'too-tall', columns, rows);
    expect(text).toMatch(/the review of these 60 indices takes \d+ rows: too tall to review whole here/);
    await app.press('y');
    expect(session()!.getState().phase).toBe('review');
    expect(text).not.toContain('logs-0 -> logs-0-restored');
  });

  it('refused: the PARTIAL snapshot holds no whole copy of its failed index', async () => {
    const { app, session } = await open(columns, rows);
    await app.press(R); // nightly-2, newest, PARTIAL (logs-c failed)
    await app.press(KEYS.enter);
    session()!.send({
      type: 'loaded',
      facts: {
        snapshot: snaps[0],
        indices: [
          { index: 'logs-a', target: 'logs-a-restored', originalDocs: 20 },
          { index: 'logs-c', target: 'logs-c-restored' },
        ],
      },
    });
    const text = await shot(app, 'refused', columns, rows);
    // Issue 47 item 2: the form again as it was, the reason under the field it concerns.
    expect(text).toMatch(/indices +logs-a,logs-c.*\n.*the snapshot holds no whole copy of logs-c/);
    expect(text).toContain('rename suffix  -restored');
  });
});

// At 80 columns (23 and 24 rows, the console's two smallest screens) every restoring shard's line
// keeps its rate and time left beside its bar: the percent, files and stage give way first, and a
// long name is cut in the middle (it was cut at the end, rate and time left off the screen).
describe.each([
  [80, 23],
  [80, 24],
] as const)('restore progress at %ix%i', (columns, rows) => {
  it('a long index name and large shards: rate and time left on every line', async () => {
    const { app, session } = await open(columns, rows);
    await app.press(KEYS.down);
    await app.press(R);
    await app.press(KEYS.enter);
    const index = 'service_v9_broken-2026.11.26';
    session()!.send({
      type: 'loaded',
      facts: { snapshot: nightly1, indices: [{ index: 'logs-a', target: `${index}-restored`, originalDocs: 20 }] },
    });
    await tick(20);
    await app.press('y');
    const plans = session()!.getState().plans;
    session()!.send({ type: 'applied', results: [ok(plans[0].summary, `restoring or restored: ${index}-restored`)] });
    const shard = (n: number, recovered: number) => ({
      ...restoring[0],
      index: `${index}-restored`,
      shard: n,
      stage: 'INDEX',
      bytesTotal: 52_428_800,
      bytesRecovered: recovered,
      filesTotal: 118,
      filesRecovered: 40,
      timeMs: 12_500,
    });
    session()!.send({ type: 'progress', progress: { recoveries: [shard(0, 20_971_520), shard(1, 5_242_880)], health: 'red' } });
    const text = await shot(app, 'progress-long', columns, rows);
    const lines = text.split('\n').filter((l) => l.includes('restored[') || l.includes('…['));
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toMatch(/\d\S*\/s eta \S+\s*⟦⟧$/);
    expect(lines[0]).toContain('20.0mb/50.0mb 1.60mb/s eta 18.8s');
  });
});
