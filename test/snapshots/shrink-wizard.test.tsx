// The right-sizing wizard (S on the Indices pane, issue 42), every step at 80x23 and 120x40: the
// form over the highlighted index with its counts and the proposal, a count that does not divide,
// the plan with the names typed, each step as it runs, the result in numbers with the platform's
// JSON, and an unfinished run found when it opens. Opened on its key over the yellow scenario; the
// session runs the real machine (domain/wizards/shrink.ts) and the test answers its effects with
// the events the session would send.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseWatermark } from '../../src/domain/nodes/disk';
import { buildPreview } from '../../src/domain/mutation/preview';
import { stepTitle, type ClusterFacts, type IndexFacts } from '../../src/domain/shrink/plan';
import { shrinkMachine, type ShrinkForm } from '../../src/domain/wizards/shrink';
import { KEYMAP } from '../../src/keys/keymap';
import type { WizardServices } from '../../src/services/wizards';
import { WizardSession } from '../../src/services/wizards/session';
import { shrinkWizard } from '../../src/services/wizards/shrink';
import { wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, KEYS, loadScenario, makeStore, NOW, renderApp, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());
// The temporary name carries the time: pinned.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  return () => void vi.useRealTimers();
});

const SIZES = [
  [80, 23],
  [120, 40],
] as const;
const MB = 1024 ** 2;
const GB = 1024 ** 3;
type Session = WizardSession<any, any, any>;

async function open(columns: number, rows: number): Promise<{ app: Rendered; session: () => Session; index: string }> {
  let session: Session | undefined;
  const services = {
    open: (make: unknown, initial?: Partial<ShrinkForm>) => {
      expect(make).toBe(shrinkWizard);
      return (session = new WizardSession(shrinkMachine(initial), () => Promise.resolve(undefined)));
    },
    preview: (plan) => buildPreview(plan, { url: 'http://127.0.0.1:9200', user: 'elastic' }),
  } as WizardServices;
  const store = makeStore();
  loadScenario(store, 'yellow');
  store.setState({ pane: 'indices' });
  r = await renderApp(store, { columns, rows, wizards: wizardsWith(['shrink'], services) });
  const index = r.ui.getState().selection.indices?.index ?? '';
  return { app: r, session: () => session!, index };
}

const shot = async (app: Rendered, name: string, columns: number, rows: number) => {
  await app.settled();
  const text = withColourMarkers(app.frame());
  await expect(text).toMatchFileSnapshot(`__screens__/wizard-shrink-${name}-${columns}x${rows}.txt`);
  return text;
};

const S = KEYMAP.find((k) => k.id === 'wizard.shrink')!.keys[0];

function facts(index: string): { indices: IndexFacts[]; cluster: ClusterFacts } {
  const pct = (p: string) => parseWatermark(p, undefined);
  return {
    indices: [
      {
        name: index,
        uuid: 'u1',
        status: 'open',
        health: 'green',
        shards: 6,
        replicas: 0,
        docs: 10_000,
        docsDeleted: 0,
        primaryBytes: 60 * MB,
        hidden: false,
        settings: { 'index.number_of_shards': '6' },
        aliases: { [`${index}_alias`]: {} },
        primaries: [{ node: 'node-1', bytes: 60 * MB }],
        notStarted: 0,
      },
    ],
    cluster: {
      dataNodes: ['node-1'],
      disks: [
        {
          node: 'node-1',
          host: null,
          ip: null,
          shards: 996,
          indicesBytes: 10 * GB,
          usedBytes: 40 * GB,
          availBytes: 60 * GB,
          totalBytes: 100 * GB,
        },
      ],
      watermarks: { low: pct('85%'), high: pct('90%'), flood: pct('95%'), thresholdEnabled: true },
      existing: new Set([index]),
      repositories: ['backups'],
      maxShardsPerNode: 1000,
      openShards: 996,
      template: { name: 'service_v9', shards: 6, replicas: 0 },
      allowAutoCreate: [],
    },
  };
}

