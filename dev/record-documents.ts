// Records the reads of the Documents view from a real node into test/fixtures/documents/ (what
// the snapshot tests and the benchmark feed the view): a document by id, a page of 100 hits of the
// seed's source query, and the facts a search is checked against. Run against a node with the demo
// data: npx tsx dev/record-documents.ts http://127.0.0.1:9200 [service_v9_alpha]
import fs from 'node:fs';
import path from 'node:path';
import { createClient } from '../src/cluster/connection';
import { createEsApi } from '../src/cluster/api';

const [url, index = 'service_v9_alpha'] = process.argv.slice(2);
if (!url) throw new Error('usage: npx tsx dev/record-documents.ts URL [INDEX]');
const es = createEsApi(createClient({ url }), url);
const out = path.resolve('test/fixtures/documents');
fs.mkdirSync(out, { recursive: true });
const write = (name: string, value: unknown) => fs.writeFileSync(path.join(out, `${name}.json`), JSON.stringify(value, null, 2) + '\n');
const doc = await es.getDocument(index, `${index}-1`);
if (!doc.found) throw new Error(`${index}-1 not found`);
write('doc', doc.doc);
const page = await es.searchDocuments(index, { term: { 'assoc:sources': 'src-crm' } }, 100, 0);
write('search', { total: page.total, hits: page.hits });
console.log(`recorded ${index}: 1 document, ${page.hits.length} of ${page.total.value} hits`);
