// A recorded scenario (test/fixtures/yellow, red, full: one real 8.19 node) parsed into the domain
// values the panes get, as the poller parses them (test/helpers/recorded.ts: the resource table of
// src/cluster/resources.ts, the big tables through the streaming row parser).
import type { ResourceData } from '../../../src/cluster/resources';
import { parsedAsPolled } from '../../helpers/recorded';

/** The resources recorded per scenario (each fixture file is named after its resource). */
const RECORDED = ['health', 'healthReport', 'indices', 'shards', 'allocation', 'settings', 'blocks', 'nodes', 'nodeStats'] as const;
type Recorded = (typeof RECORDED)[number];

export function scenario(name: 'yellow' | 'red' | 'full'): { [K in Recorded]: ResourceData<K> } {
  return Object.fromEntries(RECORDED.map((r) => [r, parsedAsPolled(name, r)])) as { [K in Recorded]: ResourceData<K> };
}
