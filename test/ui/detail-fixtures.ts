// The index detail as the console fills it: the real IndexDetailPoller (services/index-detail.ts)
// reads through the real facade (cluster/inspect.ts, over a client from cluster/connection.ts) from
// a small HTTP server on 127.0.0.1 that answers each request with the body recorded from a real node
// (test/fixtures/detail, dev/record-detail-fixtures.ts). Nothing of how the detail is assembled is
// rebuilt here: only the clock is set, so that ages and rates on screen are the same every run.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { vi } from 'vitest';
import { createClient, closeClient } from '../../src/cluster/connection';
import { inspectApi } from '../../src/cluster/inspect';
import type { IndexDetail } from '../../src/domain/inspect/index-detail';
import { IndexDetailPoller } from '../../src/services/index-detail';
import { createConsoleStore, type ConsoleStore } from '../../src/store/console';
import { openIndexDetail } from '../../src/store/index-detail';
import { waitUntil } from '../helpers/wait-until';

const DIR = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures', 'detail');

export function detailFixture(name: string): any {
  const text = fs.readFileSync(path.join(DIR, name), 'utf8');
  return name.endsWith('.json') ? JSON.parse(text) : text;
}

/** Serves the recorded answers of one index; `stats` names the stats file answered now. */
async function recordedNode(short: 'alpha' | 'wide') {
  const index = `service_v9_${short}`;
  const state = { stats: `${short}-stats-prev.json` };
  const fileFor = (method: string, p: string): string | undefined => {
    if (method === 'POST' && p === `/_index_template/_simulate_index/${index}`) return `${short}-simulate.json`;
    if (method !== 'GET') return undefined;
    if (p === '/_index_template') return 'templates.json';
    if (p === `/${index}/_settings`) return `${short}-settings.json`;
    if (p === `/${index}/_mapping`) return `${short}-mappings.json`;
    if (p === `/${index}/_alias`) return `${short}-aliases.json`;
    if (p.startsWith(`/${index}/_stats/`)) return state.stats;
    if (p === `/_cat/shards/${index}`) return `${short}-shards.json`;
    return undefined;
  };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const file = fileFor(req.method ?? '', (req.url ?? '').split('?')[0]);
      const body = file
        ? fs.readFileSync(path.join(DIR, file))
        : Buffer.from(JSON.stringify({ error: { type: 'test_unrecorded', reason: `${req.method} ${req.url}` }, status: 400 }));
      res.writeHead(file ? 200 : 400, {
        'content-type': 'application/json',
        'x-elastic-product': 'Elasticsearch',
        'content-length': body.length,
      });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { index, url, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * Opens the detail of a recorded index ('alpha' or 'wide') in `store` and lets the real poller fill
 * it: a first read of everything `gapMs` before `now - 1000`, then a second (the rates come from the
 * two stats reads). The poller is stopped before this returns; the detail stays in the store.
 */
export async function loadRecordedDetail(store: ConsoleStore, short: 'alpha' | 'wide', now: number, gapMs = 5000): Promise<IndexDetail> {
  const node = await recordedNode(short);
  const client = createClient({ url: node.url });
  // Paused: the poller's own timer reads nothing; the two reads below are the only ones.
  const wasPaused = store.getState().paused;
  store.setState({ paused: true });
  const poller = new IndexDetailPoller(inspectApi({ client, url: node.url }), store);
  const clock = vi.spyOn(Date, 'now');
  try {
    clock.mockReturnValue(now - 1000 - gapMs);
    openIndexDetail(store, node.index);
    poller.start();
    const slow = (d?: IndexDetail) => Boolean(d?.settings.data && d.mappings.data && d.template.data);
    const failed = (d?: IndexDetail) => [d?.settings, d?.mappings, d?.template, d?.stats, d?.shards].find((s) => s?.error)?.error;
    await waitUntil(
      'the detail opened read settings, mapping and template',
      () => store.getState().indexDetail,
      (d) => slow(d) || failed(d) !== undefined,
    );
    await poller.refreshNow();
    node.state.stats = `${short}-stats.json`;
    clock.mockReturnValue(now - 1000);
    await poller.refreshNow();
    const d = store.getState().indexDetail!;
    const error = failed(d);
    if (error) throw new Error(`the recorded detail of ${node.index} did not load: ${error.kind}: ${error.message}`);
    return d;
  } finally {
    poller.stop();
    clock.mockRestore();
    store.setState({ paused: wasPaused });
    await closeClient(client);
    await node.close();
  }
}

/** The detail alone, filled as above in a console store of its own. */
export function recordedDetail(short: 'alpha' | 'wide', now: number, gapMs = 5000): Promise<IndexDetail> {
  const store = createConsoleStore({ connection: { url: 'http://127.0.0.1:9200', profile: 'default', insecure: false, readOnly: false } });
  store.setState({ pane: 'indices' });
  return loadRecordedDetail(store, short, now, gapMs);
}
