// Makes a node sick on purpose, the way Elastic's troubleshooting guides describe the symptoms: a
// write pool of one thread with a queue of one (node settings, given at start) flooded with bulk
// requests gives rejections; a request breaker limit lowered dynamically (and set back) trips the
// request breaker on an aggregation; a delete-by-query throttled to one document a second is a
// long task to list, rethrottle and cancel. Used by dev/record-pressure.ts (fixtures) and the real-node
// test of the pressure fields of the statistics read (test/integration/node-pressure.test.ts).

/** Node settings (startNode's `settings`) for a write pool that rejects under a small flood. */
export const SICK_WRITE_POOL = { 'thread_pool.write.size': '1', 'thread_pool.write.queue_size': '1' };

/**
 * `index` (1 shard, or one a slice; no replica) with `docs` documents, then a delete-by-query of all
 * of them at one document a second, not waited for (10 a batch: the first batch is done within
 * seconds); `slices` makes it a parent with that many children. Returns the task id
 * (`node:number`); the caller cancels it or drops the index.
 * @param {string} url
 * @param {string} index
 * @param {{ docs?: number, slices?: number }} [opts]
 */
export async function startSlowDelete(url, index, { docs = 300, slices } = {}) {
  await ok(url, 'PUT', `/${index}`, { settings: { number_of_shards: slices ?? 1, number_of_replicas: 0 } });
  const lines = [];
  for (let i = 0; i < docs; i++) lines.push(JSON.stringify({ index: {} }), JSON.stringify({ n: i }));
  await ok(url, 'POST', `/${index}/_bulk?refresh=true`, lines.join('\n') + '\n');
  const started = await ok(
    url,
    'POST',
    `/${index}/_delete_by_query?${slices ? `slices=${slices}&` : ''}requests_per_second=1&wait_for_completion=false&scroll_size=10`,
    {
      query: { match_all: {} },
    },
  );
  return started.task;
}

async function ok(url, method, path, body) {
  const r = await call(url, method, path, body);
  if (r.status >= 300 || r.body.errors) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

async function call(url, method, path, body) {
  const res = await fetch(url + path, {
    method,
    headers: { 'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/**
 * `requests` bulk requests of `docs` documents each, all at once, into `index` (made with 2
 * shards). Returns how many requests and items the node rejected (429 / es_rejected_execution_exception).
 */
export async function floodWrites(url, index, { requests = 30, docs = 50 } = {}) {
  await call(url, 'PUT', `/${index}`, { settings: { number_of_shards: 2, number_of_replicas: 0 } });
  const lines = [];
  for (let i = 0; i < docs; i++) lines.push(JSON.stringify({ index: {} }), JSON.stringify({ n: i, text: `doc ${i}` }));
  const body = lines.join('\n') + '\n';
  const answers = await Promise.all(Array.from({ length: requests }, () => call(url, 'POST', `/${index}/_bulk`, body)));
  let rejectedRequests = 0;
  let rejectedItems = 0;
  for (const a of answers) {
    if (a.status === 429) rejectedRequests++;
    for (const item of a.body.items ?? []) if (item.index?.status === 429) rejectedItems++;
  }
  return { rejectedRequests, rejectedItems };
}

/**
 * Lowers indices.breaker.request.limit to 1kb, runs a terms aggregation on `index` (the breaker
 * trips: 429 circuit_breaking_exception), and sets the limit back (null) whatever happened.
 * Returns the search's status and error type.
 */
export async function tripRequestBreaker(url, index) {
  const set = await call(url, 'PUT', '/_cluster/settings', { persistent: { 'indices.breaker.request.limit': '1kb' } });
  if (set.status !== 200) throw new Error(`setting the request breaker limit: ${set.status} ${JSON.stringify(set.body).slice(0, 300)}`);
  try {
    const search = await call(url, 'POST', `/${index}/_search?size=0`, { aggs: { n: { terms: { field: 'n', size: 1000 } } } });
    return { status: search.status, type: search.body.error?.type ?? null };
  } finally {
    await call(url, 'PUT', '/_cluster/settings', { persistent: { 'indices.breaker.request.limit': null } });
  }
}

/**
 * Sends `count` index creations (1 shard, 0 replicas) at once: each is a cluster-state update the
 * master queues, so `_cluster/pending_tasks` fills while they run. `read` is called again and
 * again meanwhile; the answer with the most tasks is returned (with how many indices were made).
 * The indices are deleted afterwards (by their exact names, a few at a time).
 */
export async function queueIndexCreations(url, prefix, { count = 200, read }) {
  const names = Array.from({ length: count }, (_, i) => `${prefix}_${i}`);
  let done = false;
  let most = null;
  const watching = (async () => {
    while (!done) {
      const body = await read();
      if ((body.tasks?.length ?? 0) > (most?.tasks?.length ?? 0)) most = body;
    }
  })();
  const answers = await Promise.all(
    names.map((n) => call(url, 'PUT', `/${n}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } })),
  );
  done = true;
  await watching;
  for (let i = 0; i < names.length; i += 50) await call(url, 'DELETE', `/${names.slice(i, i + 50).join(',')}?ignore_unavailable=true`);
  return { created: answers.filter((a) => a.status === 200).length, most };
}

/**
 * An index near its field limit (Elastic's "mapping explosion"): index.mapping.total_fields.limit
 * `limit`, and `fields` mapped fields (an object `attrs` holding fields-2 keyword fields, as data
 * with its keys as field names makes, and a text field with a keyword multi-field counts 2 more).
 * Returns the node's answer to the creation.
 */
export async function nearFieldLimit(url, index, { limit = 20, fields = 19 } = {}) {
  const attrs = Object.fromEntries(Array.from({ length: fields - 3 }, (_, i) => [`k${i}`, { type: 'keyword' }]));
  return call(url, 'PUT', `/${index}`, {
    settings: { number_of_shards: 1, number_of_replicas: 0, 'index.mapping.total_fields.limit': limit },
    mappings: { properties: { attrs: { properties: attrs }, title: { type: 'text', fields: { raw: { type: 'keyword' } } } } },
  });
}
