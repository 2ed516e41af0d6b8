// The Documents view in the console at 80x24 against a real node: v on the selected index -> an
// id looked up and shown as JSON (folded and unfolded, the curl line on c) -> a search with the
// seed's inclusive until (the boundary document among the hits) -> a typed JSON body checked
// before it is sent (line and column) -> an unmapped field refused -> Esc back to the pane.
// Read-only mode does not take the view away: it only reads.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import type { IndexRow } from '../../src/domain/types';
import { Guard } from '../../src/services/guard';
import { createWizardServices } from '../../src/services/wizards';
import { setSnapshot } from '../../src/store/console';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';
import { esCall } from '../helpers/real-node';
import { expectFits, plain, until } from '../helpers/wizard-ui';
import { failOnConsoleError, KEYS, makeStore, renderApp, type Rendered } from '../ui/harness';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const INDEX = 'service_v9_docsui';
const BOUNDARY = '2025-03-01T12:00:00.000Z';
let node: SharedNode;
let proxy: CountingProxy;

failOnConsoleError();

beforeAll(async () => {
  node = await sharedNode();
  await loadDemoData(node.url, { docsPerIndex: 500, indices: [INDEX], yellowIndex: '' });
  await esCall(node.url, 'PUT', `/${INDEX}/_doc/at-boundary?refresh=true`, {
    title: 'at the boundary',
    modified_at: BOUNDARY,
    'assoc:sources': ['src-edge'],
    nested: { a: { b: [1, 2, 3] } },
  });
  proxy = await startCountingProxy(node.url);
}, 300_000);

afterAll(async () => {
  await proxy?.close();
});

async function openConsole(readOnly: boolean): Promise<Rendered> {
  const client = createClient({ url: proxy.url });
  const guard = new Guard({ client, conn: { url: proxy.url, readOnly }, profile: 'ui' });
  const services = createWizardServices(createEsApi(client, proxy.url), guard);
  const store = makeStore({ readOnly });
  const row: IndexRow = {
    name: INDEX,
    health: 'green',
    status: 'open',
    primaries: 6,
    replicas: 0,
    docsCount: 501,
    docsDeleted: 0,
    storeBytes: 1,
    priStoreBytes: 1,
    system: false,
  };
  setSnapshot(store, 'indices', { data: [row], fetchedAt: Date.now(), failures: 0 });
  store.setState({ pane: 'indices' });
  const app = await renderApp(store, { columns: 80, rows: 24, services });
  await until(app, new RegExp(INDEX));
  return app;
}

it('looks a document up by id, folds its JSON, shows the curl line, searches until a timestamp, refuses bad bodies, and goes back', async () => {
  const app = await openConsole(true);
  await app.press('v');
  let f = await until(app, /Documents of service_v9_docsui/);
  expect(f).toContain('< document id >');
  expectFits(f);

  await app.type('at-boundary');
  await app.press(KEYS.enter);
  f = await until(app, /"title": "at the boundary"/);
  expect(f).toContain('service_v9_docsui / at-boundary: found');
  expect(f).toMatch(/"nested": \{/);
  expectFits(f);
  // The cursor to "nested" (the JSON starts at the top of the body, cursor on its first line), then fold it.
  await app.press('g');
  const rows = plain(app.frame()).split('\n');
  const first = rows.findIndex((l) => l === '{');
  const nested = rows.findIndex((l) => /^\s*"nested": \{$/.test(l));
  expect(first).toBeGreaterThan(0);
  for (let i = first; i < nested; i++) await app.press(KEYS.down);
  await until(app, new RegExp(`^${nested - first + 1}/\\d+ `, 'm'));
  await app.press(KEYS.enter);
  f = await until(app, /"nested": \{…\} 1 key/);
  const all = Number(/^\d+\/(\d+) /m.exec(plain(app.frame()))![1]);
  expect(f).toMatch(new RegExp(`^${nested - first + 1}/${all} `, 'm'));
  await app.press(KEYS.enter);
  // Unfolded: "a", "b", its three numbers and the three closing lines are back.
  await until(app, new RegExp(`^${nested - first + 1}/${all + 8} `, 'm'));
  await app.press('z');
  await until(app, /"_source": \{…\} 4 keys/);
  await app.press('Z');
  await until(app, /"at the boundary"/);
  await app.press('c');
  f = await until(app, /curl -X GET/);
  expect(f.replace(/\n/g, '')).toContain(`curl -X GET '${proxy.url}/service_v9_docsui/_doc/at-boundary'`);
  expectFits(f);

  // Back to the query line; Tab to "up to and including"; the boundary is among the hits.
  await app.press(KEYS.escape);
  await until(app, /< document id > at-boundary_/);
  for (let i = 0; i < 11; i++) await app.press(KEYS.backspace);
  await app.press(KEYS.tab);
  await app.press(KEYS.tab);
  await until(app, /< modified_at up to and including >/);
  await app.type(BOUNDARY);
  proxy.reset();
  await app.press(KEYS.enter);
  const total = (await esCall(node.url, 'POST', `/${INDEX}/_count`, { query: { range: { modified_at: { lte: BOUNDARY } } } })).body
    .count as number;
  f = await until(app, new RegExp(`modified_at up to and including ${BOUNDARY.replace(/\./g, '\\.')}: 1-\\d+ of ${total}`));
  expect(f).toMatch(/_id\s+modified_at\s+assoc:sources\s+fields/);
  expectFits(f);
  expect(proxy.requests.filter((r) => r.path.includes('_search'))).toHaveLength(1);
  // The last hit is the boundary document (oldest first); End reaches it, Enter opens it.
  await app.press('G');
  await until(app, /at-boundary\s+2025-03-01T12:00:00\.000Z\s+src-edge/);
  await app.press(KEYS.enter);
  await until(app, /"_id": "at-boundary"/);
  await app.press(KEYS.escape);
  await until(app, /_id\s+modified_at/);

  // A typed body: invalid JSON is refused with line and column, nothing sent.
  await app.press('f');
  for (let i = 0; i < 30; i++) await app.press(KEYS.backspace);
  await app.press(KEYS.tab);
  await app.press(KEYS.tab);
  await until(app, /< JSON body >/);
  proxy.reset();
  await app.type('{"query": {"term": }}');
  await app.press(KEYS.enter);
  f = await until(app, /not valid JSON at line 1, column 20/);
  expectFits(f);
  for (let i = 0; i < 3; i++) await app.press(KEYS.backspace);
  await app.type('{"assoc:source": "src-edge"}}}');
  await app.press(KEYS.enter);
  await until(app, /"assoc:source", which the mapping/);
  expect(proxy.requests.filter((r) => r.path.includes('_search'))).toEqual([]);
  const body = '{"query": {"term": {"assoc:sources": "src-edge"}}}';
  for (let i = 0; i < 60; i++) await app.press(KEYS.backspace);
  await app.type(body);
  await until(app, /"src-edge"\}\}\}_/);
  await app.press(KEYS.enter);
  f = await until(app, /the query of the typed body: 1-1 of 1/);
  expect(f).toMatch(/at-boundary/);

  // Esc, as the help says (issue 47 item 8): hits -> the query line, the body as typed -> the pane.
  await app.press(KEYS.escape);
  await until(app, /"src-edge"\}\}\}_/);
  await app.press(KEYS.escape);
  // The Indices pane's title line (the tab bar's "2 Indices" is drawn over the view too).
  f = await until(app, /^Indices +\d+ of \d+/m);
  expect(f).not.toContain('Documents of');
  // Nothing this view did changed anything.
  expect(proxy.changing()).toEqual([]);
  app.unmount();
}, 120_000);
