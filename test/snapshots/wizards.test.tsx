// Every step of every wizard as the operator sees it, at 80x24 and at 120x40: the form, the review
// with its request preview, the typed confirmation, progress, done, failed and refused. Each
// wizard is opened on its key in the console over a recorded scenario (test/fixtures/*) and driven
// by its real machine: the session's effects are not performed, the test answers them with the
// events a runner would send, built from the same recorded data. Colour is kept as visible markers
// (test/ui/markers.ts), one file per screen in __screens__/.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { diskRows } from '../../src/domain/nodes/disk';
import { findCorruption } from '../../src/domain/corruption/explain';
import { buildPreview, type PreviewConnection } from '../../src/domain/mutation/preview';
import type { PlanResult } from '../../src/domain/wizards/machine';
import { allocationMachine, explainAllocation } from '../../src/domain/wizards/allocation';
import { deleteMachine, type DeleteForm } from '../../src/domain/wizards/delete';
import { forcemergeMachine, type MergeFacts } from '../../src/domain/wizards/forcemerge';
import { recoveryMachine, type AnnouncedStep, type RecoveryFinding } from '../../src/domain/wizards/recovery';
import { replicasMachine, type ReplicasForm } from '../../src/domain/wizards/replicas';
import { scrollMachine } from '../../src/domain/wizards/scroll';
import { componentMachine, type ComponentForm } from '../../src/domain/wizards/component-template';
import { parseTemplates, platformTemplatesSettings } from '../../src/domain/templates';
import { unblockMachine } from '../../src/domain/wizards/unblock';
import { restartWizardMachine } from '../../src/domain/wizards/restart-node';
import { RESTART_STEPS, restartChecks, stepTitle } from '../../src/domain/maintenance/restart-node';
import type { TaskProgress } from '../../src/domain/delete/task';
import { KEYMAP } from '../../src/keys/keymap';
import type { WizardServices } from '../../src/services/wizards';
import { WizardSession } from '../../src/services/wizards/session';
import { allocationWizard } from '../../src/services/wizards/allocation';
import { componentTemplateWizard } from '../../src/services/wizards/component-template';
import { deleteWizard } from '../../src/services/wizards/delete';
import { forcemergeWizard } from '../../src/services/wizards/forcemerge';
import { recoveryWizard } from '../../src/services/wizards/recovery';
import { replicasWizard } from '../../src/services/wizards/replicas';
import { scrollWizard } from '../../src/services/wizards/scroll';
import { unblockWizard } from '../../src/services/wizards/unblock';
import { restartNodeWizard } from '../../src/services/wizards/restart-node';
import { snapshotRepositoriesRead, snapshotWizard } from '../../src/services/wizards/snapshot';
import { restoreWizard } from '../../src/services/wizards/restore';
import { restoreMachine, type RestoreForm } from '../../src/domain/wizards/restore';
import { restoreRoute } from '../../src/domain/wizards/recovery';
import { comparisonLines, exorciseLoss, restoreLoss } from '../../src/domain/corruption/loss';
import { snapshotMachine, type SnapshotRequest } from '../../src/domain/wizards/snapshot';
import type { SnapshotInfo, SnapshotRepository } from '../../src/domain/snapshots';
import type { PaneId } from '../../src/store/console';
import { wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, fixture, KEYS, loadScenario, makeStore, NOW, renderApp, tick, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());
// The delete form resolves an age against the clock: pinned, so the screen is the same every run.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  return () => void vi.useRealTimers();
});

// 80x23 (an 80x24 terminal less a tmux status line) is the smallest a wizard is shown at whole.
const SIZES = [
  [80, 23],
  [120, 40],
] as const;

type AnySession = WizardSession<any, any, any>;

/** Services whose sessions run the real machines and leave every effect to the test. */
function recordedServices(
  conn: PreviewConnection = { url: 'http://127.0.0.1:9200', user: 'elastic' },
  repositories: SnapshotRepository[] = [],
) {
  const sessions: Record<string, AnySession> = {};
  const snapshotRequests: SnapshotRequest[] = [];
  const open = (name: string, s: AnySession) => (sessions[name] = s);
  const noEffects = () => Promise.resolve(undefined);
  // Each wizard's screens open its session with the maker of its session module: the same
  // machine here, without the effects.
  const made = new Map<unknown, (...args: any[]) => AnySession>([
    [replicasWizard, (initial?: Partial<ReplicasForm>) => open('replicas', new WizardSession(replicasMachine(initial), noEffects))],
    [unblockWizard, () => open('unblock', new WizardSession(unblockMachine(), noEffects))],
    [restartNodeWizard, () => open('restartNode', new WizardSession(restartWizardMachine(), noEffects))],
    [scrollWizard, () => open('scroll', new WizardSession(scrollMachine(), noEffects))],
    [allocationWizard, (shard?: never) => open('allocation', new WizardSession(allocationMachine(shard), noEffects))],
    [deleteWizard, (initial?: Partial<DeleteForm>) => open('delete', new WizardSession(deleteMachine(initial), noEffects))],
    [
      forcemergeWizard,
      (target?: string, start?: boolean) => open('forcemerge', new WizardSession(forcemergeMachine(target, start), noEffects)),
    ],
    [recoveryWizard, () => open('recovery', new WizardSession(recoveryMachine(), noEffects))],
    [
      componentTemplateWizard,
      (initial?: Partial<ComponentForm>) => open('componentTemplate', new WizardSession(componentMachine(initial), noEffects)),
    ],
    // "Snapshot first": the repositories it is offered with, and its snapshot session (SnapshotFirst.tsx).
    [snapshotRepositoriesRead, (() => Promise.resolve(repositories)) as never],
    [restoreWizard, (form: RestoreForm) => open('restore', new WizardSession(restoreMachine(form), noEffects))],
    [
      snapshotWizard,
      (req: SnapshotRequest) => {
        snapshotRequests.push(req);
        return open('snapshotFirst', new WizardSession(snapshotMachine(req), noEffects));
      },
    ],
  ]);
  const services = {
    open: (make: unknown, ...args: unknown[]) => made.get(make)!(...args),
    preview: (plan) => buildPreview(plan, conn),
  } as WizardServices;
  return { services, sessions, snapshotRequests };
}

