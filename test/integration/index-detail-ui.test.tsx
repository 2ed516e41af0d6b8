// The index detail driven through the console (the UI harness: the real App on a fake terminal)
// against a real node: the real poller fills the Indices pane, Enter opens the detail, and the
// detail's own reads (services/index-detail.ts) go to the node only while it is open.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoData } from '../../dev/demo-data.mjs';
import { wideMapping, WIDE_SETTINGS } from '../../dev/wide-mapping.mjs';
import { createEsApi } from '../../src/cluster/api';
import { closeClient, createClient } from '../../src/cluster/connection';
import { Guard } from '../../src/services/guard';
import { IndexDetailPoller } from '../../src/services/index-detail';
import { createWizardServices } from '../../src/services/wizards';
import { Poller } from '../../src/services/poller';
import { createConsoleStore, type ConsoleStore } from '../../src/store/console';
import { KEYS, renderApp, type Rendered } from '../ui/harness';
import { waitUntil } from '../helpers/wait-until';
import { esCall } from '../helpers/real-node';
import { expectFits, plain, until } from '../helpers/wizard-ui';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let client: ReturnType<typeof createClient>;
let store: ConsoleStore;
let poller: Poller;
let detail: IndexDetailPoller;
let app: Rendered;

beforeAll(async () => {
  node = await sharedNode();
  await loadDemoData(node.url, { docsPerIndex: 300 });
  await esCall(node.url, 'PUT', '/service_v9_wide', { settings: WIDE_SETTINGS, mappings: wideMapping(2000) });
  await esCall(node.url, 'PUT', '/service_v9_doomed', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  client = createClient({ url: node.url });
  const es = createEsApi(client, node.url);
  store = createConsoleStore({
    connection: { url: node.url, profile: 'test', insecure: false, readOnly: false },
    intervalMs: 1000,
    pane: 'indices',
  });
  poller = new Poller(es, store);
  detail = new IndexDetailPoller(es, store);
  poller.start();
  detail.start();
  // The services the TUI gives its wizards and views: `v` opens the Documents view through them.
  const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'test' });
  app = await renderApp(store, { columns: 80, rows: 24, services: createWizardServices(es, guard) });
}, 300_000);

afterAll(async () => {
  app?.unmount();
  poller?.stop();
  detail?.stop();
  if (client) await closeClient(client);
});

/** The Indices pane's own title line: not the tab bar's "2 Indices", drawn over the detail too. */
const INDICES_PANE = /^Indices +\d+ of \d+/m;

/**
 * Presses Esc and waits until the screen shows what it leads to. A key pressed before the screen
 * changed goes to what the screen still shows (the detail, its search): each Esc waits for its own.
 */
async function escapeTo(shows: RegExp): Promise<string> {
  await app.press(KEYS.escape);
  return until(app, shows);
}

/** The Indices pane without a filter line under its title. */
const UNFILTERED = /^Indices +\d+ of \d+.*\n(?!filter: )/m;

/** Puts the Indices cursor on `index` (filter by its name) and presses Enter. */
async function open(index: string): Promise<string> {
  await until(app, new RegExp(index));
  await app.press('/');
  await app.type(index);
  await app.press(KEYS.enter);
  // The filter kept (its line no longer typing) before the Enter that opens the row.
  await until(app, new RegExp(`^filter: ${index} {2}\\(/ edit`, 'm'));
  await app.press(KEYS.enter);
  return until(app, new RegExp(`Index ${index}`));
}

