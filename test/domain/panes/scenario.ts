// A recorded scenario (test/fixtures/yellow, red, full: one real 8.19 node) parsed into the domain
// values the panes get, by the poller's own resource -> parser table (src/cluster/resources.ts).
import fs from 'node:fs';
import path from 'node:path';
import { RESOURCES, type ResourceData } from '../../../src/cluster/resources';

const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'fixtures');
/** The resources recorded per scenario (each fixture file is named after its resource). */
const RECORDED = ['health', 'healthReport', 'indices', 'shards', 'allocation', 'settings', 'blocks', 'nodes', 'nodeSearch'] as const;
type Recorded = (typeof RECORDED)[number];

function read(name: string, file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name, `${file}.json`), 'utf8'));
}

export function scenario(name: 'yellow' | 'red' | 'full'): { [K in Recorded]: ResourceData<K> } {
  return Object.fromEntries(RECORDED.map((r) => [r, RESOURCES[r].parse(read(name, r))])) as { [K in Recorded]: ResourceData<K> };
}
