// A recorded answer (test/fixtures/<scenario>/<resource>.json, dev/record-fixtures.ts) parsed as the
// poller parses it: a big table (a resource with a rowsParser) goes through the streaming decoder and
// its row parser (cluster/connection.ts rowsFrom, what readRows runs), cut into small chunks and
// slices so the decoder's joins are exercised; anything else through the resource's own parser.
import fs from 'node:fs';
import path from 'node:path';
import { rowsFrom } from '../../src/cluster/connection';
import { RESOURCES, type ResourceData } from '../../src/cluster/resources';
import type { ResourceName } from '../../src/store/console';

/** test/fixtures of the repository this module is in: found upwards, as the benchmarks run it bundled from bench/out/. */
export const FIXTURES = ((): string => {
  for (let dir = path.dirname(new URL(import.meta.url).pathname); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'test', 'fixtures');
    if (fs.existsSync(candidate)) return candidate;
    if (dir === path.dirname(dir)) throw new Error(`no test/fixtures above ${import.meta.url}`);
  }
})();

/** Bytes per chunk and characters per slice: small, and prime, so cuts fall anywhere in a row. */
const CHUNK_BYTES = 97;
const SLICE_CHARS = 509;

export function parsedAsPolled<K extends ResourceName>(scenario: string, name: K): ResourceData<K> {
  const raw = fs.readFileSync(path.join(FIXTURES, scenario, `${name}.json`));
  const r = RESOURCES[name];
  if (r.rowsParser) {
    const chunks: Buffer[] = [];
    for (let at = 0; at < raw.length; at += CHUNK_BYTES) chunks.push(raw.subarray(at, at + CHUNK_BYTES));
    return rowsFrom<ResourceData<K>>(r.rowsParser() as never, chunks, SLICE_CHARS);
  }
  const alongside =
    'alongside' in r ? JSON.parse(fs.readFileSync(path.join(FIXTURES, scenario, `${name}.alongside.json`), 'utf8')) : undefined;
  return r.parse(JSON.parse(raw.toString('utf8')) as never, undefined, alongside as never) as ResourceData<K>;
}