describe('index detail on a real node', () => {
  it('Enter opens the detail: stats with rates between polls, settings (searchable), mappings, shards, template, curl', async () => {
    const first = await open('service_v9_alpha');
    expect(store.getState().indexDetail?.index).toBe('service_v9_alpha');
    expect(first).toContain('project: alpha (not signed in to the platform)');
    await until(app, /docs 300, deleted 0/);
    // Writes between two polls: the rate is computed from two stats reads.
    const docs =
      Array.from({ length: 500 }, (_, i) => `{"index":{}}\n{"modified_at":"2026-11-0${1 + (i % 9)}T00:00:00Z"}`).join('\n') + '\n';
    await fetch(`${node.url}/service_v9_alpha/_bulk?refresh=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: docs,
    });
    await until(app, /docs 800, deleted 0/);
    const rated = await until(app, /rates over the last \d+ s: indexing [1-9][\d.]*\/s/);
    expectFits(rated);

    await app.press(KEYS.tab);
    await until(app, /\[Settings\]/);
    await until(app, /index\.number_of_shards +6/);
    await app.press('/');
    await app.type('refresh_int');
    await app.press(KEYS.enter);
    const searched = await until(app, /index\.refresh_interval +1s {2}\(default\)/);
    expect(searched).not.toContain('index.number_of_shards');
    await escapeTo(/index\.number_of_shards/); // clears the search, stays in the detail

    await app.press(KEYS.tab);
    await until(app, /\[Mappings\][\s\S]*modified_at {2}date/);
    await app.press(KEYS.tab);
    await until(app, /\[Shards\][\s\S]*0 primary STARTED/);
    await app.press(KEYS.tab);
    const template = await until(app, /template service_v9 \(priority 100, patterns service_v9_\*\)/);
    expect(template).toContain('composed of: service_v9_mappings');
    expect(template).toContain('index.number_of_shards 6');
    await app.press('c');
    const curl = (await until(app, /curl -X POST/)).replace(/\n/g, '');
    expect(curl).toContain(`curl -X POST '${node.url}/_index_template/_simulate_index/service_v9_alpha'`);
    // v opens the index's documents over the detail; Esc comes back to the detail.
    await app.press('v');
    await until(app, /Documents of service_v9_alpha/);
    await escapeTo(/^Index service_v9_alpha/m);
  });

  it('Esc goes back to the Indices pane, and the detail is read no more', async () => {
    await escapeTo(INDICES_PANE);
    expect(store.getState().indexDetail).toBeUndefined();
    expect(plain(app.frame())).not.toContain('Index service_v9_alpha');
    const before = detail.stats.requests;
    // Two more reads of the Indices pane (the console's period, the detail's stats period too): an
    // open detail would have read its stats at least once meanwhile. Waits on the poller, not a clock.
    const indicesRead = () => store.getState().snapshots.indices.fetchedAt ?? 0;
    const from = indicesRead();
    const once = await waitUntil('the Indices pane read again', indicesRead, (t) => t > from);
    await waitUntil('the Indices pane read a second time', indicesRead, (t) => t > once);
    expect(detail.stats.requests).toBe(before);
  });

  it('a mapping of 2,000 fields: windowed to the screen, End reaches the last field, z folds every object, Enter unfolds one', async () => {
    await escapeTo(UNFILTERED); // the filter of the Indices pane
    await open('service_v9_wide');
    await app.press(KEYS.tab);
    await app.press(KEYS.tab);
    const tree = await until(app, /20\d\d fields; dynamic: strict/);
    expectFits(tree);
    // Fields come in ES's order (by name): the last screen holds raw_payload and title's multi-field.
    await app.press('G');
    const last = await until(app, /raw_payload {2}object {2}enabled: false[\s\S]*\+raw {2}keyword {2}\(ignore_above: 256\)/);
    expectFits(last);
    await app.press('z');
    const folded = await until(app, /▸ group00 {2}object {2}\(49 fields folded\)/);
    expect(folded).not.toMatch(/^ +f00 /m);
    await app.press(KEYS.down); // assoc:sources
    await app.press(KEYS.down); // attachments
    await app.press(KEYS.down); // group00
    await app.press(KEYS.enter);
    await until(app, /▾ group00 {2}object\n\s+f00/);
  });

  it('settings are read again every few intervals while the detail is open', async () => {
    await escapeTo(INDICES_PANE);
    await escapeTo(UNFILTERED);
    await open('service_v9_bravo');
    await app.press(KEYS.tab);
    await app.press('/');
    await app.type('refresh_int');
    await app.press(KEYS.enter);
    await until(app, /index\.refresh_interval +1s {2}\(default\)/);
    await esCall(node.url, 'PUT', '/service_v9_bravo/_settings', { index: { refresh_interval: '30s' } });
    await until(app, /^index\.refresh_interval +30s *$/m);
  });

  it('an index deleted while its detail is open: one sentence, the console keeps running', async () => {
    // The detail's search, the detail, then the Indices pane's filter.
    await escapeTo(/^index\.number_of_shards/m);
    await escapeTo(/^filter: service_v9_bravo /m);
    await escapeTo(UNFILTERED);
    await open('service_v9_doomed');
    await until(app, /docs 0, deleted 0/);
    await esCall(node.url, 'DELETE', '/service_v9_doomed');
    await until(app, /service_v9_doomed no longer exists: press Esc to go back/);
    await escapeTo(/^filter: service_v9_doomed /m);
    await escapeTo(UNFILTERED);
    await until(app, /service_v9_alpha/);
    expect(store.getState().indexDetail).toBeUndefined();
  });
});