interface Ctx {
  app: Rendered;
  /** The session the wizard opened. */
  session: AnySession;
  state: any;
  send(e: object): void;
  store: ReturnType<typeof makeStore>;
  /** Every session opened, by name ('snapshotFirst': the snapshot taken before the change). */
  sessions: Record<string, AnySession>;
  /** What each snapshot session was opened with. */
  snapshotRequests: SnapshotRequest[];
}

type WalkStep = [string, (c: Ctx) => unknown];

interface Walk {
  wizard: string;
  steps: WalkStep[];
  /** The connection previews are built for (default: http://127.0.0.1:9200 as elastic). */
  conn?: PreviewConnection;
  /** The snapshot repositories registered ("snapshot first" is offered when there is one). */
  repositories?: SnapshotRepository[];
}

const walk = (wizard: string, ...steps: WalkStep[]): Walk => ({ wizard, steps });

/** Where each wizard is opened: the recorded scenario and the pane its key works on. */
const WHERE: Record<string, { scenario: string; pane: PaneId }> = {
  replicas: { scenario: 'yellow', pane: 'indices' },
  delete: { scenario: 'yellow', pane: 'indices' },
  forcemerge: { scenario: 'yellow', pane: 'indices' },
  unblock: { scenario: 'yellow', pane: 'disk' },
  restartNode: { scenario: 'yellow', pane: 'nodes' },
  scroll: { scenario: 'yellow', pane: 'nodes' },
  allocation: { scenario: 'yellow', pane: 'shards' },
  recovery: { scenario: 'red', pane: 'shards' },
  componentTemplate: { scenario: 'yellow', pane: 'templates' },
};

function keyOf(commandId: string): string {
  return KEYMAP.find((k) => k.id === commandId)!.keys[0];
}

const COMMANDS: Record<string, string> = {
  replicas: 'wizard.replicas',
  delete: 'wizard.deleteByQuery',
  forcemerge: 'wizard.forcemerge',
  unblock: 'wizard.unblock',
  restartNode: 'wizard.restartNode',
  scroll: 'wizard.scroll',
  allocation: 'wizard.allocation',
  recovery: 'wizard.recoverCorrupt',
  componentTemplate: 'wizard.componentTemplate',
};

const ok = (summary: string, verified: string): PlanResult => ({
  summary,
  ok: true,
  applied: 'yes',
  message: 'applied (HTTP 200)',
  verified: { ok: true, message: verified },
});
const refusedByNode = (summary: string): PlanResult => ({
  summary,
  ok: false,
  applied: 'no',
  message:
    'not applied: HTTP 403 cluster_block_exception: index [service_v9_orders] blocked by: [FORBIDDEN/12/index read-only / allow delete (api)]',
});

// --- recorded facts -------------------------------------------------------------------------------

const selectedIndex = (c: Ctx) => c.app.ui.getState().selection.indices?.index ?? 'service_v9_orders';
const disksOf = (c: Ctx) => diskRows(c.store.getState().snapshots.allocation.data!, c.store.getState().snapshots.settings.data!.watermarks);
/** The restart's facts as its session builds them (services/wizards/restart-node.ts), from the recorded node, health and shards. */
function restartFacts(c: Ctx) {
  const { snapshots } = c.store.getState();
  const node = snapshots.nodes.data![0].name;
  const health = snapshots.health.data!;
  const checks = restartChecks({
    node,
    health: { status: health.status, relocating: health.relocatingShards, unassigned: health.unassignedShards },
    shards: snapshots.shards.data!,
  });
  return { node, resumeAt: null, warnings: checks.warnings, steps: RESTART_STEPS.map((id) => `${id}: ${stepTitle(id, node)}`) };
}
function mergeFacts(c: Ctx, index: string): MergeFacts {
  return { indices: c.store.getState().snapshots.indices.data!.filter((i) => i.name === index), disks: disksOf(c) };
}
function progress(deleted: number, completed = false): TaskProgress {
  return {
    id: 'oTUltX4IQMOUUVeiohTt8A:2188',
    action: 'indices:data/write/delete/byquery',
    description: 'delete-by-query [service_v9_orders]',
    completed,
    cancelled: false,
    total: 1234,
    deleted,
    batches: Math.ceil(deleted / 1000),
    versionConflicts: 0,
    throttledMillis: 0,
    requestsPerSecond: -1,
    runningMillis: 4200,
    failures: [],
  };
}
const SAMPLES = [
  {
    index: 'service_v9_orders',
    id: 'doc-000017',
    modifiedAt: '2025-06-02T08:14:55.000Z',
    sources: ['src-crm'],
    title: 'Order 17 (archived)',
  },
  {
    index: 'service_v9_orders',
    id: 'doc-000018',
    modifiedAt: '2025-06-02T08:15:02.000Z',
    sources: ['src-crm'],
    title: 'Order 18 (archived)',
  },
  {
    index: 'service_v9_orders',
    id: 'doc-000214',
    modifiedAt: '2025-07-11T16:40:31.000Z',
    sources: ['src-crm', 'src-erp'],
    title: 'Order 214',
  },
  { index: 'service_v9_orders', id: 'doc-000215', modifiedAt: '2025-07-11T16:41:09.000Z', sources: ['src-erp'], title: null },
  { index: 'service_v9_orders', id: 'doc-001002', modifiedAt: null, sources: [], title: 'Order 1002' },
];

