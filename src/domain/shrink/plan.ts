// Right-sizing the shards of project indices (issue 42): fewer shards under the same name, by
// shrinking into a temporary index and cloning it back once the original is deleted. This file
// judges each index (what is refused and why), counts the shards (the divisors, the proposal, split
// targets), the disk the copy needs against the watermarks, the time, the shard capacity before and
// after, and names the steps. The requests are in steps.ts, the journal in progress.ts. Pure.
import { shardCapacity } from '../doctor/capacity';
import { requiredFreeBytes } from '../nodes/disk';
import { formatBytes, formatCount } from '../text/format';
import { NOT_IN_INDEX_NAMES } from '../naming';
import type { NodeDisk, Watermarks } from '../types';

/** The size a shard is proposed not to pass (Elastic's guidance: 10-50 GB a shard; ~30 GB here). */
export const SHARD_TARGET_BYTES = 30 * 1024 ** 3;
/** A shard above this is worth splitting (split plans). */
export const SPLIT_ABOVE_BYTES = 50 * 1024 ** 3;
/** Above this many indices a pattern is refused: run it in parts. */
export const MAX_INDICES = 100;
/** Lucene's limit of documents in one shard: a shrink that would put more in one is refused by Elasticsearch. */
export const MAX_DOCS_PER_SHARD = 2_147_483_519;
/** Index names may hold at most 255 bytes. */
export const MAX_NAME_BYTES = 255;

/**
 * Speeds the time estimate assumes (bytes a second): relocation at the default recovery throttle
 * (40mb); a shrink or clone hard-links the segments on the node's own disk (bench/shrink.mjs: a
 * 933 MB index right-sized in 0.9-1.5 s, copy 0.2-0.3 s, clone 0.3-0.4 s), so ~1 GB a second is
 * what the copy is taken to take (a copy without hard links is slower: the estimate is then low).
 */
export const RATES = {
  relocate: 40 * 1024 ** 2,
  copy: 1024 * 1024 ** 2,
  snapshot: 50 * 1024 ** 2,
  /** Each request and wait for green: about a second whatever the size. */
  stepMs: 1_000,
} as const;

export type Mode = 'shrink' | 'split';

/** The divisors of `shards` below it: the counts a shrink can go to (Elasticsearch: the target must divide the source). */
export function shrinkTargets(shards: number): number[] {
  const out: number[] = [];
  for (let d = 1; d < shards; d++) if (shards % d === 0) out.push(d);
  return out;
}

/**
 * index.number_of_routing_shards as Elasticsearch 7+ sets it when the index was created without it:
 * the shards doubled until 1,024 would be passed (at least once). A split can go to any multiple of
 * the shards that divides it; an index of one shard can be split into any count.
 */
export function defaultRoutingShards(shards: number): number {
  if (shards <= 0) return 0;
  const log2 = shards === 1 ? 0 : 32 - Math.clz32(shards - 1);
  return shards * 2 ** Math.max(1, 10 - log2);
}

/** The counts a split can go to (at most `max` of them, the smallest first). */
export function splitTargets(shards: number, routingShards: number, max = 12): number[] {
  const out: number[] = [];
  if (shards === 1) {
    for (let n = 2; out.length < max && n <= 1024; n++) out.push(n);
    return out;
  }
  for (let n = shards * 2; n <= routingShards && out.length < max; n += shards) if (routingShards % n === 0) out.push(n);
  return out;
}

/** The counts the operator may choose for this index in this mode. */
export function targetsFor(mode: Mode, shards: number, routingShards: number): number[] {
  return mode === 'shrink' ? shrinkTargets(shards) : splitTargets(shards, routingShards);
}

/**
 * The count proposed: shrinking, the smallest divisor that keeps every shard under ~30 GB (null: no
 * fewer shards keep them so, or the index has one); splitting, the smallest valid count that
 * brings every shard under it (null when no shard is over 50 GB, or no count does).
 */
export function proposeShards(
  mode: Mode,
  shards: number,
  primaryBytes: number,
  routingShards = defaultRoutingShards(shards),
): number | null {
  if (mode === 'shrink') return shrinkTargets(shards).find((d) => primaryBytes / d <= SHARD_TARGET_BYTES) ?? null;
  if (primaryBytes / shards <= SPLIT_ABOVE_BYTES) return null;
  return splitTargets(shards, routingShards, 1024).find((n) => primaryBytes / n <= SHARD_TARGET_BYTES) ?? null;
}

