// Moving one started shard copy to another node (issue 43 item 3): the copy chosen, the nodes
// allocation explain answers YES for (the NO deciders of the others, in Elasticsearch's words),
// what `_cluster/reroute?dry_run&explain` says of the move, the move itself, and when it is done.
import { explainAllocation, type NodeVerdict } from '../wizards/allocation';
import type { MutationPlan } from '../mutation/plan';

type Json = Record<string, unknown>;

export interface ShardCopy {
  shard: number;
  primary: boolean;
  state: string;
  /** The node holding it (for a relocating copy: where it moves from). */
  node: string | null;
  /** A relocating copy: where it moves to. */
  relocatingTo: string | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** GET _cat/shards/<index>?format=json&h=shard,prirep,state,node (node "a -> 1.2.3.4 id b" while relocating). */
export function parseCopies(body: unknown): ShardCopy[] {
  return (Array.isArray(body) ? (body as Json[]) : []).map((r) => {
    const node = str(r.node);
    const moving = /^(\S+) -> \S+ \S+ (\S+)$/.exec(node);
    return {
      shard: Number(r.shard),
      primary: r.prirep === 'p',
      state: str(r.state),
      node: moving ? moving[1] : node || null,
      relocatingTo: moving ? moving[2] : null,
    };
  });
}

export type CopyChoice = { ok: true; copy: ShardCopy } | { ok: false; error: string };

/** The started copy of this shard to move: the one on `from`, or the only started one. */
export function chooseCopy(index: string, shard: number, copies: readonly ShardCopy[], from?: string): CopyChoice {
  const of = copies.filter((c) => c.shard === shard);
  if (!of.length)
    return {
      ok: false,
      error: `${index} has no shard ${shard} (its shards: ${[...new Set(copies.map((c) => c.shard))].sort((a, b) => a - b).join(', ') || 'none'})`,
    };
  const started = of.filter((c) => c.state === 'STARTED');
  const where = (c: ShardCopy) => `${c.primary ? 'primary' : 'replica'} on ${c.node ?? '?'} (${c.state.toLowerCase()})`;
  if (from !== undefined) {
    const c = of.find((x) => x.node === from);
    if (!c) return { ok: false, error: `no copy of ${index} shard ${shard} is on ${from}: its copies: ${of.map(where).join(', ')}` };
    if (c.state !== 'STARTED')
      return { ok: false, error: `the copy on ${from} is ${c.state.toLowerCase()}: only a started copy can be moved` };
    return { ok: true, copy: c };
  }
  if (started.length === 1) return { ok: true, copy: started[0] };
  if (!started.length)
    return {
      ok: false,
      error: `no copy of ${index} shard ${shard} is started (${of.map(where).join(', ')}): only a started copy can be moved`,
    };
  return {
    ok: false,
    error: `${index} shard ${shard} has ${started.length} started copies: say which with --from NODE (${started.map(where).join(', ')})`,
  };
}

export interface MoveTargets {
  /** Nodes every decider says YES to (worse_balance: allowed, the balancer would not choose it). */
  yes: string[];
  /** Nodes a decider refuses (or throttles), with the deciders' words. */
  no: NodeVerdict[];
  /** Whether the copy may stay where it is (allocation explain's can_remain_on_current_node). */
  canRemain: string;
}

/** POST _cluster/allocation/explain {index, shard, primary, current_node} of an assigned copy. */
export function moveTargets(explain: Json): MoveTargets {
  const x = explainAllocation(explain);
  const yes = x.nodes.filter((n) => n.decision === 'yes' || n.decision === 'worse_balance').map((n) => n.node);
  return { yes: yes.sort(), no: x.nodes.filter((n) => !yes.includes(n.node)), canRemain: str(explain.can_remain_on_current_node) || '?' };
}

export function refusedTarget(to: string, t: MoveTargets, nodes: readonly string[], from: string): string | null {
  if (to === from) return `the copy is already on ${to}: nothing to move`;
  if (!nodes.includes(to)) return `${to} is not a node of this cluster (its nodes: ${[...nodes].sort().join(', ')})`;
  const no = t.no.find((n) => n.node === to);
  if (no)
    return `Elasticsearch would not move it to ${to} (${no.decision}): ${no.reasons.join('; ') || 'no reason given'}${t.yes.length ? `. Nodes it accepts: ${t.yes.join(', ')}` : '. No node accepts it now'}`;
  if (!t.yes.includes(to)) return `allocation explain says nothing of ${to}: nodes it accepts: ${t.yes.join(', ') || 'none'}`;
  return null;
}

/** What `POST _cluster/reroute?dry_run=true&explain=true` decided of the move: null when YES, else the deciders that said no. */
export function dryRunRefusal(body: unknown): string | null {
  const ex =
    ((body ?? {}) as { explanations?: { decisions?: { decider?: string; decision?: string; explanation?: string }[] }[] }).explanations ??
    [];
  const no = ex.flatMap((e) => e.decisions ?? []).filter((d) => d.decision !== 'YES');
  return no.length ? `the dry run refuses the move: ${no.map((d) => `${str(d.decider)}: ${str(d.explanation)}`).join('; ')}` : null;
}

export interface MoveRef {
  index: string;
  shard: number;
  from: string;
  to: string;
}

export function moveCommand(m: MoveRef) {
  return { commands: [{ move: { index: m.index, shard: m.shard, from_node: m.from, to_node: m.to } }] };
}

/** The copy is on its new node (started), nothing of this shard still relocating. */
export function moveDone(m: MoveRef, copies: readonly ShardCopy[]): boolean {
  const of = copies.filter((c) => c.shard === m.shard);
  return (
    of.some((c) => c.node === m.to && c.state === 'STARTED') && !of.some((c) => c.state === 'RELOCATING' || c.state === 'INITIALIZING')
  );
}

export function movePlan(m: MoveRef, primary: boolean): MutationPlan {
  return {
    method: 'POST',
    path: '/_cluster/reroute',
    querystring: {},
    body: moveCommand(m),
    risk: 'reversible',
    target: `${m.index} shard ${m.shard}`,
    summary: `move ${m.index} shard ${m.shard} (${primary ? 'primary' : 'replica'}) from ${m.from} to ${m.to}`,
    resolved: { expression: m.index, indices: [m.index] },
    verify: {
      path: `/_cat/shards/${encodeURIComponent(m.index)}`,
      querystring: { format: 'json', h: 'shard,prirep,state,node' },
      check(body) {
        const of = parseCopies(body).filter((c) => c.shard === m.shard);
        const going = of.some((c) => (c.node === m.from && c.relocatingTo === m.to) || c.node === m.to);
        return going
          ? { ok: true, message: `${m.index} shard ${m.shard} ${moveDone(m, of) ? 'is started on' : 'is moving to'} ${m.to}` }
          : {
              ok: false,
              message: `${m.index} shard ${m.shard} is not moving to ${m.to}: ${of.map((c) => `${c.node ?? '?'} ${c.state}`).join(', ')}`,
            };
      },
    },
  };
}