/** The corrupt primary recorded from a real node (test/fixtures/corrupt), as detection reports it. */
function corruptFinding(extra: Partial<RecoveryFinding> = {}): RecoveryFinding {
  const f = findCorruption(fixture('corrupt', 'explain-primary') as never)!;
  return {
    index: f.index,
    shard: f.shard,
    lines: [
      `${f.index} shard ${f.shard} primary${f.node ? ` on node ${f.node.name}` : ''}: ${f.canAllocate}${f.corrupt ? ' (corrupt)' : ''}`,
      `  reason: ${f.reason}`,
      ...(f.file ? [`  file:   ${f.file}`] : []),
      `  folder: /var/lib/elasticsearch/indices/Qe6s1d3bQ0yG2Yy0pK8cVg/${f.shard}`,
      '  documents last seen: unknown (an unassigned shard reports none; the read-only CheckIndex step counts them)',
      '  this host: runs the node holding the copy (the checklist may run here)',
    ],
    options: [
      'restore the index from snapshot repository backups (snapshot nightly-2026.11.21 holds it)',
      'reindex it from its source system (the platform re-sends every document of the project)',
    ],
    shardTool: true,
    ...extra,
  };
}
const STOP_STEP: AnnouncedStep = {
  n: 1,
  total: 9,
  title: 'Stop the engine',
  commandLines: ['systemctl stop elasticsearch'],
  note: 'nothing may write to the shard folder while it is repaired',
  losesData: false,
};
const REPAIR_STEP: AnnouncedStep = {
  n: 5,
  total: 9,
  title: 'Repair: drop the broken segments (CheckIndex -exorcise)',
  commandLines: [
    "runuser -u elasticsearch -- \"$ES_JAVA_HOME/bin/java\" -cp '/usr/share/elasticsearch/lib/*' org.apache.lucene.index.CheckIndex '/var/lib/elasticsearch/indices/Qe6s1d3bQ0yG2Yy0pK8cVg/0/index' -exorcise",
  ],
  note: 'the documents of the broken segments are gone for good (the archive of step 2 keeps them)',
  losesData: true,
};

/** Recovery: the finding, c, and the first step asked for. */
async function toFirstStep(c: Ctx): Promise<void> {
  c.send({ type: 'detected', finding: corruptFinding() });
  await tick();
  await c.app.press('c');
  c.send({ type: 'announced', step: STOP_STEP, need: { kind: 'key' } });
  await tick();
}

/** Force merge: Enter on the selected index, and what inspection read. */
async function toMergeReview(c: Ctx): Promise<void> {
  await c.app.press(KEYS.enter);
  c.send({ type: 'inspected', indices: [c.state.target], facts: mergeFacts(c, c.state.target), retaining: 0 });
  await tick();
}

const REPOS: SnapshotRepository[] = [{ name: 'backups', type: 'fs', location: '/var/lib/es-repo/backups', settings: {} }];

/** The snapshot-first session: loaded with the change's indices, sent (the key confirmed it), followed. */
async function snapshotFollowed(c: Ctx): Promise<void> {
  const first = c.sessions.snapshotFirst;
  const req = snapshotRequestOf(c);
  first.send({ type: 'loaded', facts: { repositories: REPOS, indices: req.indices!.split(',') } });
  await tick();
  const plan = first.getState().plan;
  first.send({ type: 'sent', result: { summary: plan.summary, ok: true, applied: 'yes', message: 'applied (HTTP 200)' } });
  first.send({
    type: 'progress',
    progress: {
      repository: 'backups',
      name: req.name,
      state: 'STARTED',
      shards: { total: 2, done: 1, failed: 0 },
      incrementalBytes: 8 * 1024 * 1024,
      processedBytes: 3 * 1024 * 1024,
      totalBytes: 8 * 1024 * 1024,
      timeMs: 1400,
    },
  });
}

/** The request the snapshot-first session was opened with. */
function snapshotRequestOf(c: Ctx): Extract<SnapshotRequest, { kind: 'create' }> {
  const req = c.snapshotRequests.at(-1);
  expect(req?.kind).toBe('create');
  return req as Extract<SnapshotRequest, { kind: 'create' }>;
}

function snapshotEnd(c: Ctx, over: Partial<SnapshotInfo>): void {
  const req = snapshotRequestOf(c);
  c.sessions.snapshotFirst.send({
    type: 'finished',
    snapshot: {
      repository: 'backups',
      name: req.name,
      uuid: 'u1',
      state: 'SUCCESS',
      indices: req.indices!.split(','),
      dataStreams: [],
      includeGlobalState: false,
      shards: { total: 2, ok: 2, failed: 0 },
      startMs: NOW,
      durationMs: 2100,
      failures: [],
      ...over,
    },
  });
}

/** The delete's review of 1,234 matching documents, over the form's target or the `indices` given. */
async function toDeleteReview(c: Ctx, indices: string[] = [c.state.form.target.trim()]): Promise<void> {
  await c.app.type('90d');
  await c.app.press(KEYS.enter);
  c.send({ type: 'previewed', indices, preview: { matching: 1234, indexTotal: 5210, samples: SAMPLES } });
  await tick();
}

// --- the walks --------------------------------------------------------------------------------------

