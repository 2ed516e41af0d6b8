// Hot spotting (Elastic's troubleshooting guide "Hot spotting"): a node with twice the average
// shards, indices on disk or write load of the data nodes takes more than its share of the work
// and fills first. Evidence: every node's figures and the averages. Pure.
import { formatBytes } from '../text/format';
import { displayText } from '../text/display-text';
import { HOT_FACTOR, hotText, type HotSpots } from '../nodes/hot-spots';
import type { Finding } from './finding';

const REMEDY =
  'see why the balancer keeps it so (shardeck balance): allocation filters or awareness left set (cluster.routing.allocation.exclude/require), index.routing.allocation.total_shards_per_node missing on the busy indices, a node newly added or just back; spread the busy indices over more nodes (more primary shards, total_shards_per_node), roll over or split large shards, and for a write hot spot check the routing keys of the clients';

export function hotSpotFindings(h: HotSpots): Finding[] {
  const avgWrite = h.average.writeLoad;
  const evidence = h.nodes.map(
    (n) =>
      `${displayText(n.node)}: ${n.shards} shards, indices ${formatBytes(n.diskUsedBytes)}, write load ${n.writeLoad === null ? '-' : n.writeLoad.toFixed(2)}`,
  );
  if (h.nodes.length < 2)
    return [{ id: 'hotspots.nodes', family: 'hotspots', severity: 'ok', finding: 'one data node: no hot spot to compare', evidence }];
  evidence.push(
    `average: ${h.average.shards.toFixed(1)} shards, indices ${formatBytes(h.average.diskUsedBytes)}, write load ${avgWrite === null ? '-' : avgWrite.toFixed(2)}`,
  );
  const hot = h.nodes.filter((n) => n.hot.length);
  if (!hot.length)
    return [
      {
        id: 'hotspots.nodes',
        family: 'hotspots',
        severity: 'ok',
        finding: `no node holds ${HOT_FACTOR}x the average shards, indices on disk or write load`,
        evidence,
      },
    ];
  return hot.map((n) => ({
    id: `hotspots.node.${n.node}`,
    family: 'hotspots',
    severity: 'warn',
    node: n.node,
    finding: `hot spot: ${displayText(n.node)} holds ${hotText(n, h.average)}`,
    evidence,
    remedy: REMEDY,
    fix: { pane: 'nodes', command: 'shardeck balance' },
  }));
}
