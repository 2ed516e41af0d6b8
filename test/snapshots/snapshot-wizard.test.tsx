// The snapshot wizard (S on the Snapshots pane), every step at 80x23 and 120x40: the form, the
// review, the snapshot followed with its progress, a PARTIAL end with its failure's reason, and a
// refusal. Opened on its key over the yellow scenario with the pane's reads recorded from a real
// node (test/fixtures/snapshots/pane-*.json); the session runs the real machine
// (domain/wizards/snapshot.ts) and the test answers its effects with recorded answers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESOURCES } from '../../src/cluster/resources';
import { buildPreview } from '../../src/domain/mutation/preview';
import type { SnapshotRequest } from '../../src/domain/wizards/snapshot';
import { snapshotMachine } from '../../src/domain/wizards/snapshot';
import { KEYMAP } from '../../src/keys/keymap';
import type { WizardServices } from '../../src/services/wizards';
import { snapshotWizard } from '../../src/services/wizards/snapshot';
import { WizardSession } from '../../src/services/wizards/session';
import { setSnapshot } from '../../src/store/console';
import { wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, fixture, KEYS, loadScenario, makeStore, NOW, renderApp, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());
// The default name is the time it was opened: pinned.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  return () => void vi.useRealTimers();
});

const SIZES = [
  [80, 23],
  [120, 40],
] as const;

const repos = RESOURCES.snapshotRepositories.parse(fixture('snapshots', 'pane-repositories'));
const snaps = RESOURCES.snapshots.parse(fixture('snapshots', 'pane-snapshots'));
const status = RESOURCES.runningSnapshots.parse(fixture('snapshots', 'status-s1'))[0];
type Session = WizardSession<any, any, any>;

async function open(columns: number, rows: number): Promise<{ app: Rendered; session: () => Session | undefined }> {
  let session: Session | undefined;
  const services = {
    open: (make: unknown, req: SnapshotRequest) => {
      expect(make).toBe(snapshotWizard);
      return (session = new WizardSession(snapshotMachine(req), () => Promise.resolve(undefined)));
    },
    preview: (plan) => buildPreview(plan, { url: 'http://127.0.0.1:9200', user: 'elastic' }),
  } as WizardServices;
  const store = makeStore();
  loadScenario(store, 'yellow');
  setSnapshot(store, 'snapshotRepositories', { data: repos, fetchedAt: NOW - 3000 });
  setSnapshot(store, 'snapshots', { data: snaps, fetchedAt: NOW - 3000 });
  store.setState({ pane: 'snapshots' });
  r = await renderApp(store, { columns, rows, wizards: wizardsWith(['snapshot'], services) });
  return { app: r, session: () => session };
}

const shot = async (app: Rendered, name: string, columns: number, rows: number) => {
  await app.settled();
  const text = withColourMarkers(app.frame());
  await expect(text).toMatchFileSnapshot(`__screens__/wizard-snapshot-${name}-${columns}x${rows}.txt`);
  return text;
};

const S = KEYMAP.find((k) => k.id === 'wizard.snapshot')!.keys[0];

describe.each(SIZES)('snapshot wizard at %ix%i', (columns, rows) => {
  it('form, review, followed, PARTIAL with its reason', async () => {
    const { app, session } = await open(columns, rows);
    await app.press(S);
    const form = await shot(app, 'form', columns, rows);
    expect(form).toContain('backups'); // the selected snapshot's repository
    expect(form).toContain('shardeck-2026.11.22-12.00.00');
    await app.press(KEYS.tab);
    await app.press(KEYS.tab);
    await app.type('logs-a,logs-c');
    await app.press(KEYS.tab);
    await app.press(' ');
    await app.press(KEYS.enter);
    expect(session()!.getState().phase).toBe('loading');
    session()!.send({ type: 'loaded', facts: { repositories: repos, indices: ['logs-a', 'logs-c'] } });
    const review = await shot(app, 'review', columns, rows);
    expect(review).toContain('"partial":true');
    await app.press('y');
    expect(session()!.getState().phase).toBe('applying');
    const plan = session()!.getState().plan;
    session()!.send({ type: 'sent', result: { summary: plan.summary, ok: true, applied: 'yes', message: 'applied (HTTP 200)' } });
    const half = { ...status, state: 'STARTED', processedBytes: status.incrementalBytes / 2 };
    session()!.send({ type: 'progress', progress: half });
    const following = await shot(app, 'following', columns, rows);
    expect(following).toContain('(50%)');
    session()!.send({ type: 'finished', snapshot: snaps[0] });
    const done = await shot(app, 'done', columns, rows);
    expect(done).toContain('logs-c[0]: primary shard is not allocated');
  });

  it('150 indices, each named: the request says how many of its lines do not fit, the keys stay on screen', async () => {
    const { app, session } = await open(columns, rows);
    await app.press(S);
    await app.press(KEYS.enter);
    const indices = Array.from({ length: 150 }, (_, i) => `service_v9_project_${i}`);
    session()!.send({ type: 'loaded', facts: { repositories: repos, indices } });
    await app.settled();
    const review = app.frame();
    expect(review).toMatch(/… \d+ more lines not shown: ctrl-y copies the request whole as curl/);
    expect(review).toMatch(/y take it · Esc cancel/);
  });

  it('refused: no open index to take; the form comes back as typed, the reason under the indices (issue 47 item 2)', async () => {
    const { app, session } = await open(columns, rows);
    await app.press(S);
    await app.press(KEYS.enter);
    session()!.send({ type: 'loaded', facts: { repositories: repos, indices: [] } });
    const refused = await shot(app, 'refused', columns, rows);
    expect(refused).toMatch(/indices .*\n.*no open index to take a snapshot of/);
    expect(refused).toContain('partial ok');
  });
});
