// The plan shown before anything is sent, per index: documents, size, shards now and after, the node
// that holds the copy and the disk it needs against the watermarks, the time expected, how long
// writes are refused, the steps; for the run: totals, the shard capacity before and after, the
// value action.auto_create_index takes while a name is free, and what is refused. Pure.
import {
  autoCreationOn,
  effectiveAutoCreate,
  holdNamePlan,
  holdOf,
  releaseNamePlan,
  valueExcluding,
  type AutoCreateValues,
} from './auto-create';
import type { MutationPlan } from '../mutation/plan';
import { platformTemplateJson, shardsSetter, templateShardsPlan, type ShardsSetter, type TemplateFacts } from './template';
import { blockPlan, clonePlan, copyPlan, deleteIndexPlan, refreshPlan, routePlan, unblockPlan } from './steps';
import { createSnapshotPlan } from '../wizards/snapshot';
import {
  capacity,
  chooseNode,
  copiesPerProject,
  diskNeed,
  estimate,
  MAX_INDICES,
  openShardsAfter,
  proposeShards,
  refusalOf,
  routingShardsOf,
  stepsOf,
  targetsFor,
  tempName,
  type AliasDefinition,
  type Capacity,
  type ClusterFacts,
  type DiskNeed,
  type IndexFacts,
  type Mode,
  type Refusal,
  type StepId,
  type TimeEstimate,
} from './plan';
import { formatBytes, formatCount } from '../text/format';
import { snapshotFirstName } from '../wizards/snapshot';

export interface ReviewInput {
  mode: Mode;
  /** The shard count asked for; null: each index gets its proposal. */
  to: number | null;
  /** Take a snapshot first (null: the default, on where a repository exists). */
  snapshot: boolean | null;
  /** The repository to take it in (null: the first registered). */
  repository: string | null;
  now: number;
}

export interface IndexPlan {
  index: string;
  uuid: string;
  docs: number;
  primaryBytes: number;
  from: number;
  to: number;
  replicas: number;
  tmp: string;
  node: string;
  route: boolean;
  disk: DiskNeed;
  steps: StepId[];
  estimate: TimeEstimate;
  snapshot?: { repository: string; name: string };
  aliases: string[];
  /** The aliases with their definitions, as the clone gets them. */
  aliasDefinitions: Record<string, AliasDefinition>;
  /** The counts this index could go to (the divisors when shrinking). */
  targets: number[];
  proposed: number | null;
}

export interface ShrinkReview {
  mode: Mode;
  plans: IndexPlan[];
  /** Matched but left as they are (already at the count or fewer / more). */
  skipped: Refusal[];
  totals: { indices: number; docs: number; bytes: number; estimate: TimeEstimate };
  capacity: { before: Capacity; after: Capacity };
  /** action.auto_create_index now, and what it is while the first index's name is free (null: auto-creation is off, nothing to hold). */
  autoCreate: { now: string; held: string | null; values: AutoCreateValues };
  warnings: string[];
  /** What the operator types to confirm the deletes: the run's index names, comma-separated. */
  confirmText: string;
  /** The template asked for: where its count is set, the request (null: it says that count already), the platform's JSON. */
  template?: { name: string; setter: ShardsSetter; plan: MutationPlan | null; platformJson: Record<string, unknown> };
}

export type ReviewResult = { ok: true; review: ShrinkReview } | { ok: false; error: string; refusals?: Refusal[]; listing?: string[] };

/** One line per index for a listing (a pattern that matched too many, a refusal). */
export function indexLine(f: Pick<IndexFacts, 'name' | 'docs' | 'primaryBytes' | 'shards'>): string {
  return `${f.name}: ${formatCount(f.docs)} documents, ${formatBytes(f.primaryBytes)}, ${f.shards} shard${f.shards === 1 ? '' : 's'}`;
}

function totalLine(fs: readonly Pick<IndexFacts, 'docs' | 'primaryBytes'>[]): string {
  return `total: ${formatCount(fs.length)} indices, ${formatCount(fs.reduce((s, f) => s + f.docs, 0))} documents, ${formatBytes(fs.reduce((s, f) => s + f.primaryBytes, 0))}`;
}

function splitDisk(f: IndexFacts, cluster: ClusterFacts): DiskNeed {
  const nodes = [...new Set(f.primaries.map((p) => p.node))];
  const needs = nodes.map((n) => {
    const bytes = f.primaries.filter((p) => p.node === n).reduce((s, p) => s + p.bytes, 0);
    return diskNeed({ primaries: [], primaryBytes: bytes }, n, cluster.disks, cluster.watermarks);
  });
  const rank = { refused: 2, low: 1, ok: 0 } as const;
  return (
    needs.sort((a, b) => rank[b.verdict] - rank[a.verdict] || a.freeAfterBytes - b.freeAfterBytes)[0] ??
    diskNeed(f, '-', [], cluster.watermarks)
  );
}

