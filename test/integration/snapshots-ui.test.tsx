// The Snapshots pane and its restore wizard in the console at 80x24 against a real node: a
// repository and a snapshot of 20 documents, 5 deleted since; the pane (filled by its own reads)
// shows the snapshot and which snapshots hold the index; R on it restores beside (logs-a-restored)
// through the real Guard, followed until green, and the wizard's counts are those of the node.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import { readAudit } from '../../src/services/audit';
import { Guard } from '../../src/services/guard';
import { createWizardServices } from '../../src/services/wizards';
import { Poller } from '../../src/services/poller';
import { createConsoleStore, setSnapshot, type ResourceName } from '../../src/store/console';
import { createUiStore } from '../../src/ui/state';
import { esCall } from '../helpers/real-node';
import { expectFits, plain, until, wizardsWith } from '../helpers/wizard-ui';
import { KEYS, makeStore, renderApp } from '../ui/harness';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { waitUntil } from '../helpers/wait-until';

let node: SharedNode;
let dir: string;
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const count = async (index: string) => (await es('GET', `/${index}/_count`)).body.count as number;

beforeAll(async () => {
  node = await sharedNode();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-snapui-'));
  await es('PUT', '/logs-a', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  const bulk = Array.from({ length: 20 }, (_, i) => `{"index":{"_id":"${i}"}}\n{"n":${i}}\n`).join('');
  const res = await fetch(`${node.url}/logs-a/_bulk?refresh=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson' },
    body: bulk,
  });
  expect(res.ok).toBe(true);
  expect((await es('PUT', '/_snapshot/backups', { type: 'fs', settings: { location: path.join(node.repoDir, 'backups') } })).status).toBe(
    200,
  );
  const snap = await es('PUT', '/_snapshot/backups/nightly-1?wait_for_completion=true', { indices: 'logs-a', include_global_state: false });
  expect(snap.body.snapshot.state).toBe('SUCCESS');
  await es('POST', '/logs-a/_delete_by_query?refresh=true', { query: { range: { n: { lt: 5 } } } });
  expect(await count('logs-a')).toBe(15);
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it('the pane shows the snapshot; R restores it beside, followed until green, counts as the node has them', async () => {
  const auditFile = path.join(dir, 'audit.log');
  const client = createClient({ url: node.url });
  const api = createEsApi(client, node.url);
  const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'ui', auditFile });
  const services = createWizardServices(api, guard, { pollMs: 200 });
  const store = makeStore();
  // The pane's reads, made as the poller makes them (cluster/resources.ts through the facade).
  const reads: ResourceName[] = ['health', 'indices', 'snapshotRepositories', 'snapshots', 'runningSnapshots', 'restores'];
  for (const name of reads) setSnapshot(store, name, { data: (await api.data(name)) as never, fetchedAt: Date.now(), failures: 0 });
  const ui = createUiStore();
  ui.setState((s) => ({ selection: { ...s.selection, indices: { index: 'logs-a' } } }));
  store.setState({ pane: 'snapshots' });
  const app = await renderApp(store, { columns: 80, rows: 24, wizards: wizardsWith(['restore'], services), ui });

  const pane = await until(app, /nightly-1/);
  expect(pane).toMatch(/repository: backups \(fs /);
  expect(pane).toMatch(/nightly-1\s+backups\s+SUCCESS\s+1\s+1\/0/);
  expect(pane).toContain('logs-a (Indices pane) is held by backups/nightly-1');
  expectFits(pane);

  await app.press('R');
  const form = await until(app, /from backups\/nightly-1/);
  expect(form).toMatch(/indices\s+logs-a/);
  expectFits(form);
  await app.press(KEYS.enter);
  const review = await until(app, /y send/);
  expect(review).toContain('logs-a -> logs-a-restored (original: 15 docs)');
  expectFits(review);
  expect(readAudit(auditFile).records).toEqual([]); // nothing sent before y

  await app.press('y');
  const done = await until(app, /restored indices green/, 60_000);
  expect(done).toContain('logs-a-restored: 20 docs (logs-a before: 15)');
  expectFits(done);
  expect(await count('logs-a-restored')).toBe(20);
  expect(await count('logs-a')).toBe(15); // beside: the original untouched
  const records = readAudit(auditFile).records;
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({
    request: { method: 'POST', path: '/_snapshot/backups/nightly-1/_restore', body: { indices: 'logs-a' } },
  });
  app.unmount();
});

it('issue 47 item 6: a snapshot taken in the console is on the Snapshots pane as it ends, not a poll period later', async () => {
  const client = createClient({ url: node.url });
  const api = createEsApi(client, node.url);
  const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'ui', auditFile: path.join(dir, 'audit-2.log') });
  const services = createWizardServices(api, guard, { pollMs: 200 });
  // A minute between polls: what the pane shows after the snapshot can only come from the refresh its end asks for.
  const store = createConsoleStore({ connection: { url: node.url, profile: 'ui', insecure: false, readOnly: false }, intervalMs: 60_000 });
  store.setState({ pane: 'snapshots' });
  const poller = new Poller(api, store);
  const app = await renderApp(store, { columns: 80, rows: 24, wizards: wizardsWith(['snapshot'], services), poller, clock: Date.now });
  poller.start();
  try {
    await until(app, /nightly-1/);
    const before = store.getState().snapshots.snapshots.data?.length ?? 0;
    await app.press('S');
    await until(app, /partial ok/);
    await app.press(KEYS.tab);
    await app.press(KEYS.tab);
    await app.type('logs-a');
    await app.press(KEYS.enter);
    await until(app, /y take it/);
    await app.press('y');
    await until(app, /SUCCESS/, 60_000);
    const ended = Date.now();
    await waitUntil('the new snapshot on the pane', () => (store.getState().snapshots.snapshots.data?.length ?? 0) > before, Boolean, {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
    expect(Date.now() - ended).toBeLessThan(10_000);
  } finally {
    poller.stop();
    app.unmount();
    await client.close();
  }
});

it('issue 47 item 2: a refused snapshot form comes back as typed, the reason under its field, and goes on once fixed', async () => {
  const client = createClient({ url: node.url });
  const api = createEsApi(client, node.url);
  const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'ui', auditFile: path.join(dir, 'audit-3.log') });
  const services = createWizardServices(api, guard, { pollMs: 200 });
  const store = makeStore();
  for (const name of ['health', 'indices', 'snapshotRepositories', 'snapshots'] as ResourceName[])
    setSnapshot(store, name, { data: (await api.data(name)) as never, fetchedAt: Date.now(), failures: 0 });
  store.setState({ pane: 'snapshots' });
  const app = await renderApp(store, { columns: 80, rows: 23, wizards: wizardsWith(['snapshot'], services) });
  try {
    await until(app, /nightly-1/);
    await app.press('S');
    await until(app, /partial ok/);
    await app.press(KEYS.tab);
    await app.type('X'); // the name: upper case is refused by Elasticsearch
    await app.press(KEYS.tab);
    await app.type('logs-a');
    await app.press(KEYS.enter);
    let f = await until(app, /must be lower case/);
    expectFits(f);
    // The form again, with what was typed, the reason right under the name.
    const lines = plain(f).split('\n');
    const nameLine = lines.findIndex((l) => /name\s+shardeck-.*X/.test(l));
    expect(nameLine).toBeGreaterThan(-1);
    expect(lines[nameLine + 1]).toMatch(/a snapshot name must be lower case/);
    expect(f).toMatch(/indices\s+logs-a/);
    await app.press(KEYS.backspace);
    await app.press(KEYS.enter);
    f = await until(app, /y take it/);
    expect(f).toContain('"indices":"logs-a"');
    expect(readAudit(path.join(dir, 'audit-3.log')).records).toEqual([]); // nothing was sent
  } finally {
    app.unmount();
    await client.close();
  }
});
