// Node statistics beyond _cat/nodes (seed: GET /_nodes/stats, /os, /fs, /jvm, /indices/fielddata):
// heap, GC, fielddata, RAM, load, CPU and each data path's disk; and the heap the JVM was started
// with (-Xms/-Xmx from its input arguments, GET /_nodes/jvm). Pure parsers of the raw answers.
import { compareText } from '../text/order';
import { parseNodePressure, type NodePressure } from './node-pressure';
import { parseNodeSearchStats } from '../parse';
import type { NodeSearchStats } from '../types';

type Json = Record<string, any>;

export interface DataPathDisk {
  path: string;
  mount: string;
  totalBytes: number;
  availableBytes: number;
}

export interface GcCollector {
  name: string;
  count: number;
  timeMs: number;
}

export interface NodeStats {
  id: string;
  name: string;
  heapUsedBytes: number;
  heapMaxBytes: number;
  gc: GcCollector[];
  fielddataBytes: number;
  fielddataEvictions: number;
  ramTotalBytes: number;
  ramUsedBytes: number;
  cpuPercent: number | null;
  load1m: number | null;
  load5m: number | null;
  load15m: number | null;
  dataPaths: DataPathDisk[];
}

/** The heap the JVM was started with, from its last -Xms / -Xmx arguments (the JVM takes the last). */
export interface NodeJvmArgs {
  id: string;
  name: string;
  xmsBytes: number | null;
  xmxBytes: number | null;
  /** The argument texts as given (e.g. "-Xms512m"), null when the node does not report it. */
  xms: string | null;
  xmx: string | null;
}

const n = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0)) || 0;
const nOrNull = (v: unknown): number | null =>
  v === undefined || v === null || v === '' || !Number.isFinite(Number(v)) ? null : Number(v);

/**
 * The Nodes pane's one statistics read (cluster/resources.ts `nodeStats`): the node walks every
 * shard it holds once for its index statistics, so the pane asks once for all it shows.
 */
export interface NodeFigures {
  stats: NodeStats[];
  search: NodeSearchStats[];
  /** With the previous answer's counters: what changed since (rejections, rates). */
  pressure: NodePressure[];
}

export function parseNodeFigures(body: Json, prev?: NodeFigures): NodeFigures {
  return { stats: parseNodeStats(body), search: parseNodeSearchStats(body), pressure: parseNodePressure(body, prev?.pressure) };
}

export function parseNodeStats(body: Json): NodeStats[] {
  const nodes = (body?.nodes ?? {}) as Record<string, Json>;
  return Object.entries(nodes)
    .map(([id, s]) => {
      const collectors = (s.jvm?.gc?.collectors ?? {}) as Record<string, Json>;
      const load = s.os?.cpu?.load_average ?? {};
      return {
        id,
        name: String(s.name ?? id),
        heapUsedBytes: n(s.jvm?.mem?.heap_used_in_bytes),
        heapMaxBytes: n(s.jvm?.mem?.heap_max_in_bytes),
        gc: Object.entries(collectors).map(([name, c]) => ({ name, count: n(c.collection_count), timeMs: n(c.collection_time_in_millis) })),
        fielddataBytes: n(s.indices?.fielddata?.memory_size_in_bytes),
        fielddataEvictions: n(s.indices?.fielddata?.evictions),
        ramTotalBytes: n(s.os?.mem?.total_in_bytes),
        ramUsedBytes: n(s.os?.mem?.used_in_bytes),
        cpuPercent: nOrNull(s.os?.cpu?.percent),
        load1m: nOrNull(load['1m']),
        load5m: nOrNull(load['5m']),
        load15m: nOrNull(load['15m']),
        dataPaths: ((s.fs?.data ?? []) as Json[]).map((d) => ({
          path: String(d.path ?? ''),
          mount: String(d.mount ?? ''),
          totalBytes: n(d.total_in_bytes),
          availableBytes: n(d.available_in_bytes),
        })),
      };
    })
    .sort((a, b) => compareText(a.name, b.name));
}

/** "-Xmx4g" -> 4 GiB in bytes; null when not a size the JVM would take. */
export function jvmSizeBytes(text: string): number | null {
  const m = /^(\d+)([kKmMgGtT]?)$/.exec(text);
  if (!m) return null;
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Number(m[1]) * unit;
}

function lastArg(args: string[], prefix: string): string | null {
  for (let i = args.length - 1; i >= 0; i--) if (args[i].startsWith(prefix)) return args[i];
  return null;
}

export function parseNodeJvm(body: Json): NodeJvmArgs[] {
  const nodes = (body?.nodes ?? {}) as Record<string, Json>;
  return Object.entries(nodes)
    .map(([id, s]) => {
      const args = ((s.jvm?.input_arguments ?? []) as unknown[]).map(String);
      const xms = lastArg(args, '-Xms');
      const xmx = lastArg(args, '-Xmx');
      return {
        id,
        name: String(s.name ?? id),
        xms,
        xmx,
        xmsBytes: xms ? jvmSizeBytes(xms.slice(4)) : null,
        xmxBytes: xmx ? jvmSizeBytes(xmx.slice(4)) : null,
      };
    })
    .sort((a, b) => compareText(a.name, b.name));
}

/** GC totals of a node: collections and time over every collector. */
export function gcTotals(s: Pick<NodeStats, 'gc'>): { count: number; timeMs: number } {
  return s.gc.reduce((t, c) => ({ count: t.count + c.count, timeMs: t.timeMs + c.timeMs }), { count: 0, timeMs: 0 });
}

/** Xms against Xmx in one word: equal (the seed's rule), differ, or unknown. */
export function heapArgsVerdict(j: NodeJvmArgs | undefined): 'equal' | 'differ' | 'unknown' {
  if (!j || j.xmsBytes === null || j.xmxBytes === null) return 'unknown';
  return j.xmsBytes === j.xmxBytes ? 'equal' : 'differ';
}
