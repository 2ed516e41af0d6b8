// Issue 44 item 7: a key typed right after a wizard's read answered (its preview, its task) was
// once lost. Why: the wizard's key handler is the closure of its last render; the session's state
// moves on at once, the screen a moment later. A key in between was judged by the phase the screen
// still showed ("loading": nothing to type into) and swallowed by the modal layer. Now such a key
// waits until the screen shows the state it acts on (ui/wizards/dialog-keys.ts), then is taken.
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/cluster/resources';
import { parseTask } from '../../src/domain/delete/task';
import { buildPreview } from '../../src/domain/mutation/preview';
import { taskControlMachine, type TaskVerb } from '../../src/domain/wizards/task-control';
import { taskNumber } from '../../src/domain/wizards/delete';
import { KEYMAP } from '../../src/keys/keymap';
import type { WizardServices } from '../../src/services/wizards';
import { WizardSession } from '../../src/services/wizards/session';
import { setSnapshot } from '../../src/store/console';
import { wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, fixture, KEYS, loadScenario, makeStore, NOW, renderApp, type Rendered } from './harness';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const keyOf = (id: string) => KEYMAP.find((k) => k.id === id)!.keys[0];
const SLICED = 'vW204kurQaSu8cApPxR53w:53';

async function cancelWizard() {
  const opened: WizardSession<any, any, any>[] = [];
  const services = {
    open: (_make: unknown, verb: TaskVerb, id: string) => {
      const s = new WizardSession(taskControlMachine(verb, id), () => Promise.resolve(undefined));
      opened.push(s);
      return s;
    },
    preview: (plan) => buildPreview(plan, { url: 'http://127.0.0.1:9200' }),
  } as WizardServices;
  const store = makeStore();
  loadScenario(store, 'yellow');
  for (const name of ['tasks', 'nodes'] as const)
    setSnapshot(store, name, { data: RESOURCES[name].parse(fixture('tasks', name) as never) as never, fetchedAt: NOW - 3000, failures: 0 });
  store.setState({ pane: 'tasks' });
  r = await renderApp(store, { wizards: wizardsWith(['taskCancel'], services) });
  await r.press(KEYS.down); // the sliced delete
  await r.press(keyOf('wizard.taskCancel'));
  return { app: r, session: opened[0] };
}

const raw = (fixture('tasks', 'tasks') as { tasks: { node: string; id: number; parent_task_id?: string; status?: unknown }[] }).tasks;
const task = () => {
  const t = raw.find((x) => `${x.node}:${x.id}` === SLICED)!;
  return parseTask(
    SLICED,
    { completed: false, task: t },
    raw.filter((x) => x.parent_task_id === SLICED),
  );
};

describe('no key is lost after a read answers', () => {
  it('the task number typed the moment the task was read is all there, in order', async () => {
    const { app, session } = await cancelWizard();
    expect(session.getState().phase).toBe('loading');
    const number = taskNumber(SLICED);
    // The answer, and every key of the number at once behind it: no frame drawn in between.
    session.send({ type: 'loaded', task: task() });
    await app.type(number);
    await app.settled();
    expect(session.getState()).toMatchObject({ phase: 'confirming', typed: number });
  });

  it('keys that arrive while a later state waits for its frame keep their order with the ones after', async () => {
    const { app, session } = await cancelWizard();
    session.send({ type: 'loaded', task: task() });
    await app.type('9');
    await app.press(KEYS.backspace);
    await app.type(taskNumber(SLICED));
    expect(session.getState()).toMatchObject({ phase: 'confirming', typed: taskNumber(SLICED) });
  });
});
