// Issue 47 item 5, on a real 8.19 node with a .tasks system index (made by an async by-query):
// every read a pane polls, and the doctor's field-limit read, is answered without the node's
// "this request accesses system indices" warning (the doctor and `deprecations` used to report
// shardeck's own reads), and every request carries X-Opaque-Id naming shardeck (seen on the
// node's own task list).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RESOURCES } from '../../src/cluster/resources';
import { createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import { OPAQUE_ID, type EsClient } from '../../src/cluster/transport';
import { esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { waitUntil } from '../helpers/wait-until';

let node: SharedNode;
let client: EsClient;

beforeAll(async () => {
  node = await sharedNode();
  client = createClient({ url: node.url });
  await esCall(node.url, 'PUT', '/service_v9_trace/_doc/1?refresh=true', { a: 1 });
  await esCall(node.url, 'POST', '/service_v9_trace/_delete_by_query?wait_for_completion=false&refresh=true', { query: { match_all: {} } });
  await waitUntil(
    'the .tasks index',
    async () => (await esCall(node.url, 'GET', '/_cat/indices/.tasks?format=json&expand_wildcards=all')).status,
    (s) => s === 200,
    { timeoutMs: 30_000, intervalMs: 300 },
  );
});

afterAll(async () => {
  await client?.close();
});

it('no polled read, and not the doctor field-limit read, touches a system index', async () => {
  const warned: string[] = [];
  for (const [name, r] of Object.entries(RESOURCES)) {
    const req = (r as { request: { method: string; path: string; querystring?: Record<string, string> } }).request;
    const res = await client.transport
      .request({ method: req.method, path: req.path, querystring: req.querystring }, { meta: true, ignore: [400, 404, 405] })
      .catch(() => null);
    for (const w of (res as { warnings?: string[] | null } | null)?.warnings ?? [])
      if (/system indices/.test(w)) warned.push(`${name}: ${w}`);
  }
  expect(warned).toEqual([]);
  // The doctor's field counts read every index's mappings and settings.
  const es = createEsApi(client, node.url);
  const counts = await es.fieldCounts();
  expect(counts.map((c) => c.index)).toContain('service_v9_trace');
  expect(counts.map((c) => c.index)).not.toContain('.tasks');
});

it('every request names shardeck in X-Opaque-Id', async () => {
  const r = (await client.transport.request({
    method: 'GET',
    path: '/_tasks',
    querystring: { actions: 'cluster:monitor/tasks/lists*', detailed: 'true' },
  })) as { nodes: Record<string, { tasks: Record<string, { headers?: Record<string, string> }> }> };
  const headers = Object.values(r.nodes).flatMap((n) => Object.values(n.tasks).map((t) => t.headers ?? {}));
  expect(headers.some((h) => h['X-Opaque-Id'] === OPAQUE_ID)).toBe(true);
  expect(OPAQUE_ID).toMatch(/^shardeck\//);
});