/** "3" -> 3 when the count is one this index can go to; else one sentence offering the counts that are. */
export function parseTargetShards(
  text: string,
  mode: Mode,
  shards: number,
  routingShards = defaultRoutingShards(shards),
): { ok: true; value: number } | { ok: false; error: string } {
  const t = text.trim();
  const targets = targetsFor(mode, shards, routingShards);
  const offer = targets.length
    ? `give one of ${targets.join(', ')}`
    : mode === 'shrink'
      ? 'it has one shard already: nothing to shrink'
      : 'it cannot be split further (index.number_of_routing_shards)';
  if (!/^\d+$/.test(t)) return { ok: false, error: `shards "${text}" is not a whole number: ${offer}` };
  const n = Number(t);
  if (mode === 'shrink' && n >= shards)
    return { ok: false, error: `${n} shards is not fewer than the ${shards} the index has: ${offer} (a split makes more)` };
  if (mode === 'split' && n <= shards) return { ok: false, error: `${n} shards is not more than the ${shards} the index has: ${offer}` };
  if (!targets.includes(n))
    return {
      ok: false,
      error:
        mode === 'shrink'
          ? `${n} does not divide the index's ${shards} shards: ${offer}`
          : `${n} is not a multiple of ${shards} that divides the index's ${routingShards} routing shards: ${offer}`,
    };
  return { ok: true, value: n };
}

/** The temporary index: <index>-shrink-<UTC time> (lower case, as index names must be). */
export function tempName(index: string, mode: Mode, now: number): string {
  const d = new Date(now).toISOString();
  return `${index}-${mode}-${d.slice(0, 10).replaceAll('-', '')}${d.slice(11, 19).replaceAll(':', '')}`;
}

// --- what is known of an index and the cluster before anything is sent ------------------------

export interface AliasDefinition {
  [key: string]: unknown;
  is_write_index?: boolean;
}

export interface IndexFacts {
  name: string;
  uuid: string;
  /** open / close, as _cat/indices says. */
  status: string;
  health: string;
  shards: number;
  replicas: number;
  docs: number;
  docsDeleted: number;
  primaryBytes: number;
  /** index.hidden, or a dot name. */
  hidden: boolean;
  /** The index's own settings, flat (index.*), as GET _settings?flat_settings answers. */
  settings: Record<string, string | null>;
  aliases: Record<string, AliasDefinition>;
  /** Primary copies STARTED on each node, by node name, and their bytes. */
  primaries: { node: string; bytes: number }[];
  /** Shard copies of the index not STARTED (moving, starting, unassigned). */
  notStarted: number;
}

export interface ClusterFacts {
  dataNodes: string[];
  disks: NodeDisk[];
  watermarks: Watermarks;
  /** Every index name there is now (a temporary name must be free). */
  existing: ReadonlySet<string>;
  /** Snapshot repositories registered. */
  repositories: string[];
  maxShardsPerNode: number;
  /** Open shard copies (primaries and replicas of open indices, unassigned included): what the limit counts. */
  openShards: number;
  /** The template the project indices come from: its shards and replicas (null: not found). */
  template: { name: string; shards: number; replicas: number } | null;
  /** A composable template that matches the index with allow_auto_create: true overrides action.auto_create_index. */
  allowAutoCreate: { template: string; indexPatterns: string[] }[];
}

export interface Refusal {
  index: string;
  reason: string;
}

/** The index routing setting the multi-node step sets. */
export const ROUTING_NAME = 'index.routing.allocation.require._name';
export const BLOCKS_WRITE = 'index.blocks.write';

/** The index's routing shards: its own setting, or Elasticsearch's default. */
export function routingShardsOf(f: Pick<IndexFacts, 'settings' | 'shards'>): number {
  const own = Number(f.settings['index.number_of_routing_shards']);
  return Number.isInteger(own) && own > 0 ? own : defaultRoutingShards(f.shards);
}

/**
 * Why this index cannot be right-sized to `to` shards now, or null. Each is one sentence for the
 * operator; nothing is sent for a run that has one.
 */