const WALKS: Walk[] = [
  walk(
    'replicas',
    ['form', () => undefined],
    ['form-error', (c) => c.app.press(KEYS.enter)],
    [
      'form-filled',
      async (c) => {
        await c.app.type('0');
        await c.app.press(KEYS.tab);
        await c.app.press(' ');
      },
    ],
    ['inspecting', (c) => c.app.press(KEYS.enter)],
    [
      'review',
      (c) =>
        c.send({
          type: 'inspected',
          facts: {
            indices: [selectedIndex(c)],
            before: { [selectedIndex(c)]: 1 },
            dataNodes: 1,
            healthBefore: 'yellow',
            template: {
              index_patterns: ['service_v9_*'],
              template: { settings: { index: { number_of_shards: '6', number_of_replicas: '1' } } },
            },
          },
        }),
    ],
    // The change and its template's curl lines whole, in the place of the facts (dialog.curl).
    ['review-curl', (c) => c.app.press('c')],
    ['applying', (c) => c.app.press('y')],
    [
      'watching',
      (c) =>
        c.send({
          type: 'applied',
          results: c.state.review.plans.map((p: { summary: string }) => ok(p.summary, 'every matched index now has 0 replicas')),
        }),
    ],
    ['done', (c) => c.send({ type: 'watched', health: 'green', replicas: { [selectedIndex(c)]: 0 }, timedOut: false })],
  ),
  walk('replicas', [
    'failed',
    async (c) => {
      await c.app.type('0');
      await c.app.press(KEYS.enter);
      c.send({
        type: 'inspected',
        facts: { indices: [selectedIndex(c)], before: { [selectedIndex(c)]: 1 }, dataNodes: 1, healthBefore: 'yellow' },
      });
      await tick();
      await c.app.press('y');
      c.send({ type: 'applied', results: [refusedByNode(c.state.review.plans[0].summary)] });
    },
  ]),
  walk(
    'delete',
    ['form', () => undefined],
    ['form-filled', (c) => c.app.type('90d')],
    ['previewing', (c) => c.app.press(KEYS.enter)],
    [
      'review',
      (c) =>
        c.send({
          type: 'previewed',
          indices: [c.state.form.target.trim()],
          preview: { matching: 1234, indexTotal: 5210, samples: SAMPLES },
        }),
    ],
    ['review-typing', (c) => c.app.type('12')],
    ['review-mismatch', (c) => c.app.press(KEYS.enter)],
    [
      'starting',
      async (c) => {
        await c.app.type('1234');
        await c.app.press(KEYS.enter);
      },
    ],
    ['running-waiting', (c) => c.send({ type: 'started', task: 'oTUltX4IQMOUUVeiohTt8A:2188' })],
    ['running', (c) => c.send({ type: 'progress', progress: progress(617) })],
    ['rethrottle', (c) => c.app.type('t500')],
    ['counting', (c) => c.send({ type: 'finished', progress: progress(1234, true) })],
    ['done', (c) => c.send({ type: 'counted', stillMatching: 0 })],
  ),
  // A longer curl line (a CA file), shown whole: it takes sample rows, and the typed line, its
  // error and the keys stay on an 80x23 screen.
  {
    ...walk('delete', [
      'review-cacert',
      async (c) => {
        await c.app.type('90d');
        await c.app.press(KEYS.enter);
        c.send({
          type: 'previewed',
          indices: [c.state.form.target.trim()],
          preview: { matching: 1234, indexTotal: 5210, samples: SAMPLES },
        });
        await tick();
        await c.app.type('12');
        await c.app.press(KEYS.enter);
      },
    ]),
    conn: { url: 'https://storage-1.example:9200', user: 'elastic', caFile: '/etc/shardeck/certs/storage-cluster-ca.crt' },
  },
  // 150 indices, each named in the request: taller than what the samples leave. It says what it
  // leaves out, and the typed line and the keys stay on the screen.
  walk('delete', [
    'review-many-indices',
    async (c) => {
      await toDeleteReview(
        c,
        Array.from({ length: 150 }, (_, i) => `service_v9_project_${i}`),
      );
      await c.app.settled();
      const frame = c.app.frame();
      expect(frame).toMatch(/… \d+ more lines not shown: ctrl-y copies the request whole as curl/);
      expect(frame).toMatch(/type 1234 to delete them/);
      expect(frame).toMatch(/Esc close \(nothing sent\)/);
    },
  ]),
  walk('delete', [
    'nothing',
    async (c) => {
      await c.app.type('90d');
      await c.app.press(KEYS.enter);
      c.send({ type: 'previewed', indices: [c.state.form.target.trim()], preview: { matching: 0, indexTotal: 5210, samples: [] } });
    },
  ]),
  walk('delete', [
    'failed',
    async (c) => {
      await c.app.type('90d');
      await c.app.press(KEYS.enter);
      c.send({
        type: 'previewed',
        indices: [c.state.form.target.trim()],
        preview: { matching: 3, indexTotal: 5210, samples: SAMPLES.slice(0, 3) },
      });
      await tick();
      await c.app.type('3');
      await c.app.press(KEYS.enter);
      c.send({ type: 'notStarted', message: 'not sent: the index was deleted meanwhile (index_not_found_exception); nothing was deleted' });
    },
  ]),
  // "Snapshot first" (s on the review, a repository registered): taken whole, then the review says so.
  {
    ...walk(
      'delete',
      ['review-snapshot-offer', (c) => toDeleteReview(c)],
      [
        'snapshot-following',
        async (c) => {
          await c.app.press(keyOf('dialog.snapshotFirst'));
          expect(snapshotRequestOf(c)).toEqual({
            kind: 'create',
            repository: 'backups',
            name: 'before-delete-service_v9_alpha-20261122-120000',
            indices: c.state.indices.join(','),
            wait: true,
            partial: false,
          });
          await snapshotFollowed(c);
          // The key confirmed it: sent once, and the delete was not.
          expect(c.sessions.snapshotFirst.getState().phase).toBe('following');
          expect(c.state.phase).toBe('review');
        },
      ],
      ['review-snapshot-taken', (c) => snapshotEnd(c, {})],
    ),
    repositories: REPOS,
  },
  // PARTIAL: the delete stops with the reason; y goes back to its review, without the offer again.
  {
    ...walk(
      'delete',
      [
        'snapshot-partial',
        async (c) => {
          await toDeleteReview(c);
          await c.app.press(keyOf('dialog.snapshotFirst'));
          await snapshotFollowed(c);
          await tick();
          snapshotEnd(c, {
            state: 'PARTIAL',
            shards: { total: 2, ok: 1, failed: 1 },
            failures: [{ index: c.state.indices[0], shard: 1, reason: 'primary shard is not allocated', status: 'INTERNAL_SERVER_ERROR' }],
          });
          await tick();
          // Enter (the delete's own key) does nothing here: only y or Esc.
          await c.app.press(KEYS.enter);
          expect(c.state.phase).toBe('review');
        },
      ],
      ['review-without-snapshot', (c) => c.app.press('y')],
    ),
    repositories: REPOS,
  },
  {
    ...walk(
      'forcemerge',
      ['review-snapshot-offer', toMergeReview],
      [
        'review-snapshot-taken',
        async (c) => {
          await c.app.press(keyOf('dialog.snapshotFirst'));
          expect(snapshotRequestOf(c)).toMatchObject({ repository: 'backups', indices: c.state.indices.join(','), partial: false });
          expect(snapshotRequestOf(c).name).toMatch(/^before-merge-/);
          await snapshotFollowed(c);
          await tick();
          snapshotEnd(c, {});
        },
      ],
    ),
    repositories: REPOS,
  },
  walk(
    'forcemerge',
    ['form', () => undefined],
    ['inspecting', (c) => c.app.press(KEYS.enter)],
    ['review', (c) => c.send({ type: 'inspected', indices: [c.state.target], facts: mergeFacts(c, c.state.target), retaining: 0 })],
    ['applying', (c) => c.app.press('y')],
    ['applying-task', (c) => c.send({ type: 'started', task: 'oTUltX4IQMOUUVeiohTt8A:2301' })],
    [
      'done',
      (c) => {
        const after = mergeFacts(c, c.state.target);
        after.indices = after.indices.map((i) => ({ ...i, docsDeleted: 0 }));
        c.send({ type: 'merged', after, failures: [] });
      },
    ],
  ),
  walk('forcemerge', [
    'refused',
    async (c) => {
      await c.app.press(KEYS.enter);
      const facts = mergeFacts(c, c.state.target);
      // The same disk past the high watermark: a merge needs extra room while it runs.
      facts.disks = facts.disks.map((d) => ({ ...d, usedPercent: 92.4, level: 'high', headroomToHighBytes: 0 }));
      c.send({ type: 'inspected', indices: [c.state.target], facts, retaining: 0 });
    },
  ]),
  walk('forcemerge', [
    'gone',
    async (c) => {
      await c.app.press(KEYS.enter);
      const withDeleted = (n: number) => {
        const f = mergeFacts(c, c.state.target);
        f.indices = f.indices.map((i) => ({ ...i, docsDeleted: n }));
        return f;
      };
      c.send({ type: 'inspected', indices: [c.state.target], facts: withDeleted(1200), retaining: 0 });
      await tick();
      await c.app.press('y');
      c.send({ type: 'started', task: 'oTUltX4IQMOUUVeiohTt8A:2301' });
      // The node restarted while it merged: its task is gone; what it merged is read back.
      c.send({ type: 'gone', after: withDeleted(400) });
    },
  ]),
  walk('forcemerge', [
    'failed',
    async (c) => {
      await toMergeReview(c);
      await c.app.press('y');
      c.send({ type: 'notStarted', message: 'not sent: the node answered HTTP 503 (master_not_discovered_exception); nothing was merged' });
    },
  ]),
  walk(
    'unblock',
    ['loading', () => undefined],
    ['review', (c) => c.send({ type: 'loaded', facts: { blocked: ['service_v9_orders', 'service_v9_bravo'], disks: disksOf(c) } })],
    ['applying', (c) => c.app.press('y')],
    [
      'done',
      (c) =>
        c.send({
          type: 'applied',
          results: [ok(c.state.review.plans[0].summary, 'these 2 indices no longer carry the read-only block: writes are accepted again')],
        }),
    ],
  ),
  walk(
    'restartNode',
    ['loading', () => undefined],
    ['review', (c) => c.send({ type: 'loaded', facts: restartFacts(c) })],
    ['review-wrong-name', (c) => c.app.type('other-node').then(() => c.app.press(KEYS.enter))],
    [
      'running',
      async (c) => {
        for (let i = 0; i < 'other-node'.length; i++) await c.app.press(KEYS.backspace);
        await c.app.type(c.state.facts.node);
        await c.app.press(KEYS.enter);
        for (const id of ['allocation-off', 'flush', 'stop'] as const) {
          c.send({ type: 'step', line: { id, phase: 'start', text: stepTitle(id, c.state.facts.node) } });
          c.send({ type: 'step', line: { id, phase: 'done', text: 'done' } });
        }
        c.send({ type: 'step', line: { id: 'start', phase: 'start', text: stepTitle('start', c.state.facts.node) } });
      },
    ],
    [
      'done',
      (c) =>
        c.send({ type: 'finished', ok: true, message: `restarted ${c.state.facts.node}: allocation back to what it was, green, verified` }),
    ],
  ),
  walk('unblock', ['nothing-blocked', (c) => c.send({ type: 'loaded', facts: { blocked: [], disks: disksOf(c) } })]),
  walk('unblock', [
    'refused',
    (c) =>
      c.send({
        type: 'loaded',
        facts: { blocked: ['service_v9_orders'], disks: disksOf(c).map((d) => ({ ...d, usedPercent: 96, level: 'flood' })) },
      }),
  ]),
  walk('unblock', [
    'failed',
    async (c) => {
      c.send({ type: 'loaded', facts: { blocked: ['service_v9_orders'], disks: disksOf(c) } });
      await tick();
      await c.app.press('y');
      c.send({ type: 'applied', results: [refusedByNode(c.state.review.plans[0].summary)] });
    },
  ]),
  walk(
    'scroll',
    ['loading', () => undefined],
    [
      'form',
      (c) =>
        c.send({
          type: 'loaded',
          facts: {
            nodes: c.store.getState().snapshots.nodeStats.data!.search,
            limit: c.store.getState().snapshots.settings.data!.maxOpenScrollContext,
          },
        }),
    ],
    ['form-error', (c) => c.app.press(KEYS.enter)],
    ['form-filled', (c) => c.app.type('1000')],
    ['review', (c) => c.app.press(KEYS.enter)],
    ['applying', (c) => c.app.press('y')],
    [
      'done',
      (c) => c.send({ type: 'applied', results: [ok(c.state.plan.summary, 'search.max_open_scroll_context is 1000 on every node')] }),
    ],
  ),
  walk('scroll', [
    'failed',
    async (c) => {
      c.send({ type: 'loaded', facts: { nodes: c.store.getState().snapshots.nodeStats.data!.search, limit: 500 } });
      await tick();
      await c.app.type('1000');
      await c.app.press(KEYS.enter);
      await c.app.press('y');
      c.send({
        type: 'applied',
        results: [
          {
            summary: c.state.plan.summary,
            ok: false,
            applied: 'unknown',
            message: 'unknown: the node closed the connection before answering; read back: not applied',
          },
        ],
      });
    },
  ]),
  walk(
    'allocation',
    ['explaining', () => undefined],
    [
      'explained',
      (c) =>
        c.send({
          type: 'explained',
          explanation: explainAllocation(fixture('yellow', 'allocationExplain') as never),
          unassigned: 6,
          failed: 2,
        }),
    ],
    ['retry-review', (c) => c.app.press('R')],
    ['applying', (c) => c.app.press('y')],
    [
      'done',
      (c) =>
        c.send({
          type: 'applied',
          results: [ok(c.state.plan.summary, 'the cluster accepted the reroute')],
          moves: [{ index: 'service_v9_orders', shard: 2, primary: false, from: 'UNASSIGNED', to: 'INITIALIZING', node: 'node-0' }],
          stillUnassigned: 5,
        }),
    ],
  ),
  walk('allocation', ['nothing-unassigned', (c) => c.send({ type: 'explained', explanation: null, unassigned: 0, failed: 0 })]),
  // A failed allocation, recorded from a real node: its details and its max_retry decider's reason
  // each hold a Java stack trace (8,632 characters). The advice comes before them; the rest is cut
  // to the screen with a line that says how many rows are left out and which command prints them
  // (Ink ran them off the screen, the key hint with them).
  walk('allocation', [
    'explained-stack-trace',
    async (c) => {
      c.send({
        type: 'explained',
        explanation: explainAllocation(fixture('corrupt', 'explain-primary-retrying') as never),
        unassigned: 1,
        failed: 1,
      });
      await c.app.settled();
      const frame = c.app.frame();
      expect(frame).toMatch(/-> allocation failed too often \(index.allocation.max_retries\)/);
      // Wrapped at 80 columns: the colour codes and the line break between its two rows.
      expect(frame).toMatch(/… \d+ more lines not shown: shardeck explain service_v9_broken 0 primary prints[\s\S]{1,20}it whole/);
      expect(frame).toMatch(/R retry the 1 failed allocation · Esc close/);
    },
  ]),
  // Unassigned, but no allocation failed: a retry would move nothing, so it is not offered (issue 47 item 9).
  walk('allocation', [
    'nothing-failed',
    (c) =>
      c.send({
        type: 'explained',
        explanation: explainAllocation(fixture('yellow', 'allocationExplain') as never),
        unassigned: 6,
        failed: 0,
      }),
  ]),
  walk('allocation', [
    'failed',
    async (c) => {
      c.send({
        type: 'explained',
        explanation: explainAllocation(fixture('yellow', 'allocationExplain') as never),
        unassigned: 6,
        failed: 2,
      });
      await tick();
      await c.app.press('R');
      await c.app.press('y');
      c.send({
        type: 'error',
        message: 'the node did not answer within 30 s (timeout); the retry may or may not have been applied: look at the Shards pane',
      });
    },
  ]),
  // A snapshot holds the corrupt index: its restore is offered first, and f hands over to the restore
  // wizard, filled in place from the newest one (the index name typed at its review).
  walk(
    'recovery',
    [
      'options-restore-route',
      (c) =>
        c.send({
          type: 'detected',
          finding: corruptFinding({
            restore: restoreRoute('corrupt-exp', [
              { repository: 'backups', snapshot: 'nightly-2026.11.21', state: 'SUCCESS', endTime: '2026-11-21T01:00:04.000Z' },
            ]),
          }),
        }),
    ],
    [
      'restore-form',
      async (c) => {
        await c.app.press(keyOf('recovery.restore'));
      },
    ],
    [
      'restore-review',
      async (c) => {
        await c.app.press(KEYS.enter);
        const restore = c.sessions.restore;
        expect(restore.getState().form).toEqual({
          repository: 'backups',
          snapshot: 'nightly-2026.11.21',
          indices: 'corrupt-exp',
          mode: 'replace',
          suffix: '-restored',
        });
        restore.send({
          type: 'loaded',
          facts: {
            snapshot: {
              repository: 'backups',
              name: 'nightly-2026.11.21',
              uuid: 'u',
              state: 'SUCCESS',
              indices: ['corrupt-exp'],
              dataStreams: [],
              includeGlobalState: false,
              shards: { total: 1, ok: 1, failed: 0 },
              failures: [],
            },
            // Red (its primary is corrupt): deleted, then restored (closed, it would keep its shard locked).
            indices: [
              {
                index: 'corrupt-exp',
                target: 'corrupt-exp',
                existing: { status: 'open', health: 'red' },
                unreadable: 'cannot be counted: no_shard_available_action_exception (a primary shard is not available)',
              },
            ],
          },
        });
      },
    ],
  ),
  // The corrupt primary cannot be copied: the snapshot is partial by request, and says which shard it could not take.
  {
    ...walk(
      'recovery',
      ['options-snapshot-offer', (c) => c.send({ type: 'detected', finding: corruptFinding() })],
      [
        'snapshot-failed',
        async (c) => {
          await c.app.press(keyOf('dialog.snapshotFirst'));
          const req = snapshotRequestOf(c);
          expect(req).toMatchObject({ repository: 'backups', indices: c.state.finding.index, partial: true });
          await snapshotFollowed(c);
          await tick();
          snapshotEnd(c, {
            state: 'PARTIAL',
            shards: { total: 1, ok: 0, failed: 1 },
            failures: [
              { index: c.state.finding.index, shard: 0, reason: 'primary shard is not allocated', status: 'INTERNAL_SERVER_ERROR' },
            ],
          });
          await tick();
          // c (the checklist) waits for the choice.
          await c.app.press('c');
          expect(c.state.phase).toBe('options');
        },
      ],
      ['options-without-snapshot', (c) => c.app.press('y')],
    ),
    repositories: REPOS,
  },
  walk(
    'recovery',
    ['detecting', () => undefined],
    ['options', (c) => c.send({ type: 'detected', finding: corruptFinding() })],
    ['running', (c) => c.app.press('c')],
    ['asking-key', (c) => c.send({ type: 'announced', step: STOP_STEP, need: { kind: 'key' } })],
    [
      'running-output',
      async (c) => {
        await c.app.press('y');
        c.send({ type: 'output', chunk: 'Stopping elasticsearch.service...\nStopped elasticsearch.service.\n' });
        c.send({ type: 'info', line: 'ok: step 1 Stop the engine (exit 0)' });
      },
    ],
    ['asking-typed', (c) => c.send({ type: 'announced', step: REPAIR_STEP, need: { kind: 'type', expected: 'service_v9_orders' } })],
    ['asking-typing', (c) => c.app.type('service_v9')],
    [
      'finished',
      async (c) => {
        await c.app.type('_orders');
        await c.app.press(KEYS.enter);
        c.send({ type: 'info', line: 'ok: step 5 Repair (exit 0)' });
        c.send({
          type: 'ended',
          status: 'finished',
          lines: [
            'service_v9_orders shard 0 is assigned again (cluster yellow)',
            'documents: 5210 before, 5197 after: 13 lost (CheckIndex predicted 13)',
          ],
        });
      },
    ],
  ),
  walk('recovery', [
    'declined',
    async (c) => {
      await toFirstStep(c);
      await c.app.press('n');
      c.send({
        type: 'ended',
        status: 'declined',
        lines: [
          'stopped before step 1 (Stop the engine): nothing was run',
          'resume with r here, or: shardeck recover-corrupt service_v9_orders 0 --resume',
        ],
      });
    },
  ]),
  walk('recovery', [
    'failed',
    async (c) => {
      await toFirstStep(c);
      await c.app.press('y');
      c.send({ type: 'output', chunk: 'Failed to stop elasticsearch.service: Access denied\n' });
      c.send({ type: 'info', line: 'FAILED: step 1 Stop the engine (exit 4)' });
      c.send({
        type: 'ended',
        status: 'failed',
        lines: ['step 1 failed: the engine still runs; nothing else was done', 'run it as root, then resume with r'],
      });
    },
  ]),
  walk('recovery', [
    'none',
    (c) =>
      c.send({
        type: 'detected',
        finding: null,
        message: 'no corrupt primary in the cluster (cluster red, 1 unassigned primaries): nothing to repair',
      }),
  ]),
  // Issue 48: each way back's loss before the choice (at 80x23 without how each was reached), k to
  // count the repair's on a copy, the copy and count running, then the comparison with both numbers.
  walk(
    'recovery',
    [
      'options-losses',
      (c) =>
        c.send({
          type: 'detected',
          finding: corruptFinding({
            restore: restoreRoute('corrupt-exp', [
              { repository: 'backups', snapshot: 'nightly-2026.11.21', state: 'SUCCESS', endTime: '2026-11-21T01:00:04.000Z' },
            ]),
            losses: comparisonLines([
              restoreLoss(
                { repository: 'backups', name: 'nightly-2026.11.21', startMs: Date.parse('2026-11-21T01:00:00Z') },
                {
                  before: { docs: 5210, at: '2026-11-22T11:58:00Z', source: 'the last read before it turned red' },
                  inSnapshot: { docs: 4873, at: '2026-11-21T01:00:00Z', source: 'counted as the snapshot was taken' },
                },
              ),
              exorciseLoss(null, 'not counted: k copies the shard folder and counts it with CheckIndex'),
            ]),
            countable:
              "copy /var/lib/elasticsearch/indices/Qe6s1d3bQ0yG2Yy0pK8cVg/0 (148kb) to /var/backups/shardeck (9.54gb free) and count the repair's loss with CheckIndex; the copy is kept",
          }),
        }),
    ],
    [
      'comparing',
      async (c) => {
        await c.app.press(keyOf('recovery.compare'));
        c.send({ type: 'info', line: 'ok: archive /var/backups/shardeck/corrupt-exp-0-20261122T120000Z.tar' });
        c.send({ type: 'output', chunk: 'Checking only these segments: _2\n  test: check integrity.........FAILED\n' });
      },
    ],
    [
      'options-compared',
      (c) =>
        c.send({
          type: 'compared',
          losses: comparisonLines([
            restoreLoss(
              { repository: 'backups', name: 'nightly-2026.11.21', startMs: Date.parse('2026-11-21T01:00:00Z') },
              {
                before: { docs: 5210, at: '2026-11-22T11:58:00Z', source: 'the last read before it turned red' },
                inSnapshot: { docs: 4873, at: '2026-11-21T01:00:00Z', source: 'counted as the snapshot was taken' },
              },
            ),
            exorciseLoss({
              totalDocs: 5210,
              segments: [
                { name: '_0', maxDoc: 5197, broken: false },
                { name: '_2', maxDoc: 13, broken: true },
              ],
              brokenSegments: 1,
              lostDocs: 13,
              wroteNewSegments: false,
            }),
          ]),
          message: 'copy kept: /var/backups/shardeck/corrupt-exp-0-20261122T120000Z.tar',
        }),
    ],
  ),
  walk('recovery', [
    'options-elsewhere',
    (c) =>
      c.send({
        type: 'detected',
        finding: corruptFinding({
          shardTool: false,
          elsewhere:
            'the corrupt copy is on node node-1, not on this host (node-0): run shardeck recover-corrupt on the host of node-1; nothing was run',
        }),
      }),
  ]),
  walk('recovery', [
    'options-resume',
    (c) =>
      c.send({
        type: 'detected',
        finding: null,
        resumeAt: 'service_v9_orders shard 0: Start the engine',
        message: 'the node does not answer (connect ECONNREFUSED 127.0.0.1:9200)',
      }),
  ]),
  walk('recovery', [
    'error',
    (c) => c.send({ type: 'error', message: 'allocation explain failed: HTTP 401 security_exception (the profile has no valid password)' }),
  ]),
];

