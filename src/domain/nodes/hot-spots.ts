// Hot spots (Elastic's troubleshooting guide "Hot spotting"): one node holding an outsized share of
// the shards, the disk or the writes. Per data node its shard count and disk used (_cat/allocation)
// and its write load (indices.indexing.write_load of _nodes/stats, 8.6+); a node at HOT_FACTOR
// times the average of the nodes is marked. Pure.
import { formatBytes, formatCount, type Tone } from '../text/format';
import { displayText } from '../text/display-text';
import { fitText } from '../text/table';
import type { NodeDisk } from '../types';
import type { NodePressure } from './node-pressure';

/** A node with this many times the average (of every data node) is a hot spot. */
export const HOT_FACTOR = 2;
/** Below these averages a ratio says nothing (3 shards against 1, a few KB, an idle cluster). */
const MIN_AVG = { shards: 5, disk: 1024 ** 3, write: 0.05 } as const;

export type HotMeasure = 'shards' | 'disk' | 'write';

export interface NodeLoad {
  node: string;
  shards: number;
  diskUsedBytes: number;
  /** null when the node does not report it (before 8.6) or the statistics read has not answered. */
  writeLoad: number | null;
  /** The measures where this node is at HOT_FACTOR times the average or more. */
  hot: HotMeasure[];
}

export interface HotSpots {
  nodes: NodeLoad[];
  average: { shards: number; diskUsedBytes: number; writeLoad: number | null };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/**
 * Every data node of _cat/allocation (parseCatAllocation leaves the UNASSIGNED row out), its write
 * load from the statistics read when it answered. Fewer than 2 nodes: nothing is compared.
 */
export function hotSpots(allocation: readonly NodeDisk[], pressure?: readonly NodePressure[]): HotSpots {
  const loads = allocation.map((d) => ({
    node: d.node,
    shards: d.shards,
    diskUsedBytes: d.indicesBytes,
    writeLoad: pressure?.find((p) => p.name === d.node)?.writeLoad ?? null,
  }));
  const writes = loads.map((l) => l.writeLoad).filter((w): w is number => w !== null);
  const average = {
    shards: mean(loads.map((l) => l.shards)),
    diskUsedBytes: mean(loads.map((l) => l.diskUsedBytes)),
    writeLoad: writes.length === loads.length && writes.length ? mean(writes) : null,
  };
  const hot = (v: number | null, avg: number | null, min: number) =>
    loads.length >= 2 && v !== null && avg !== null && avg >= min && v >= HOT_FACTOR * avg;
  return {
    average,
    nodes: loads.map((l) => ({
      ...l,
      hot: [
        ...(hot(l.shards, average.shards, MIN_AVG.shards) ? (['shards'] as const) : []),
        ...(hot(l.diskUsedBytes, average.diskUsedBytes, MIN_AVG.disk) ? (['disk'] as const) : []),
        ...(hot(l.writeLoad, average.writeLoad, MIN_AVG.write) ? (['write'] as const) : []),
      ],
    })),
  };
}

const ratio = (v: number, avg: number) => `${(v / avg).toFixed(1)}x`;

/** What makes one node hot, in words: "shards 120 (2.4x the average 50), disk 1.2gb (2.1x)". */
export function hotText(l: NodeLoad, avg: HotSpots['average']): string {
  const parts: string[] = [];
  if (l.hot.includes('shards'))
    parts.push(`shards ${formatCount(l.shards)} (${ratio(l.shards, avg.shards)} the average ${avg.shards.toFixed(0)})`);
  if (l.hot.includes('disk'))
    parts.push(
      `indices ${formatBytes(l.diskUsedBytes)} (${ratio(l.diskUsedBytes, avg.diskUsedBytes)} the average ${formatBytes(avg.diskUsedBytes)})`,
    );
  if (l.hot.includes('write') && l.writeLoad !== null && avg.writeLoad)
    parts.push(`write load ${l.writeLoad.toFixed(2)} (${ratio(l.writeLoad, avg.writeLoad)} the average ${avg.writeLoad.toFixed(2)})`);
  return parts.join(', ');
}

/**
 * The Nodes pane's line: the hot nodes with why (red), else the spread ("shards 40-52 a node, no
 * hot spot"); nothing with fewer than 2 nodes.
 */
export function hotSpotLine(h: HotSpots, width: number): { text: string; tone?: Tone } | null {
  if (h.nodes.length < 2) return null;
  const hot = h.nodes.filter((n) => n.hot.length);
  if (hot.length)
    return {
      text: fitText(`hot spot: ${hot.map((n) => `${displayText(n.node)} ${hotText(n, h.average)}`).join('; ')}`, width),
      tone: 'red',
    };
  const shards = h.nodes.map((n) => n.shards);
  return {
    text: fitText(`no hot spot: shards ${Math.min(...shards)}-${Math.max(...shards)} a node (marked at ${HOT_FACTOR}x the average)`, width),
  };
}