/** The plan of every matched index, or why nothing is sent (each refused index with its reason). */
export function buildReview(
  input: ReviewInput,
  indices: readonly IndexFacts[],
  cluster: ClusterFacts,
  autoCreate: AutoCreateValues,
  /** The index template to change too (undefined: none asked; null: asked, not there). */
  template?: { name: string; facts: TemplateFacts | null },
): ReviewResult {
  if (indices.length === 0) return { ok: false, error: 'no index to right-size' };
  if (template && !template.facts)
    return { ok: false, error: `index template "${template.name}" does not exist: nothing was sent (shardeck templates lists them)` };
  if (template && input.to === null)
    return { ok: false, error: 'the template takes one count: give --shards N with --template (nothing was sent)' };
  if (indices.length > MAX_INDICES)
    return {
      ok: false,
      error: `the pattern matches ${formatCount(indices.length)} indices, more than the ${MAX_INDICES} one run takes: narrow it (e.g. service_v9_a*) and run it in parts; nothing was sent`,
      listing: [...[...indices].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(indexLine), totalLine(indices)],
    };
  const refusals: Refusal[] = [];
  const skipped: Refusal[] = [];
  const plans: IndexPlan[] = [];
  const used = new Map<string, number>();
  const repository = input.repository ?? cluster.repositories[0] ?? null;
  if (input.repository !== null && !cluster.repositories.includes(input.repository))
    return {
      ok: false,
      error: `no snapshot repository ${input.repository} (registered: ${cluster.repositories.join(', ') || 'none'}): nothing was sent`,
    };
  const snapshot = input.snapshot ?? repository !== null;
  if (snapshot && repository === null)
    return {
      ok: false,
      error:
        'a snapshot first was asked for but no repository is registered: add one (shardeck snapshot repo add) or run without the snapshot',
    };
  const held = autoCreationOn(effectiveAutoCreate(autoCreate));
  for (const f of [...indices].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const routing = routingShardsOf(f);
    const proposed = proposeShards(input.mode, f.shards, f.primaryBytes, routing);
    const to = input.to ?? proposed;
    if (to === null) {
      skipped.push({
        index: f.name,
        reason:
          input.mode === 'shrink'
            ? f.shards === 1
              ? 'has one shard already'
              : `no fewer shards keep each under ~30 GB (${formatBytes(f.primaryBytes / f.shards)} a shard now)`
            : 'no shard is over 50 GB: nothing to split',
      });
      continue;
    }
    if ((input.mode === 'shrink' && f.shards === to) || (input.mode === 'split' && f.shards === to)) {
      skipped.push({ index: f.name, reason: `has ${to} shard${to === 1 ? '' : 's'} already` });
      continue;
    }
    const tmp = tempName(f.name, input.mode, input.now);
    const refusal = refusalOf(f, input.mode, to, tmp, cluster);
    if (refusal) {
      refusals.push({ index: f.name, reason: refusal });
      continue;
    }
    const node = chooseNode(f, cluster.dataNodes, cluster.disks);
    if (!node) {
      refusals.push({ index: f.name, reason: 'no data node to hold the copy' });
      continue;
    }
    const route = cluster.dataNodes.length > 1 && input.mode === 'shrink';
    // A split copies each primary where it is: each node needs the bytes it holds (the fullest one is judged).
    const disk =
      input.mode === 'shrink' ? diskNeed(f, node, cluster.disks, cluster.watermarks, used.get(node) ?? 0) : splitDisk(f, cluster);
    if (disk.verdict === 'refused') {
      refusals.push({ index: f.name, reason: disk.message });
      continue;
    }
    used.set(node, (used.get(node) ?? 0) + disk.moveBytes);
    const steps = stepsOf({ snapshot, route, holdName: held });
    plans.push({
      index: f.name,
      uuid: f.uuid,
      docs: f.docs,
      primaryBytes: f.primaryBytes,
      from: f.shards,
      to,
      replicas: f.replicas,
      tmp,
      node,
      route,
      disk,
      steps,
      estimate: estimate(steps, { move: disk.moveBytes, copy: f.primaryBytes }),
      ...(snapshot && repository ? { snapshot: { repository, name: snapshotFirstName(input.mode, [f.name], input.now) } } : {}),
      aliases: Object.keys(f.aliases).sort(),
      aliasDefinitions: f.aliases,
      targets: targetsFor(input.mode, f.shards, routing),
      proposed,
    });
  }
  if (refusals.length)
    return {
      ok: false,
      error: `${refusals.length === 1 ? `${refusals[0].index} ${refusals[0].reason}` : `${refusals.length} of the ${indices.length} indices cannot be right-sized now`}; nothing was sent`,
      refusals,
    };
  if (plans.length === 0)
    return {
      ok: false,
      error: `nothing to do: ${skipped.map((s) => `${s.index} ${s.reason}`).join('; ')}`,
      refusals: skipped,
    };
  const per = copiesPerProject(cluster.template);
  const after = openShardsAfter(cluster.openShards, plans);
  const warnings: string[] = [];
  for (const p of plans) if (p.disk.verdict === 'low') warnings.push(`${p.index}: ${p.disk.message}`);
  if (held && cluster.allowAutoCreate.length)
    warnings.push(
      `the index template${cluster.allowAutoCreate.length === 1 ? '' : 's'} ${cluster.allowAutoCreate.map((t) => t.template).join(', ')} set${cluster.allowAutoCreate.length === 1 ? 's' : ''} allow_auto_create: true, which overrides action.auto_create_index: a write between the delete and the clone would still create an empty index under the name (the clone then stops, the copy is kept). Stop the platform's writes to these projects for the run`,
    );
  if (!snapshot)
    warnings.push(
      repository === null
        ? 'no snapshot repository is registered, so no snapshot is taken first: the temporary copy is the only other copy while the original is deleted'
        : 'no snapshot first (asked): the temporary copy is the only other copy while the original is deleted',
    );
  const totalMs = plans.reduce((s, p) => s + p.estimate.totalMs, 0);
  const refusedMs = Math.max(0, ...plans.map((p) => p.estimate.writesRefusedMs));
  const first = plans[0];
  return {
    ok: true,
    review: {
      mode: input.mode,
      plans,
      skipped,
      totals: {
        indices: plans.length,
        docs: plans.reduce((s, p) => s + p.docs, 0),
        bytes: plans.reduce((s, p) => s + p.primaryBytes, 0),
        estimate: { totalMs, writesRefusedMs: refusedMs },
      },
      capacity: {
        before: capacity(cluster.openShards, cluster.dataNodes.length, cluster.maxShardsPerNode, per),
        after: capacity(after, cluster.dataNodes.length, cluster.maxShardsPerNode, per),
      },
      autoCreate: {
        now: effectiveAutoCreate(autoCreate),
        held: valueExcluding(effectiveAutoCreate(autoCreate), [first.index, ...first.aliases]),
        values: autoCreate,
      },
      warnings,
      confirmText: plans.map((p) => p.index).join(','),
      ...(template?.facts && input.to !== null ? { template: templateReview(template.facts, input.to) } : {}),
    },
  };
}

