// The Tasks pane's keys in the console at 80x24 against a real 8.19.21 node running a
// delete-by-query made slow on purpose (1 document a second, batches of 10): t rethrottles it (the
// node reports the new rate), x cancels it with its id typed (a wrong id sends nothing), each one
// guarded request with its audit record; the pane's rows are the node's own _tasks answer.
import { taskNumber } from '../../src/domain/wizards/delete';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEsApi } from '../../src/cluster/api';
import { createClient } from '../../src/cluster/connection';
import { readAudit } from '../../src/services/audit';
import { Guard } from '../../src/services/guard';
import { createWizardServices } from '../../src/services/wizards';
import { setSnapshot } from '../../src/store/console';
import { createUiStore } from '../../src/ui/state';
import { esCall } from '../helpers/real-node';
import { startSlowDelete } from '../../dev/lib/sick-node.mjs';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { waitUntil } from '../helpers/wait-until';
import { expectFits, until, wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, KEYS, makeStore, renderApp } from '../ui/harness';

const INDEX = 'service_v9_slowpane';
let node: SharedNode;
let dir: string;
let task: string;
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);

beforeAll(async () => {
  process.env.NO_COLOR = '1';
  node = await sharedNode();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-taskspane-'));
  task = await startSlowDelete(node.url, INDEX);
  expect(task).toMatch(/^[\w-]+:\d+$/);
}, 180_000);

afterAll(() => {
  delete process.env.NO_COLOR;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

failOnConsoleError();

it('t rethrottles and x cancels the highlighted slow delete, each through the Guard', async () => {
  const auditFile = path.join(dir, 'audit.log');
  const client = createClient({ url: node.url });
  const api = createEsApi(client, node.url);
  const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'ui', auditFile });
  const services = createWizardServices(api, guard);
  const store = makeStore();
  // The pane's reads, answered by the node (the poller's own reads: es.data).
  for (const name of ['tasks', 'nodes'] as const)
    setSnapshot(store, name, { data: (await api.data(name)) as never, fetchedAt: Date.now(), failures: 0 });
  store.setState({ pane: 'tasks' });
  const ui = createUiStore();
  const app = await renderApp(store, { columns: 80, rows: 24, wizards: wizardsWith(['taskCancel', 'taskRethrottle'], services), ui });
  // The delete is highlighted through the table's filter (other tasks of the node may run longer).
  await app.press('/');
  await app.type(task);
  await app.press(KEYS.enter);
  await waitUntil(
    'the delete highlighted',
    () => ui.getState().selection.tasks?.task,
    (t) => t === task,
  );

  // Enter: the task whole, as the node lists it.
  await app.press(KEYS.enter);
  let f = await until(app, new RegExp(`task ${task} · indices:data/write/delete/byquery`));
  expect(f).toMatch(/deleted \d+ \/ \d+/); // 0 / 0 when read before its first batch
  await app.press(KEYS.enter);

  await app.press('t');
  await until(app, /new rate \(documents per second/);
  await app.type('3');
  await app.press(KEYS.enter);
  // The title holds the task's id (node id : number), so at 80 columns its end may be cut ("seco…").
  f = await until(app, /rethrottle delete task \S+ to 3 documents per/);
  expectFits(f);
  await app.press('y');
  // Issue 47 item 4: the change ends by saying what is now: the task at its new rate.
  f = await until(app, /now: running at 3 requests a second/);
  expectFits(f);
  await waitUntil(
    'the node runs the delete at 3/s',
    async () => (await es('GET', `/_tasks/${task}`)).body.task.status.requests_per_second as number,
    (rps) => rps === 3,
  );
  await app.press(' '); // any key closes a finished wizard

  await app.press('x');
  f = await until(app, new RegExp(`type its number ${taskNumber(task)} to cancel it`));
  expectFits(f);
  await app.press('y'); // typed text: not a yes
  await app.press(KEYS.enter);
  await until(app, /type the task's number \d+ exactly/);
  expect((await es('GET', `/_tasks/${task}`)).body.completed).toBe(false);
  await app.press(KEYS.backspace);
  await app.type(taskNumber(task));
  await app.press(KEYS.enter);
  // ... and a cancel, what the task did before it stopped (its deletes so far).
  expectFits(await until(app, /now: (cancelling|cancelled by request).*deleted/));
  const done = await waitUntil(
    'the delete ends cancelled',
    async () => (await es('GET', `/_tasks/${task}`)).body,
    (b) => b.completed === true,
  );
  expect(done.response.canceled).toMatch(/by user request/);
  expect(done.response.deleted).toBeLessThan(300);

  // Two requests, exactly that task each; the cancel confirmed by the id typed.
  const sent = readAudit(auditFile).records.filter((r) => r.request);
  expect(sent.map((r) => [r.request!.path, r.target, r.confirmedBy])).toEqual([
    [`/_delete_by_query/${encodeURIComponent(task)}/_rethrottle`, task, 'key'],
    [`/_tasks/${encodeURIComponent(task)}/_cancel`, task, 'typed'],
  ]);
  app.unmount();
}, 240_000);
