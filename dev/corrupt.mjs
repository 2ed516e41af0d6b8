// Makes a corrupt primary on a real test node, as Elasticsearch's own tests do: an index of one
// shard with two segments (docs, then `late` more documents), flushed; the index closed; +1 on a
// byte of the smaller segment's compound file header (its codec name); the index opened again,
// until it is red and Elasticsearch has given up allocating its primary. Opening reads the shard
// from its files as a node start does (the same CorruptIndexException, the same allocation
// explanation), without a restart: 2 s and no JVM start against 11 s and one (issue 28). For the
// corruption tests and the recovery screenshots.
import fs from 'node:fs';
import path from 'node:path';
import { es } from './demo-data.mjs';
import { waitUntil } from './lib/wait.mjs';

/**
 * Returns { folder (the shard folder), segmentDocs (documents in the broken segment), docs (all
 * documents indexed) }. `node` is { url, dataDir } (the node's data as this host reaches it).
 * `batches`: the documents of each segment, in order (default [docs, late]; the smallest one is
 * broken); `afterBatch(i)` runs once batch i is searchable (a snapshot between two batches);
 * `beforeCorrupting` runs once the data is flushed, before the index is closed.
 */
export async function corruptShard(
  node,
  index,
  { docs = 2000, late = 37, batches = [docs, late], afterBatch = async (i) => void i, beforeCorrupting = async () => {} } = {},
) {
  await es(node.url, 'PUT', `/${index}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  const bulk = (from, n) =>
    Array.from(
      { length: n },
      (_, i) => `{"index":{"_id":"doc-${from + i}"}}\n${JSON.stringify({ n: from + i, text: `document ${from + i} `.repeat(20) })}\n`,
    ).join('');
  let from = 0;
  for (const [i, n] of batches.entries()) {
    const r = await es(node.url, 'POST', `/${index}/_bulk?refresh=true`, bulk(from, n));
    if (r.errors) throw new Error(`bulk into ${index} failed`);
    from += n;
    await afterBatch(i);
  }
  await es(node.url, 'POST', `/${index}/_flush`);
  const segments = (await es(node.url, 'GET', `/${index}/_segments`)).indices[index].shards['0'][0].segments;
  const [name, seg] = Object.entries(segments).sort((a, b) => a[1].num_docs - b[1].num_docs)[0];
  if (Object.keys(segments).length < batches.length || !seg.compound)
    throw new Error(`${index}: expected ${batches.length} segments, the smallest one compound`);
  const uuid = (await es(node.url, 'GET', `/_cat/indices/${index}?h=uuid&format=json`))[0].uuid;
  const folder = path.join(node.dataDir, 'indices', uuid, '0');
  await beforeCorrupting();
  await es(node.url, 'POST', `/${index}/_close`);
  const file = path.join(folder, 'index', `${name}.cfs`);
  const bytes = fs.readFileSync(file);
  bytes[8] = (bytes[8] + 1) & 0xff;
  fs.writeFileSync(file, bytes);
  // No active shard to wait for: the primary fails to start from the broken file.
  await es(node.url, 'POST', `/${index}/_open?wait_for_active_shards=0`);
  // Red comes first, while Elasticsearch still retries the primary (INITIALIZING); what the
  // recovery works from is the settled state: the primary unassigned and no more retries.
  await waitUntil(
    `${index} to turn red with its primary unassigned for good after the corruption`,
    async () => {
      const health = (await es(node.url, 'GET', `/_cluster/health/${index}`)).status;
      const explain = await es(node.url, 'POST', '/_cluster/allocation/explain', { index, shard: 0, primary: true });
      return { health, state: explain.current_state, canAllocate: explain.can_allocate };
    },
    (s) => s.health === 'red' && s.state === 'unassigned' && s.canAllocate === 'no',
    { timeoutMs: 90_000, intervalMs: 500 },
  );
  return { folder, segmentDocs: seg.num_docs, docs: from };
}

/**
 * Until Elasticsearch has given up allocating the corrupt primary for the corruption's reason
 * (unassigned, can_allocate no or no_valid_shard_copy, CorruptIndexException in the explanation):
 * what detection is asked from. On a loaded machine the retries take a while.
 */
export async function untilAllocationGaveUp(url, index, timeoutMs = 120_000) {
  await waitUntil(
    `${index}: allocation to give up on the corruption`,
    () => es(url, 'POST', '/_cluster/allocation/explain', { index, shard: 0, primary: true }),
    (e) =>
      e.current_state === 'unassigned' &&
      ['no', 'no_valid_shard_copy'].includes(e.can_allocate) &&
      /CorruptIndexException|corrupt_index_exception/.test(JSON.stringify(e)),
    { timeoutMs, intervalMs: 500 },
  );
}