/** The template change and the platform's JSON for a count. */
export function templateReview(f: TemplateFacts, shards: number): NonNullable<ShrinkReview['template']> {
  return { name: f.name, setter: shardsSetter(f), plan: templateShardsPlan(f, shards), platformJson: platformTemplateJson(f, shards) };
}

/**
 * The requests one index's run sends, in order, as the preview shows them (the hold with the value
 * there now; the run computes it again right before it is sent, and the lift puts back what the
 * index had, unset here).
 */
export function requestsOf(p: IndexPlan, review: Pick<ShrinkReview, 'mode' | 'confirmText' | 'autoCreate'>): MutationPlan[] {
  const hold = holdOf(review.autoCreate.values, [p.index, ...p.aliases]);
  const out: MutationPlan[] = [];
  for (const s of p.steps)
    switch (s) {
      case 'snapshot':
        out.push(createSnapshotPlan(p.snapshot!.repository, p.snapshot!.name, [p.index]));
        break;
      case 'block':
        out.push(blockPlan(p.index));
        break;
      case 'record':
        out.push(refreshPlan(p.index));
        break;
      case 'route':
        out.push(routePlan(p.index, p.node));
        break;
      case 'copy':
        out.push(copyPlan(review.mode, p.index, p.tmp, p.to, p.replicas));
        break;
      case 'hold-name':
        if (hold) out.push(holdNamePlan(hold));
        break;
      case 'delete-original':
        out.push(
          deleteIndexPlan(p.index, p.uuid, review.confirmText, `its copy ${p.tmp} holds its documents; the name is free until the clone`),
        );
        break;
      case 'clone':
        out.push(clonePlan(p.tmp, p.index, p.to, p.replicas, p.aliasDefinitions));
        break;
      case 'release-name':
        if (hold) out.push(releaseNamePlan(hold));
        break;
      case 'unblock':
        out.push(unblockPlan(p.index, { blocksWrite: null, routing: null }));
        break;
      case 'drop-copy':
        out.push(deleteIndexPlan(p.tmp, 'the copy', review.confirmText, `the temporary copy: ${p.index} holds its documents`));
        break;
      default:
        break;
    }
  return out;
}