export function refusalOf(f: IndexFacts, mode: Mode, to: number, tmp: string, cluster: Pick<ClusterFacts, 'existing'>): string | null {
  if (f.hidden || f.name.startsWith('.'))
    return 'is a hidden or system index: shardeck right-sizes project indices only (Elasticsearch manages its own)';
  if (f.status !== 'open') return `is ${f.status === 'close' ? 'closed' : f.status}: open it first (a closed index cannot be copied)`;
  if (f.settings['index.blocks.read_only_allow_delete'] === 'true')
    return 'is read-only after the flood-stage watermark (index.blocks.read_only_allow_delete): free disk and lift the block first (shardeck unblock)';
  if (f.settings['index.blocks.read_only'] === 'true' || f.settings['index.blocks.metadata'] === 'true')
    return 'is read-only (index.blocks.read_only or index.blocks.metadata): its settings cannot change; lift the block first';
  if (f.health !== 'green') return `is ${f.health}, not green: every shard must be started before it is copied (see shardeck status)`;
  const writeOf = Object.entries(f.aliases)
    .filter(([, a]) => a.is_write_index === true)
    .map(([n]) => n);
  if (writeOf.length)
    return `is the write index of the alias ${writeOf.join(', ')}: writes through it would fail while the index is gone; roll the alias over to another index first`;
  const n = parseTargetShards(String(to), mode, f.shards, routingShardsOf(f));
  if (!n.ok) return n.error;
  if (mode === 'shrink' && (f.docs + f.docsDeleted) / to > MAX_DOCS_PER_SHARD)
    return `holds ${formatCount(f.docs + f.docsDeleted)} documents (deleted ones included): ${to} shard${to === 1 ? '' : 's'} would hold more than Lucene's ${formatCount(MAX_DOCS_PER_SHARD)} a shard`;
  if (new TextEncoder().encode(tmp).length > MAX_NAME_BYTES)
    return `its temporary copy's name ${tmp} would be longer than Elasticsearch's ${MAX_NAME_BYTES} bytes`;
  if (NOT_IN_INDEX_NAMES.test(tmp)) return `its temporary copy's name ${tmp} is not a valid index name`;
  if (cluster.existing.has(tmp)) return `its temporary copy's name ${tmp} is taken by an index already: wait a second and run it again`;
  return null;
}

// --- where the copy is made and the disk it needs ----------------------------------------------

export interface DiskNeed {
  node: string;
  /** Bytes of primaries that move to the node first (several nodes). */
  moveBytes: number;
  /** A full copy of the primaries: the temporary index, while it and the original both exist. */
  copyBytes: number;
  availBytes: number;
  totalBytes: number;
  /** Free bytes left once both are there. */
  freeAfterBytes: number;
  /** The free space the low, high and flood watermarks ask this node to keep. */
  lowFreeBytes: number;
  highFreeBytes: number;
  floodFreeBytes: number;
  /** ok; past the low watermark (no new shard is placed on the node: warned); past high (refused). */
  verdict: 'ok' | 'low' | 'refused';
  message: string;
}

/**
 * The node that holds the copy: the one already holding the most of the index's primary bytes (the
 * least to move), then the one with the most free disk. One data node: that one.
 */
export function chooseNode(f: Pick<IndexFacts, 'primaries'>, dataNodes: readonly string[], disks: readonly NodeDisk[]): string | null {
  const held = (n: string) => f.primaries.filter((p) => p.node === n).reduce((s, p) => s + p.bytes, 0);
  const avail = (n: string) => disks.find((d) => d.node === n)?.availBytes ?? 0;
  const ranked = [...dataNodes].sort((a, b) => held(b) - held(a) || avail(b) - avail(a) || (a < b ? -1 : a > b ? 1 : 0));
  return ranked[0] ?? null;
}

/**
 * The disk the node needs: the primaries not on it yet, then a full copy of them (the temporary
 * index; the clone back under the name replaces it, so the peak is one copy more). `alreadyUsed`:
 * what earlier indices of the same run left on the node. Past the high watermark Elasticsearch would
 * move shards away (and at flood stage block writes): refused; past the low one the node takes no
 * new shard copy: said.
 */
