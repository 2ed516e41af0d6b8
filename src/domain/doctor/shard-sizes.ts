// Shard sizes (issue 41): a shard over ~50 GB (slow recovery and relocation), a shard nearing
// Lucene's hard limit of 2^31 documents (warned from 200 M), and many small shards (under 1 GB)
// while shard capacity is more than half used: the platform's 6-shard template fills the cluster's
// shard limit long before its disk. Judged on _cat/shards (each copy's store and documents). Pure.
import { compareText } from '../text/order';
import { formatBytes, formatCount, formatPercent } from '../text/format';
import type { IndexRow, ShardRow } from '../types';
import type { Capacity } from './capacity';
import type { Finding } from './finding';

/** Elastic's sizing guidance: shards between 10 and 50 GB; above, recovery and relocation slow down. */
export const SHARD_LARGE_BYTES = 50 * 1024 ** 3;
/** Lucene's limit of documents per shard (Integer.MAX_VALUE - 128), and the catalogues' warning. */
export const SHARD_DOC_LIMIT = 2_147_483_519;
export const SHARD_DOC_WARN = 200_000_000;
/** Critical from this share of the hard limit: indexing into the shard fails at the limit. */
export const SHARD_DOC_CRITICAL_SHARE = 0.9;
/** A shard under this is small; small shards count when capacity is over UNDERSIZED_CAPACITY_SHARE. */
export const SHARD_SMALL_BYTES = 1024 ** 3;
export const UNDERSIZED_CAPACITY_SHARE = 0.5;
/** "Many": at least this share of the open shards, and at least UNDERSIZED_MIN of them. */
export const UNDERSIZED_SHARE = 0.5;
export const UNDERSIZED_MIN = 20;

const NAMED = 6;

/** One row per shard (the largest of its copies: a replica recovering is smaller). */
function shardsBySize(shards: readonly ShardRow[]): { index: string; shard: number; bytes: number; docs: number; nodes: string[] }[] {
  const by = new Map<string, { index: string; shard: number; bytes: number; docs: number; nodes: string[] }>();
  for (const s of shards) {
    if (s.storeBytes === null && s.docs === null) continue;
    const k = `${s.index}\u0000${s.shard}`;
    const cur = by.get(k) ?? { index: s.index, shard: s.shard, bytes: 0, docs: 0, nodes: [] };
    cur.bytes = Math.max(cur.bytes, s.storeBytes ?? 0);
    cur.docs = Math.max(cur.docs, s.docs ?? 0);
    if (s.node) cur.nodes.push(s.node);
    by.set(k, cur);
  }
  return [...by.values()];
}

export function oversizedFinding(shards: readonly ShardRow[]): Finding {
  const big = shardsBySize(shards)
    .filter((s) => s.bytes > SHARD_LARGE_BYTES)
    .sort((a, b) => b.bytes - a.bytes);
  if (!big.length)
    return {
      id: 'shards.oversized',
      family: 'shards',
      severity: 'ok',
      finding: `no shard over ${formatBytes(SHARD_LARGE_BYTES)}`,
      evidence: [],
    };
  return {
    id: 'shards.oversized',
    family: 'shards',
    severity: 'warn',
    finding: `${big.length} shard${big.length === 1 ? '' : 's'} over ${formatBytes(SHARD_LARGE_BYTES)}, the largest ${formatBytes(big[0].bytes)} (${big[0].index} shard ${big[0].shard}): recovering or moving it takes long, and a node's loss hurts more`,
    evidence: big.slice(0, NAMED).map((s) => `${s.index} shard ${s.shard}: ${formatBytes(s.bytes)}, ${formatCount(s.docs)} docs`),
    remedy:
      'more, smaller shards for new data (number_of_shards in the template, or a rollover by size); split a large index (POST <index>/_split/<target> with a multiple of its shards, the index write-blocked first) or delete old data (shardeck delete-by-query, then shardeck forcemerge)',
  };
}