/** The component template's form filled (service_v9_no_raw, field raw) and sent for its read. */
async function fillComponentForm(c: Ctx): Promise<void> {
  await c.app.type('service_v9_no_raw');
  await c.app.press(KEYS.tab);
  await c.app.type('raw');
  await c.app.press(KEYS.enter);
}

/** The recorded templates (test/fixtures/yellow), and the index template the review is built from. */
function templateFacts(c: Ctx, name = 'service_v9') {
  const s = c.store.getState().snapshots;
  const view = parseTemplates(s.indexTemplates.data!, s.componentTemplates.data!);
  return { template: view.index.find((t) => t.name === name)!.body, existing: null, view };
}

WALKS.push(
  walk(
    'componentTemplate',
    ['form', () => undefined],
    ['form-error', (c) => c.app.press(KEYS.enter)],
    [
      'form-filled',
      async (c) => {
        await c.app.type('service_v9_no_raw');
        await c.app.press(KEYS.tab);
        await c.app.type('raw');
      },
    ],
    ['inspecting', (c) => c.app.press(KEYS.enter)],
    ['review', (c) => c.send({ type: 'inspected', facts: templateFacts(c) })],
    ['review-curl', (c) => c.app.press('c')],
    ['applying', (c) => c.app.press('y')],
    [
      'done',
      (c) => {
        const plans = c.state.review.plans;
        const view = templateFacts(c).view;
        const json = platformTemplatesSettings(view);
        json.service_v9.additional_components = [...json.service_v9.additional_components, 'service_v9_no_raw'];
        c.send({
          type: 'applied',
          report: {
            results: [
              ok(plans[0].summary, 'component template service_v9_no_raw maps raw as object with enabled: false'),
              ok(plans[1].summary, 'index template service_v9 is composed of service_v9_mappings + service_v9_no_raw'),
            ],
            newIndex: { ok: true, message: 'a new index from service_v9 maps raw as object with enabled: false' },
            platformJson: json,
          },
        });
      },
    ],
  ),
  walk('componentTemplate', [
    'changed',
    async (c) => {
      await fillComponentForm(c);
      c.send({ type: 'inspected', facts: templateFacts(c) });
      await tick();
      await c.app.press('y');
      const plans = c.state.review.plans;
      c.send({
        type: 'applied',
        report: {
          results: [
            ok(plans[0].summary, 'component template service_v9_no_raw maps raw as object with enabled: false'),
            {
              summary: plans[1].summary,
              ok: false,
              message:
                'index template service_v9 changed since the preview: not sent (the component template is in place); run again to see it as it is now',
            },
          ],
          platformJson: c.state.review.platformJson,
        },
      });
    },
  ]),
);