export function diskNeed(
  f: Pick<IndexFacts, 'primaries' | 'primaryBytes'>,
  node: string,
  disks: readonly NodeDisk[],
  w: Watermarks,
  alreadyUsed = 0,
): DiskNeed {
  const d = disks.find((x) => x.node === node);
  const moveBytes = f.primaries.filter((p) => p.node !== node).reduce((s, p) => s + p.bytes, 0);
  const copyBytes = f.primaryBytes;
  const totalBytes = d?.totalBytes ?? 0;
  const availBytes = Math.max(0, (d?.availBytes ?? 0) - alreadyUsed);
  const freeAfterBytes = availBytes - moveBytes - copyBytes;
  const lowFreeBytes = requiredFreeBytes(w.low, totalBytes);
  const highFreeBytes = requiredFreeBytes(w.high, totalBytes);
  const floodFreeBytes = requiredFreeBytes(w.flood, totalBytes);
  const needs = `${formatBytes(moveBytes + copyBytes)} (${moveBytes ? `${formatBytes(moveBytes)} of primaries moved there, ` : ''}a full copy ${formatBytes(copyBytes)})`;
  const have = `${node} has ${formatBytes(availBytes)} free of ${formatBytes(totalBytes)}`;
  const base = { node, moveBytes, copyBytes, availBytes, totalBytes, freeAfterBytes, lowFreeBytes, highFreeBytes, floodFreeBytes };
  if (!d)
    return { ...base, verdict: 'refused', message: `the disk of ${node} is not known (_cat/allocation does not list it): nothing is sent` };
  if (!w.thresholdEnabled || freeAfterBytes >= lowFreeBytes)
    return {
      ...base,
      verdict: 'ok',
      message: `needs ${needs}; ${have}: ${formatBytes(freeAfterBytes)} free after, above the low watermark`,
    };
  if (freeAfterBytes >= highFreeBytes)
    return {
      ...base,
      verdict: 'low',
      message: `needs ${needs}; ${have}: ${formatBytes(freeAfterBytes)} free after, past the low watermark (${formatBytes(lowFreeBytes)} free; no other new shard is placed on ${node} meanwhile)`,
    };
  return {
    ...base,
    verdict: 'refused',
    message: `needs ${needs}; ${have}: ${formatBytes(freeAfterBytes)} would be left, past the high watermark (it asks for ${formatBytes(highFreeBytes)} free; flood stage ${formatBytes(floodFreeBytes)}): free disk or choose fewer indices; nothing is sent`,
  };
}

// --- the steps ------------------------------------------------------------------------------------

export const STEPS = [
  'snapshot',
  'block',
  'record',
  'route',
  'copy',
  'copy-green',
  'check-copy',
  'hold-name',
  'delete-original',
  'clone',
  'release-name',
  'result-green',
  'check-result',
  'unblock',
  'drop-copy',
] as const;
export type StepId = (typeof STEPS)[number];

/** The steps of one index's run: the snapshot when asked, the move to one node when there are several, the name held unless auto-creation is off. */
export function stepsOf(o: { snapshot: boolean; route: boolean; holdName: boolean }): StepId[] {
  return STEPS.filter(
    (s) => (s !== 'snapshot' || o.snapshot) && (s !== 'route' || o.route) && ((s !== 'hold-name' && s !== 'release-name') || o.holdName),
  );
}

/** The steps during which the original or its result refuses writes: from the block to its lift. */
export const WRITES_REFUSED: readonly StepId[] = STEPS.slice(STEPS.indexOf('block'), STEPS.indexOf('unblock') + 1);

export interface StepContext {
  index: string;
  tmp: string;
  from: number;
  to: number;
  node: string;
  mode: Mode;
  snapshot?: { repository: string; name: string };
}

/** What each step does, as the plan, the progress and the audit say it. */
export function stepTitle(id: StepId, c: StepContext): string {
  const verb = c.mode === 'shrink' ? 'shrink' : 'split';
  switch (id) {
    case 'snapshot':
      return `snapshot ${c.snapshot ? `${c.snapshot.repository}/${c.snapshot.name}` : ''} of ${c.index}, followed to its end`;
    case 'block':
      return `block writes to ${c.index} (index.blocks.write: true): writes to the project are refused from here`;
    case 'record':
      return `refresh ${c.index}, then record its documents, mapping, settings and aliases (what the copies are compared with)`;
    case 'route':
      return `move a copy of every shard of ${c.index} onto ${c.node} (${ROUTING_NAME}) and wait until they are there`;
    case 'copy':
      return `${verb} ${c.index} (${c.from} shards) into ${c.tmp} (${c.to})`;
    case 'copy-green':
      return `wait for ${c.tmp} to be green`;
    case 'check-copy':
      return `compare ${c.tmp} with ${c.index}: documents, mapping, settings`;
    case 'hold-name':
      return `keep the name ${c.index} from being created by a write (action.auto_create_index excludes it; the value before is recorded)`;
    case 'delete-original':
      return `delete ${c.index} (its copy ${c.tmp} holds every document)`;
    case 'clone':
      return `clone ${c.tmp} back under the name ${c.index}, with its aliases`;
    case 'release-name':
      return 'put action.auto_create_index back to what it was';
    case 'result-green':
      return `wait for ${c.index} to be green`;
    case 'check-result':
      return `compare ${c.index} with the original: documents, mapping, settings, aliases`;
    case 'unblock':
      return `lift the write block and the routing requirement of ${c.index} (as they were before): writes are accepted again`;
    case 'drop-copy':
      return `delete the temporary copy ${c.tmp}`;
  }
}