export function docLimitFinding(shards: readonly ShardRow[]): Finding {
  const heavy = shardsBySize(shards)
    .filter((s) => s.docs > SHARD_DOC_WARN)
    .sort((a, b) => b.docs - a.docs);
  if (!heavy.length)
    return {
      id: 'shards.doc-limit',
      family: 'shards',
      severity: 'ok',
      finding: `no shard over ${formatCount(SHARD_DOC_WARN)} documents (the limit is ${formatCount(SHARD_DOC_LIMIT)})`,
      evidence: [],
    };
  const top = heavy[0];
  const critical = top.docs >= SHARD_DOC_LIMIT * SHARD_DOC_CRITICAL_SHARE;
  return {
    id: 'shards.doc-limit',
    family: 'shards',
    severity: critical ? 'critical' : 'warn',
    finding: `${heavy.length} shard${heavy.length === 1 ? '' : 's'} over ${formatCount(SHARD_DOC_WARN)} documents, the most ${formatCount(top.docs)} (${formatPercent((top.docs / SHARD_DOC_LIMIT) * 100, 1)} of Lucene's ${formatCount(SHARD_DOC_LIMIT)}): ${critical ? 'indexing into it fails soon' : 'it fills towards the hard limit'}`,
    evidence: heavy.slice(0, NAMED).map((s) => `${s.index} shard ${s.shard}: ${formatCount(s.docs)} docs, ${formatBytes(s.bytes)}`),
    remedy:
      'split the index to more shards (POST <index>/_split/<target>, the index write-blocked first) or roll over to a new index; documents deleted still count until merged (shardeck forcemerge with only_expunge_deletes)',
  };
}

export function undersizedFinding(shards: readonly ShardRow[], indices: readonly IndexRow[], capacity: Capacity): Finding {
  const open = new Set(indices.filter((i) => i.status === 'open' && !i.system).map((i) => i.name));
  const primaries = shardsBySize(shards.filter((s) => s.primary && open.has(s.index)));
  const small = primaries.filter((s) => s.bytes < SHARD_SMALL_BYTES);
  const evidence = [
    `${formatCount(small.length)} of ${formatCount(primaries.length)} primary shards of open indices under ${formatBytes(SHARD_SMALL_BYTES)}`,
    `shard capacity ${formatPercent(capacity.share * 100, 1)} used (${formatCount(capacity.open)} of ${formatCount(capacity.limit)})`,
  ];
  const many = small.length >= UNDERSIZED_MIN && small.length >= primaries.length * UNDERSIZED_SHARE;
  if (!many || capacity.share <= UNDERSIZED_CAPACITY_SHARE)
    return {
      id: 'shards.undersized',
      family: 'shards',
      severity: 'ok',
      finding: many
        ? `many small shards, but shard capacity is ${formatPercent(capacity.share * 100)} used: not yet a cost`
        : `small shards are not the most (${formatCount(small.length)} under ${formatBytes(SHARD_SMALL_BYTES)})`,
      evidence,
    };
  // The index with the most small shards first: where a shrink frees the most.
  const perIndex = new Map<string, number>();
  for (const s of small) perIndex.set(s.index, (perIndex.get(s.index) ?? 0) + 1);
  const worst = [...perIndex].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
  return {
    id: 'shards.undersized',
    family: 'shards',
    severity: 'warn',
    finding: `${formatCount(small.length)} shards under ${formatBytes(SHARD_SMALL_BYTES)} while shard capacity is ${formatPercent(capacity.share * 100)} used: small indices take the shard limit, not the disk`,
    evidence: [...evidence, ...worst.slice(0, NAMED).map(([i, n]) => `${i}: ${n} small shard${n === 1 ? '' : 's'}`)],
    remedy: `fewer shards per small index: shrink it to one (shardeck shrink ${worst[0][0]} --shards 1 --dry-run first) and number_of_shards 1 in the template for new ones`,
    fix: { command: `shardeck shrink ${worst[0][0]} --shards 1 --dry-run` },
  };
}

export function shardSizeFindings(shards: readonly ShardRow[], indices: readonly IndexRow[], capacity: Capacity): Finding[] {
  return [oversizedFinding(shards), docLimitFinding(shards), undersizedFinding(shards, indices, capacity)];
}