describe.each(SIZES)('shrink wizard at %ix%i', (columns, rows) => {
  it('form with the proposal, the plan, each step, the result in numbers', async () => {
    const { app, session, index } = await open(columns, rows);
    expect(index).not.toBe('');
    await app.press(S);
    expect(session().getState().phase).toBe('loading');
    session().send({ type: 'loaded', unfinished: null });
    session().send({ type: 'peeked', hint: { index, shards: 6, primaryBytes: 60 * MB, targets: [1, 2, 3], proposed: 1 } });
    const form = await shot(app, 'form', columns, rows);
    expect(form).toContain('can go to 1, 2, 3; proposed 1');
    // The template field, then the plan.
    await app.press(KEYS.tab);
    await app.type('service_v9');
    await app.press(KEYS.enter);
    expect(session().getState().phase).toBe('inspecting');
    const f = facts(index);
    session().send({
      type: 'inspected',
      ...f,
      autoCreate: { persistent: null, transient: null, defaults: 'true' },
      now: NOW,
      template: {
        name: 'service_v9',
        template: { index_patterns: ['service_v9_*'], composed_of: ['service_v9_settings'] },
        components: { service_v9_settings: { template: { settings: { number_of_shards: 6 } } } },
        replicas: 0,
      },
    });
    const review = await shot(app, 'review', columns, rows);
    expect(review).toContain('writes to each project are refused for about');
    expect(review).toContain(`type ${index}`);
    // A wrong name is said; the right one starts it.
    await app.type('nope');
    await app.press(KEYS.enter);
    expect(session().getState()).toMatchObject({ phase: 'review', error: expect.stringMatching(/^type /) });
    for (let i = 0; i < 4; i++) await app.press(KEYS.backspace);
    await app.type(index);
    await app.press(KEYS.enter);
    expect(session().getState().phase).toBe('running');
    const ctx = {
      index,
      tmp: `${index}-shrink-x`,
      from: 6,
      to: 1,
      node: 'node-1',
      mode: 'shrink' as const,
      snapshot: { repository: 'backups', name: 'before-shrink' },
    };
    for (const [step, done] of [
      ['snapshot', 'snapshot backups/before-shrink taken (6/6 shards)'],
      ['block', `${index} refuses writes`],
      ['record', `${index}: 10000 documents, 1 aliases recorded`],
      ['copy', `${index}-shrink-x exists with 1 shard`],
    ] as const) {
      session().send({ type: 'step', line: { index, step, phase: 'start', text: stepTitle(step, ctx) } });
      session().send({ type: 'step', line: { index, step, phase: 'done', text: done } });
    }
    session().send({ type: 'step', line: { index, step: 'copy-green', phase: 'start', text: stepTitle('copy-green', ctx) } });
    const running = await shot(app, 'running', columns, rows);
    expect(running).toContain('copy-green');
    session().send({
      type: 'finished',
      report: {
        ok: true,
        message: '1 index right-sized',
        mode: 'shrink',
        indices: [{ index, from: 6, to: 1, docsBefore: 10_000, docsAfter: 10_000, ms: 4200, outcome: 'done' }],
        shardsPerNode: [{ node: 'node-1', before: 996, after: 991 }],
        capacity: {
          before: { limit: 1000, open: 996, free: 4, projectIndices: 0 },
          after: { limit: 1000, open: 991, free: 9, projectIndices: 9 },
        },
        tookMs: 4300,
        template: {
          ok: true,
          message: 'component template service_v9_settings now creates indices with 1 shard',
          platformJson: { service_v9: { number_of_shards: 1, number_of_replicas: 0, additional_components: ['service_v9_settings'] } },
        },
      },
    });
    const done = await shot(app, 'done', columns, rows);
    expect(done).toContain('node-1 996 -> 991');
    expect(done).toMatch(/topic\.elasticsearch\.index-templates-settings:\s*\{"service_v9":\{"number_of_shards":\s*1,/);
    expect(done).toContain('restart the platform services');
  });

  it('a count that does not divide: the divisors offered, nothing read', async () => {
    const { app, session, index } = await open(columns, rows);
    await app.press(S);
    session().send({ type: 'loaded', unfinished: null });
    session().send({ type: 'peeked', hint: { index, shards: 6, primaryBytes: 60 * MB, targets: [1, 2, 3], proposed: 1 } });
    await app.press(KEYS.enter);
    const f = facts(index);
    session().send({
      type: 'inspected',
      ...f,
      indices: f.indices,
      autoCreate: { persistent: null, transient: null, defaults: 'true' },
      now: NOW,
    });
    // Back to the form, another count.
    await app.press(KEYS.backspace);
    await app.press(KEYS.backspace); // the shards field's "1"
    await app.type('4');
    await app.press(KEYS.enter);
    session().send({ type: 'inspected', ...f, autoCreate: { persistent: null, transient: null, defaults: 'true' }, now: NOW });
    const refused = await shot(app, 'refused', columns, rows);
    expect(refused).toContain('4 does not divide the index');
    expect(refused).toContain('give one of 1, 2, 3');
  });

  it('an unfinished run is named when it opens: go on, or roll back while the original is there', async () => {
    const { app, session, index } = await open(columns, rows);
    await app.press(S);
    session().send({
      type: 'loaded',
      unfinished: {
        line: `a shrink of ${index} (1 of 1, started 2026-11-26T04:30:00.000Z by root) stopped at step copy-green: writes to it are refused (index.blocks.write); shardeck shrink --resume goes on (or --rollback puts the original back)`,
        canRollBack: true,
        confirmText: index,
      },
    });
    await app.settled();
    await app.press(KEYS.tab);
    const unfinished = await shot(app, 'unfinished', columns, rows);
    expect(unfinished).toContain('(•) roll back to the original');
    await app.type(index);
    await app.press(KEYS.enter);
    expect(session().getState()).toMatchObject({ phase: 'running', what: 'rollback' });
  });
});
