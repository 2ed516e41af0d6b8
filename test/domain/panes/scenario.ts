// A recorded scenario (test/fixtures/yellow, red, full: one real 8.19 node) parsed into the domain
// values the panes get, with the same parsers the poller uses.
import fs from 'node:fs';
import path from 'node:path';
import * as parse from '../../../src/domain/parse';

const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'fixtures');

function read(name: string, file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name, `${file}.json`), 'utf8'));
}

export function scenario(name: 'yellow' | 'red' | 'full') {
  return {
    health: parse.parseClusterHealth(read(name, 'health') as never),
    healthReport: parse.parseHealthReport(read(name, 'healthReport') as never),
    indices: parse.parseCatIndices(read(name, 'indices') as never),
    shards: parse.parseCatShards(read(name, 'shards') as never),
    allocation: parse.parseCatAllocation(read(name, 'allocation') as never),
    settings: parse.parseClusterSettings(read(name, 'settings') as never),
    blocks: parse.parseIndexBlocks(read(name, 'blocks') as never),
    nodes: parse.parseCatNodes(read(name, 'nodes') as never),
    nodeSearch: parse.parseNodeSearchStats(read(name, 'nodeSearch') as never),
  };
}
