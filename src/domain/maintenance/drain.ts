// Draining a node (`shardeck drain NODE`, the Nodes pane's key): its name added to
// cluster.routing.allocation.exclude._name, merged with what is already there (other excludes are
// kept), so that the allocator moves every shard off it; undo removes exactly that name. The guard
// records the value before the change (domain/maintenance/allocation-limits.ts), so a drain is never left
// behind. Also: which shards are still on the node, and what blocks their move (allocation explain
// grouped by decider, in plain words). Pure.
import { allocationValuesOf, type AllocationValues, type Level } from './allocation-limits';
import { DECIDER_WORDS } from '../doctor/shards';
import type { MutationPlan } from '../mutation/plan';
import { compareText } from '../text/order';
import type { ShardRow } from '../types';

export const EXCLUDE_NAME = 'cluster.routing.allocation.exclude._name';

/** The names of an exclude value ("a,b, c"); empty entries dropped. */
export function excludedNames(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The level a drain changes: transient when an exclude._name is set there (it wins over the
 * persistent one, so a persistent change would do nothing), else persistent (kept across a full
 * cluster restart, like Elastic's drain steps).
 */
export function drainLevel(v: AllocationValues): Level {
  return v.transient[EXCLUDE_NAME] ? 'transient' : 'persistent';
}

export type DrainChange =
  | { kind: 'refused'; message: string }
  | { kind: 'nothing'; message: string }
  | { kind: 'plan'; level: Level; before: string | null; after: string | null; plan: MutationPlan };

/** Why a name cannot be drained: a pattern, a list, or not the exact name of a node now. */
export function drainNameProblem(name: string, nodeNames: readonly string[]): string | null {
  if (name === '') return 'give the name of the node to drain';
  if (/[*?,]/.test(name) || name !== name.trim())
    return `${name} is not a node's name: give one node's exact name (no wildcard, comma or spaces)`;
  if (!nodeNames.includes(name))
    return `no node is named ${name}${nodeNames.length ? ` (the nodes: ${[...nodeNames].sort().join(', ')})` : ''}`;
  return null;
}

const shown = (v: string | null) => (v === null ? 'unset' : v);

function excludePlan(level: Level, before: string | null, after: string | null, name: string, drain: boolean): MutationPlan {
  const want = excludedNames(after);
  return {
    method: 'PUT',
    path: '/_cluster/settings',
    querystring: { flat_settings: 'true' },
    body: { [level]: { [EXCLUDE_NAME]: after } },
    risk: 'reversible',
    target: 'cluster settings',
    summary: drain
      ? `drain node ${name}: ${EXCLUDE_NAME} ${shown(before)} -> ${shown(after)} (${level}); its shards move to the other nodes`
      : `undo the drain of node ${name}: ${EXCLUDE_NAME} ${shown(before)} -> ${shown(after)} (${level}); shards may go to it again`,
    verify: {
      path: '/_cluster/settings',
      querystring: { flat_settings: 'true' },
      check(res) {
        const now = excludedNames(allocationValuesOf(res)[level][EXCLUDE_NAME]);
        const same = now.length === want.length && want.every((n) => now.includes(n));
        return same
          ? { ok: true, message: `${EXCLUDE_NAME} is ${shown(after)} (${level})` }
          : { ok: false, message: `${EXCLUDE_NAME} reads back as ${now.join(',') || 'unset'} (${level}), not ${shown(after)}` };
      },
    },
  };
}

/** A node that may hold shards (Elasticsearch's data roles: data, content, hot, warm, cold, frozen, as _cat/nodes abbreviates them). */
export const isDataNode = (roles: string): boolean => /[dshwcf]/.test(roles);

/**
 * Why draining `name` cannot work (issue 47), or null: no other data node would be left to hold
 * its shards (the only one, or every other already drained), or a copy on it has nowhere to go
 * (every other node left already holds a copy of that shard). Exclude it anyway and allocation
 * stops: new project indices could not be allocated anywhere.
 */
export function drainRefusal(name: string, dataNodes: readonly string[], v: AllocationValues, shards: readonly ShardRow[]): string | null {
  const drained = excludedNames(v[drainLevel(v)][EXCLUDE_NAME]);
  const left = dataNodes.filter((n) => n !== name && !drained.includes(n));
  if (!dataNodes.includes(name)) return null; // not a data node: nothing to move
  if (left.length === 0)
    return dataNodes.length === 1
      ? `${name} is the only data node: drained, its shards have nowhere to go and no new index could be allocated anywhere`
      : `every other data node is drained already (${drained.join(', ')}): ${name}'s shards would have nowhere to go`;
  const nowhere = shardsOnNode(shards, name)
    .filter((c) => {
      const holders = new Set(shards.filter((o) => o.index === c.index && o.shard === c.shard && o !== c && o.node).map((o) => o.node));
      return left.every((n) => holders.has(n));
    })
    .map((c) => `${c.index}[${c.shard}]`);
  if (nowhere.length)
    return `${nowhere.length} shard cop${nowhere.length === 1 ? 'y' : 'ies'} on ${name} ha${nowhere.length === 1 ? 's' : 've'} nowhere to go (every other node left holds a copy of the same shard): ${nowhere.slice(0, 5).join(', ')}${nowhere.length > 5 ? ', ...' : ''}; lower their replicas first (shardeck replicas) or add a node`;
  return null;
}

/** The change that drains `name`: the current list plus the name, at the level that takes effect. */
export function drainChange(name: string, nodeNames: readonly string[], v: AllocationValues, refusal: string | null = null): DrainChange {
  const problem = drainNameProblem(name, nodeNames) ?? refusal;
  if (problem) return { kind: 'refused', message: `${problem}; nothing was changed` };
  const level = drainLevel(v);
  const before = v[level][EXCLUDE_NAME] ?? null;
  const names = excludedNames(before);
  if (names.includes(name)) return { kind: 'nothing', message: `node ${name} is already drained (${EXCLUDE_NAME}=${before}, ${level})` };
  const after = [...names, name].join(',');
  return { kind: 'plan', level, before, after, plan: excludePlan(level, before, after, name, true) };
}

/** The change that removes exactly `name` from the list (at each level it is in; the list unset when it was the only one). */
export function undoDrainChange(name: string, v: AllocationValues): DrainChange {
  if (name === '') return { kind: 'refused', message: 'give the name of the drained node; nothing was changed' };
  const level = (['transient', 'persistent'] as const).find((l) => excludedNames(v[l][EXCLUDE_NAME]).includes(name));
  if (!level) {
    const now = v.transient[EXCLUDE_NAME] ?? v.persistent[EXCLUDE_NAME];
    return { kind: 'nothing', message: `node ${name} is not drained (${EXCLUDE_NAME} is ${now ?? 'unset'}): nothing to undo` };
  }
  const before = v[level][EXCLUDE_NAME] ?? null;
  const rest = excludedNames(before).filter((n) => n !== name);
  const after = rest.length ? rest.join(',') : null;
  return { kind: 'plan', level, before, after, plan: excludePlan(level, before, after, name, false) };
}

/** Is the node named in the exclude list that takes effect? */
export function isDrained(name: string, v: AllocationValues): boolean {
  return excludedNames(v[drainLevel(v)][EXCLUDE_NAME]).includes(name);
}

/** The shard copies still on the node: started there, relocating away from it, or initialising on it. */
export function shardsOnNode(rows: readonly ShardRow[], name: string): ShardRow[] {
  return rows.filter((r) => r.node !== null && (r.node === name || r.node.startsWith(`${name} -> `)));
}

export interface DrainProgress {
  node: string;
  /** Copies still on it. */
  left: number;
  /** Of those, moving away now. */
  relocating: number;
  /** Copies on it when the drain was first seen (for the percentage). */
  atStart: number;
}

export function drainProgress(rows: readonly ShardRow[], name: string, atStart?: number): DrainProgress {
  const on = shardsOnNode(rows, name);
  return {
    node: name,
    left: on.length,
    relocating: on.filter((r) => r.state === 'RELOCATING').length,
    atStart: Math.max(atStart ?? on.length, on.length),
  };
}

export function progressLine(p: DrainProgress): string {
  if (p.left === 0) return `node ${p.node} holds no shards: it is drained`;
  const moved = p.atStart - p.left;
  const pct = p.atStart ? Math.floor((moved * 100) / p.atStart) : 0;
  return `node ${p.node}: ${p.left} shard cop${p.left === 1 ? 'y' : 'ies'} left (${p.relocating} moving now), ${moved} of ${p.atStart} moved (${pct}%)`;
}

/** The copies to ask allocation explain about: started ones that are not moving (at most `max`). */
export function stuckShards(rows: readonly ShardRow[], name: string, max = 3): ShardRow[] {
  return shardsOnNode(rows, name)
    .filter((r) => r.state === 'STARTED')
    .slice(0, max);
}

export interface MoveBlocker {
  decider: string;
  /** The decider in plain words. */
  words: string;
  /** Elasticsearch's own explanation (the first one seen). */
  explanation: string;
  /** The nodes it refused, and the shards it was asked about. */
  nodes: string[];
  shards: string[];
}

type Json = Record<string, any>;

const MOVE_WORDS: Record<string, string> = {
  ...DECIDER_WORDS,
  filter: 'an allocation filter keeps the shard off these nodes (an exclude, include or require setting)',
  throttling: 'the node is busy with other recoveries (it will come: see shardeck recovery)',
  node_shutdown: 'the node is shutting down',
  node_version: 'the node runs an older version than the copy needs',
  restore_in_progress: 'a restore is in progress',
};

/**
 * Why shards cannot leave the node, from their allocation explains: the deciders that said NO (or
 * THROTTLE) to moving them, grouped by decider, each with the nodes it refused and the shards.
 */
export function moveBlockers(explains: readonly Json[]): MoveBlocker[] {
  const by = new Map<string, MoveBlocker>();
  for (const x of explains) {
    if (!x || x.can_move_to_other_node === 'yes') continue;
    const shard = `${x.index}[${x.shard}]${x.primary ? 'p' : 'r'}`;
    for (const n of (x.node_allocation_decisions as Json[] | undefined) ?? [])
      for (const d of (n.deciders as Json[] | undefined) ?? []) {
        if (d.decision !== 'NO' && d.decision !== 'THROTTLE') continue;
        const key = String(d.decider);
        const b = by.get(key) ?? {
          decider: key,
          words: MOVE_WORDS[key] ?? key.replace(/_/g, ' '),
          explanation: String(d.explanation ?? ''),
          nodes: [],
          shards: [],
        };
        const node = String(n.node_name ?? n.node_id ?? '?');
        if (!b.nodes.includes(node)) b.nodes.push(node);
        if (!b.shards.includes(shard)) b.shards.push(shard);
        by.set(key, b);
      }
  }
  return [...by.values()].sort((a, b) => b.shards.length - a.shards.length || compareText(a.decider, b.decider));
}

export function blockerLines(blockers: readonly MoveBlocker[]): string[] {
  return blockers.map((b) => `${b.decider}: ${b.words}; refused on ${b.nodes.join(', ')} for ${b.shards.join(', ')} (${b.explanation})`);
}
