// Records the field-limit reads (cluster/indices.ts fieldCounts: GET /_mapping and GET
// /_settings/index.mapping.total_fields.limit, filtered the same way) from a real node with indices
// near their limit on purpose (dev/lib/sick-node.mjs nearFieldLimit): 19 fields of 20 (95%), 19 of
// 19 (full: the node refused the same mapping at 18, so it counts 19), an object with a multi-field
// and a runtime field (6 of 6), and one at the default limit. Into test/fixtures/field-limits/.
// Run: npx tsx dev/record-field-limits.ts [URL of a node to use instead of starting one]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from './lib/es-node.mjs';
import { nearFieldLimit } from './lib/sick-node.mjs';
import { FIELD_LIMIT_FILTER, FIELD_MAPPING_FILTER } from '../src/domain/inspect/field-limits';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = path.join(root, 'test/fixtures/field-limits');
const given = process.argv[2];
const node = given ? null : await startNode({ name: 'field-fixtures' });
const url = given ?? node!.url;
const put = (p: string, body: unknown) =>
  fetch(url + p, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
try {
  const made = [
    await nearFieldLimit(url, 'service_v9_near', { limit: 20, fields: 19 }),
    await nearFieldLimit(url, 'service_v9_full', { limit: 19, fields: 19 }),
    await nearFieldLimit(url, 'service_v9_refused', { limit: 18, fields: 19 }),
  ];
  process.stderr.write(`${JSON.stringify(made.map((m) => m.status))}\n`);
  await put('/service_v9_runtime', {
    settings: { number_of_shards: 1, number_of_replicas: 0, 'index.mapping.total_fields.limit': 6 },
    mappings: {
      properties: {
        a: { type: 'keyword' },
        b: { properties: { c: { type: 'long' }, d: { type: 'text', fields: { raw: { type: 'keyword' } } } } },
      },
      runtime: { r: { type: 'long' } },
    },
  });
  await put('/service_v9_plain', {
    settings: { number_of_shards: 1, number_of_replicas: 0 },
    mappings: { properties: { a: { type: 'keyword' } } },
  });
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, p, filter] of [
    ['mappings', '/_mapping', FIELD_MAPPING_FILTER],
    ['limits', '/_settings/index.mapping.total_fields.limit', FIELD_LIMIT_FILTER],
  ] as const) {
    const body = await (
      await fetch(`${url}${p}?${new URLSearchParams({ filter_path: filter, expand_wildcards: 'all' }).toString()}`)
    ).json();
    fs.writeFileSync(path.join(dir, `${file}.json`), JSON.stringify(body, null, 1) + '\n');
  }
  process.stderr.write(`recorded into ${dir}\n`);
} finally {
  await node?.stop();
}
