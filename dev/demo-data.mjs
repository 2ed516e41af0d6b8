// Demo data shaped like the platform's: one index per project, service_v9_<lowercase project id>,
// documents with modified_at and assoc:sources, an index template composed of component templates
// (6 shards / 0 replicas, the seed's defaults), and one index with a replica so a single node is
// yellow, as operators meet it in the field.

/** Projects of the demo tenant. The reference platform server serves the same list. */
export const DEMO_PROJECTS = [
  { id: 'Alpha', name: 'Alpha Logistics' },
  { id: 'Bravo', name: 'Bravo Retail' },
  { id: 'Orders', name: 'Order Intake' },
  { id: 'Kb', name: 'Knowledge Base' },
  // A project without an index (shardeck flags it).
  { id: 'Sandbox', name: 'Sandbox (no index yet)' },
];

/** Indices created: the projects' (but Sandbox) and one orphan that no project claims. */
export const DEMO_INDICES = ['service_v9_alpha', 'service_v9_bravo', 'service_v9_orders', 'service_v9_kb', 'service_v9_legacy'];
export const DEMO_YELLOW_INDEX = 'service_v9_orders';
export const DEMO_SOURCES = ['src-crm', 'src-erp', 'src-mail', 'src-wiki', 'src-ftp', 'src-sharepoint'];

/** One request to a node for dev scripts (demo data, the benchmark); throws on an error status. */
export async function es(url, method, path, body, headers = {}) {
  const res = await fetch(url + path, {
    method,
    headers: { 'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : {};
}

/** A deterministic pseudo-random generator, so the demo (and tests built on it) are reproducible. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The document `i` of an index: modified_at spread over two years before `now`, 1-2 sources. */
export function demoDoc(index, i, now = Date.UTC(2026, 10, 1)) {
  const r = rng(i * 7919 + index.length * 104729);
  const ageDays = Math.floor(r() * 730);
  const sources = [DEMO_SOURCES[Math.floor(r() * DEMO_SOURCES.length)]];
  if (r() < 0.25) sources.push(DEMO_SOURCES[Math.floor(r() * DEMO_SOURCES.length)]);
  return {
    title: `${index.replace('service_v9_', '')} item ${i}`,
    modified_at: new Date(now - ageDays * 86_400_000 - Math.floor(r() * 86_400_000)).toISOString(),
    'assoc:sources': [...new Set(sources)],
    size_bytes: Math.floor(r() * 2_000_000),
  };
}

export async function loadDemoData(url, { docsPerIndex = 3000, indices = DEMO_INDICES, yellowIndex = DEMO_YELLOW_INDEX } = {}) {
  await es(url, 'PUT', '/_component_template/service_v9_mappings', {
    template: {
      mappings: {
        properties: {
          title: { type: 'text' },
          modified_at: { type: 'date' },
          'assoc:sources': { type: 'keyword' },
          size_bytes: { type: 'long' },
        },
      },
    },
  });
  await es(url, 'PUT', '/_index_template/service_v9', {
    index_patterns: ['service_v9_*'],
    composed_of: ['service_v9_mappings'],
    template: { settings: { number_of_shards: 6, number_of_replicas: 0 } },
    priority: 100,
  });
  for (const index of indices) {
    const exists = await fetch(`${url}/${index}`, { method: 'HEAD' });
    if (exists.status === 200) continue;
    await es(url, 'PUT', `/${index}`, {});
    for (let start = 0; start < docsPerIndex; start += 1000) {
      const lines = [];
      for (let i = start; i < Math.min(docsPerIndex, start + 1000); i++) {
        lines.push(JSON.stringify({ index: { _index: index, _id: `${index}-${i}` } }), JSON.stringify(demoDoc(index, i)));
      }
      const res = await es(url, 'POST', '/_bulk', lines.join('\n') + '\n');
      if (res.errors) throw new Error(`bulk into ${index} reported errors`);
    }
  }
  if (yellowIndex && indices.includes(yellowIndex)) {
    await es(url, 'PUT', `/${yellowIndex}/_settings`, { index: { number_of_replicas: 1 } });
  }
  // A hidden dot index, hidden in the Indices pane until the operator toggles system indices.
  const dot = await fetch(`${url}/.shardeck-demo-internal`, { method: 'HEAD' });
  if (dot.status !== 200)
    await es(url, 'PUT', '/.shardeck-demo-internal', { settings: { 'index.hidden': true, number_of_shards: 1, number_of_replicas: 0 } });
  // The indices it filled, by name: a refresh of every index waits 60 s for a primary that is
  // unassigned (a corrupt shard made before, as in read-only.test.ts), then answers 200.
  if (indices.length) await es(url, 'POST', `/${indices.join(',')}/_refresh`, undefined);
  return { indices, docsPerIndex, yellowIndex };
}