/** How long each step is expected to take (ms), from the bytes it moves or copies. */
export function stepEstimateMs(id: StepId, bytes: { move: number; copy: number }): number {
  const at = (b: number, rate: number) => (b / rate) * 1000;
  switch (id) {
    case 'snapshot':
      return RATES.stepMs + at(bytes.copy, RATES.snapshot);
    case 'route':
      return RATES.stepMs + at(bytes.move, RATES.relocate);
    case 'copy':
    case 'clone':
      return RATES.stepMs + at(bytes.copy, RATES.copy);
    default:
      return RATES.stepMs;
  }
}

export interface TimeEstimate {
  totalMs: number;
  /** From the write block to its lift: how long writes to the project are refused. */
  writesRefusedMs: number;
}

export function estimate(steps: readonly StepId[], bytes: { move: number; copy: number }): TimeEstimate {
  let totalMs = 0;
  let writesRefusedMs = 0;
  for (const s of steps) {
    const ms = stepEstimateMs(s, bytes);
    totalMs += ms;
    if (WRITES_REFUSED.includes(s)) writesRefusedMs += ms;
  }
  return { totalMs, writesRefusedMs };
}

/** "about 40 s", "about 3 min", "about 1.5 h". */
export function formatDuration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  const m = s / 60;
  if (m < 90) return `${Math.round(m)} min`;
  return `${(m / 60).toFixed(1)} h`;
}

// --- shard capacity (cluster.max_shards_per_node) --------------------------------------------------

export interface Capacity {
  limit: number;
  open: number;
  /** Shard copies a new index may still take. */
  free: number;
  /** New project indices that fit: free copies over each one's (template shards x (1 + replicas)). */
  projectIndices: number | null;
}

/**
 * The shard limit as Elasticsearch counts it (cluster.max_shards_per_node x data nodes, against
 * the open indices' copies, unassigned included) and how many more project indices of the template
 * fit under it.
 */
export function capacity(openShards: number, dataNodes: number, maxShardsPerNode: number, perProject: number | null): Capacity {
  // The doctor's capacity rule (domain/doctor/capacity.ts): one count of what fits.
  const c = shardCapacity({ openShards, dataNodes, maxShardsPerNode, template: { name: null, shards: perProject ?? 1, replicas: 0 } });
  return { limit: c.limit, open: c.open, free: Math.max(0, c.limit - c.open), projectIndices: perProject && perProject > 0 ? c.fit : null };
}

/** Shard copies of one project index of the template (its shards times one plus its replicas). */
export function copiesPerProject(template: { shards: number; replicas: number } | null): number | null {
  return template ? template.shards * (1 + template.replicas) : null;
}

/** Open shard copies after the run: each index's copies shrink from shards x (1 + replicas) to N x (1 + replicas). */
export function openShardsAfter(openShards: number, indices: readonly { from: number; to: number; replicas: number }[]): number {
  return openShards - indices.reduce((s, i) => s + (i.from - i.to) * (1 + i.replicas), 0);
}

/**
 * Whether a shrink can start on `node`: a started copy of every shard there (a primary, or a replica:
 * Elasticsearch copies from whichever is local), every primary started, nothing of the index moving.
 * With replicas on two nodes, a primary cannot join its replica on the node: its replica there is the copy.
 */
export function copiesOnNode(
  copies: readonly { shard: number; primary: boolean; state: string; node: string | null }[],
  node: string,
): { ready: boolean; there: number; shards: number } {
  const shards = new Set(copies.map((c) => c.shard));
  const there = new Set(copies.filter((c) => c.node === node && c.state === 'STARTED').map((c) => c.shard));
  const moving = copies.some((c) => c.state === 'RELOCATING' || c.state === 'INITIALIZING');
  const primaries = copies.filter((c) => c.primary).every((c) => c.state === 'STARTED' || c.state === 'RELOCATING');
  return { ready: there.size === shards.size && shards.size > 0 && !moving && primaries, there: there.size, shards: shards.size };
}