// An index template with a mapping of 150 fields: its request shown whole is taller than the
// screen, at 80x23 and at 120x40. What does not fit is said, and the key hint stays on screen.
WALKS.push(
  walk(
    'componentTemplate',
    [
      'long-template-review',
      async (c) => {
        await fillComponentForm(c);
        const facts = templateFacts(c);
        const fields = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`project_field_${i}`, { type: 'keyword' }]));
        const body = facts.template as { template?: Record<string, unknown> };
        c.send({
          type: 'inspected',
          facts: { ...facts, template: { ...body, template: { ...body.template, mappings: { properties: fields } } } as never },
        });
      },
    ],
    [
      'long-template-review-curl',
      async (c) => {
        await c.app.press('c');
        await c.app.settled();
        const frame = c.app.frame();
        expect(frame).toMatch(/… \d+ more lines not shown: ctrl-y copies the request whole as curl/);
        expect(frame).toMatch(/y send · c review · Backspace edit · Esc cancel/);
      },
    ],
  ),
);

async function run(w: Walk, columns: number, rows: number): Promise<void> {
  const { services, sessions, snapshotRequests } = recordedServices(w.conn, w.repositories);
  const store = makeStore();
  loadScenario(store, WHERE[w.wizard].scenario);
  store.setState({ pane: WHERE[w.wizard].pane });
  r = await renderApp(store, { columns, rows, wizards: wizardsWith([w.wizard], services) });
  await r.press(keyOf(COMMANDS[w.wizard]));
  const session = sessions[w.wizard];
  expect(session, `${w.wizard} did not open`).toBeDefined();
  const ctx: Ctx = {
    app: r,
    session,
    get state() {
      return session.getState();
    },
    send: (e) => session.send(e),
    store,
    sessions,
    snapshotRequests,
  };
  for (const [step, act] of w.steps) {
    await act(ctx);
    await r.settled();
    await expect(withColourMarkers(r.frame())).toMatchFileSnapshot(`__screens__/wizard-${w.wizard}-${step}-${columns}x${rows}.txt`);
  }
}

describe.each(SIZES)('wizards at %ix%i', (columns, rows) => {
  for (const w of WALKS) it(`${w.wizard}: ${w.steps.map(([s]) => s).join(', ')}`, () => run(w, columns, rows));
});
