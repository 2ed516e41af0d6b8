// The Tasks pane's keys (x cancel, t rethrottle, Enter the whole detail) as the operator sees them
// at 80x23, 80x24 and 120x40, over the tasks recorded from a real node (test/fixtures/tasks: a sliced
// delete-by-query and an unsliced one at 1 document a second). The session runs the real machine
// (domain/wizards/task-control.ts); the test answers its read with the task as GET _tasks/<id>
// reports it (built from the same recorded row) and its request with a result.
import { taskNumber } from '../../src/domain/wizards/delete';
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/cluster/resources';
import { parseTask, type TaskProgress } from '../../src/domain/delete/task';
import { buildPreview } from '../../src/domain/mutation/preview';
import type { ClusterTask } from '../../src/domain/parse';
import { taskControlMachine, type TaskVerb } from '../../src/domain/wizards/task-control';
import { KEYMAP } from '../../src/keys/keymap';
import type { WizardServices } from '../../src/services/wizards';
import { WizardSession } from '../../src/services/wizards/session';
import { taskControlWizard } from '../../src/services/wizards/task-control';
import { setSnapshot } from '../../src/store/console';
import { wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, fixture, KEYS, loadScenario, makeStore, NOW, renderApp, tick, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const SIZES = [
  [80, 23],
  [80, 24],
  [120, 40],
] as const;

const recorded = RESOURCES.tasks.parse(fixture('tasks', 'tasks'));
const keyOf = (id: string) => KEYMAP.find((k) => k.id === id)!.keys[0];

const rawTasks = (fixture('tasks', 'tasks') as { tasks: { node: string; id: number; parent_task_id?: string; status?: unknown }[] }).tasks;

/**
 * GET _tasks/<id> of a recorded row, as es.task returns it while the task runs: a sliced parent as
 * the node answers it (its own counters 0, status.slices null for each running slice: the list's
 * filter_path leaves that field out, so it is put back here) with its slices, the recorded rows
 * whose parent it is, summed in (cluster/tasks.ts reads them with parent_task_id).
 */
function progressOf(t: ClusterTask): TaskProgress {
  const raw = rawTasks.find((x) => `${x.node}:${x.id}` === t.id)!;
  const kids = rawTasks.filter((x) => x.parent_task_id === t.id);
  const status = kids.length ? { ...(raw.status as object), slices: kids.map(() => null) } : raw.status;
  return parseTask(t.id, { completed: false, task: { ...raw, status } }, kids);
}

type Session = WizardSession<any, any, any>;

async function open(columns: number, rows: number) {
  const opened: { verb: TaskVerb; id: string; session: Session }[] = [];
  const services = {
    open: (make: unknown, verb: TaskVerb, id: string) => {
      expect(make).toBe(taskControlWizard);
      const session = new WizardSession(taskControlMachine(verb, id), () => Promise.resolve(undefined));
      opened.push({ verb, id, session });
      return session;
    },
    preview: (plan) => buildPreview(plan, { url: 'http://127.0.0.1:9200', user: 'elastic' }),
  } as WizardServices;
  const store = makeStore();
  loadScenario(store, 'yellow');
  for (const name of ['tasks', 'nodes'] as const)
    setSnapshot(store, name, { data: RESOURCES[name].parse(fixture('tasks', name) as never) as never, fetchedAt: NOW - 3000, failures: 0 });
  store.setState({ pane: 'tasks' });
  r = await renderApp(store, { columns, rows, wizards: wizardsWith(['taskCancel', 'taskRethrottle'], services) });
  return { app: r, opened };
}

const shot = async (app: Rendered, name: string, columns: number, rows: number) => {
  await tick(20);
  const text = withColourMarkers(app.frame());
  await expect(text).toMatchFileSnapshot(`__screens__/wizard-task-${name}-${columns}x${rows}.txt`);
  return text;
};

const find = (id: string) => recorded.find((t) => t.id === id)!;
// The order of the pane: the node's health-node task runs longest, then the sliced delete (+2).
const HEALTH = 'vW204kurQaSu8cApPxR53w:17';
const SLICED = 'vW204kurQaSu8cApPxR53w:53';

describe.each(SIZES)('task keys at %ix%i', (columns, rows) => {
  it('cancel of a delete-by-query: its number typed (a wrong one refused), then sent as typed', async () => {
    const { app, opened } = await open(columns, rows);
    await app.press(KEYS.down);
    await app.press(keyOf('wizard.taskCancel'));
    expect(opened.map((o) => [o.verb, o.id])).toEqual([['cancel', SLICED]]);
    const s = opened[0].session;
    await shot(app, 'cancel-loading', columns, rows);
    s.send({ type: 'loaded', task: progressOf(find(SLICED)) });
    const asking = await shot(app, 'cancel-typed', columns, rows);
    expect(s.getState().plan).toMatchObject({ method: 'POST', path: `/_tasks/${encodeURIComponent(SLICED)}/_cancel`, risk: 'destructive' });
    expect(asking).toContain(`type its number ${taskNumber(SLICED)} to cancel it`);
    // The parent's own 0 / 0 is not what the operator sees: its two slices' counts (108 + 92), summed.
    expect(asking).toContain('deleted 18 / 200 (9%) · ');
    // At 80 columns the batches and the throttled time go so the slices stay in view.
    expect(asking).toContain(columns > 80 ? '· 2 batches · 2 version conflicts' : '· 2 version conflicts');
    expect(asking).toContain('sliced: 2 slices, 2 running');
    expect(asking).not.toContain('0 / 0');
    await app.press('y'); // y is typed text here, not a yes: nothing is sent
    expect(s.getState()).toMatchObject({ phase: 'confirming', typed: 'y' });
    await app.type('5');
    await app.press(KEYS.enter);
    const wrong = await shot(app, 'cancel-wrong', columns, rows);
    expect(wrong).toContain(`type the task's number ${taskNumber(SLICED)} exactly`);
    expect(s.getState().phase).toBe('confirming');
    for (let i = 0; i < 2; i++) await app.press(KEYS.backspace);
    await app.type(taskNumber(SLICED));
    await app.press(KEYS.enter);
    expect(s.getState()).toMatchObject({ phase: 'applying' });

    const plan = s.getState().plan;
    s.send({ type: 'applied', results: [{ summary: plan.summary, ok: true, applied: 'yes', message: 'applied (HTTP 200)' }] });
    const done = await shot(app, 'cancel-done', columns, rows);
    expect(done).toContain('ok: applied (HTTP 200)');
  }, 30_000);

  it('rethrottle of a delete-by-query: the rate typed, previewed, y sends it', async () => {
    const { app, opened } = await open(columns, rows);
    await app.press(KEYS.down);
    await app.press(keyOf('wizard.taskRethrottle'));
    const s = opened[0].session;
    s.send({ type: 'loaded', task: progressOf(find(SLICED)) });
    await app.type('x5');
    await app.press(KEYS.enter);
    const review = await shot(app, 'rethrottle-review', columns, rows);
    expect(review).toContain('to 5 documents per second');
    expect(s.getState().plan).toMatchObject({
      path: `/_delete_by_query/${encodeURIComponent(SLICED)}/_rethrottle`,
      querystring: { requests_per_second: '5' },
    });
    await app.press('y');
    expect(s.getState().phase).toBe('applying');
  });

  it('refused before anything is asked: a task that takes no rate', async () => {
    const { app, opened } = await open(columns, rows);
    await app.press(keyOf('wizard.taskRethrottle'));
    expect(opened[0].id).toBe(HEALTH);
    opened[0].session.send({ type: 'loaded', task: progressOf(find(HEALTH)) });
    const text = await shot(app, 'rethrottle-refused', columns, rows);
    expect(text).toContain('nothing sent: task vW204kurQaSu8cApPxR53w:17 (health-node[c]) takes no rate');
  });

  it('Enter: the highlighted task whole, its slices each on a line; Enter again: the list', async () => {
    const { app } = await open(columns, rows);
    await app.press(KEYS.down);
    await app.press(KEYS.enter); // tasks.detail
    const text = await shot(app, 'detail', columns, rows);
    expect(text).toContain(`task ${SLICED} · indices:data/write/delete/byquery`);
    expect(text).toContain('2 child tasks:');
    expect(text).toContain('vW204kurQaSu8cApPxR53w:54');
    expect(text).toContain('its id is typed to confirm');
    await app.press(KEYS.enter); // tasks.detail
    // Longest first, as the arrow says (it read running↑ over the longest first: issue 44 item 7).
    expect(withColourMarkers(app.frame())).toContain('running↓');
  });
});
