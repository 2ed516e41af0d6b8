// Aliases (issue 43 item 5): each alias with its indices and its write index, and the one atomic
// _aliases request that adds, removes or swaps an index, refused when it would leave an alias that
// had a write index without one (writes through it would then fail).
import type { MutationPlan } from '../mutation/plan';
import { compareText } from '../text/order';
import { parseAliasRows, writeIndexOf, type AliasRow } from './index-admin';

/** One alias of an index, and whether the alias marks it its write index (is_write_index; shardeck aliases also counts an unmarked alias's only index). */
export interface IndexAlias {
  name: string;
  write: boolean;
}

/**
 * GET /<indices>/_alias: {<index>: {aliases: {<name>: {is_write_index?}}}} as each index's aliases,
 * sorted by name, a write alias marked. The index detail, the x-ray and the restore read it.
 */
export function aliasesByIndex(body: unknown): Record<string, IndexAlias[]> {
  return Object.fromEntries(
    Object.entries(record(body)).map(([index, v]) => [
      index,
      Object.entries(record(record(v).aliases))
        .map(([name, a]) => ({ name, write: record(a).is_write_index === true }))
        .sort((a, b) => compareText(a.name, b.name)),
    ]),
  );
}

/** An object of the answer, or an empty one for anything else (the answer is the cluster's: untrusted). */
const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export interface AliasView {
  alias: string;
  indices: string[];
  /** Where writes through the alias go; null: nowhere (every write to the alias fails). */
  writeIndex: string | null;
  /** The write index is marked is_write_index (else: it is the alias's only index). */
  explicit: boolean;
}

export function aliasViews(rows: readonly AliasRow[]): AliasView[] {
  const names = [...new Set(rows.map((r) => r.alias))].sort();
  return names.map((alias) => {
    const of = rows.filter((r) => r.alias === alias);
    const writeIndex = writeIndexOf(alias, rows);
    return {
      alias,
      indices: of.map((r) => r.index).sort(),
      writeIndex,
      explicit: writeIndex !== null && of.some((r) => r.index === writeIndex && r.isWriteIndex === true),
    };
  });
}

export type AliasAction =
  { add: { index: string; alias: string; is_write_index?: boolean } } | { remove: { index: string; alias: string; must_exist: true } };

/** The alias rows after the actions, as Elasticsearch applies them (in order, atomically). */
export function afterActions(rows: readonly AliasRow[], actions: readonly AliasAction[]): AliasRow[] {
  let out = [...rows];
  for (const a of actions) {
    if ('remove' in a) out = out.filter((r) => !(r.alias === a.remove.alias && r.index === a.remove.index));
    else {
      const { index, alias, is_write_index } = a.add;
      out = out.filter((r) => !(r.alias === alias && r.index === index));
      out.push({ alias, index, isWriteIndex: is_write_index ?? null });
    }
  }
  return out;
}

export type AliasChange =
  | { kind: 'add'; alias: string; index: string; write: boolean }
  | { kind: 'remove'; alias: string; index: string }
  | { kind: 'swap'; alias: string; from: string; to: string };

export type AliasPlanCheck = { ok: true; plan: MutationPlan; actions: AliasAction[] } | { ok: false; error: string };

function actionsFor(c: AliasChange, rows: readonly AliasRow[]): AliasAction[] | string {
  const members = rows
    .filter((r) => r.alias === c.alias)
    .map((r) => r.index)
    .sort();
  const write = writeIndexOf(c.alias, rows);
  const explicitWrite = rows.find((r) => r.alias === c.alias && r.isWriteIndex === true)?.index ?? null;
  if (c.kind === 'add') {
    if (members.includes(c.index) && !c.write) return `${c.index} is already in the alias ${c.alias}: nothing to change`;
    if (c.write && write === c.index && explicitWrite === c.index)
      return `${c.index} is already the write index of ${c.alias}: nothing to change`;
    const actions: AliasAction[] = [];
    // The old write index stops taking writes in the same request (one write index at a time).
    if (c.write && explicitWrite && explicitWrite !== c.index)
      actions.push({ add: { index: explicitWrite, alias: c.alias, is_write_index: false } });
    // An alias of one unmarked index writes to it; a second index would leave it with none: mark it.
    if (!c.write && write && !explicitWrite) actions.push({ add: { index: write, alias: c.alias, is_write_index: true } });
    actions.push({ add: { index: c.index, alias: c.alias, ...(c.write ? { is_write_index: true } : {}) } });
    return actions;
  }
  if (c.kind === 'remove') {
    if (!members.includes(c.index))
      return `${c.index} is not in the alias ${c.alias}${members.length ? ` (its indices: ${members.join(', ')})` : ' (no such alias)'}: nothing to remove`;
    return [{ remove: { index: c.index, alias: c.alias, must_exist: true } }];
  }
  if (!members.includes(c.from))
    return `${c.from} is not in the alias ${c.alias}${members.length ? ` (its indices: ${members.join(', ')})` : ' (no such alias)'}: nothing to swap`;
  if (members.includes(c.to))
    return `${c.to} is already in the alias ${c.alias}: remove ${c.from} instead (shardeck alias remove ${c.alias} ${c.from})`;
  // The write index moves with the swap when it was the one swapped out.
  return [
    { remove: { index: c.from, alias: c.alias, must_exist: true } },
    { add: { index: c.to, alias: c.alias, ...(write === c.from ? { is_write_index: true } : {}) } },
  ];
}

function describe(a: AliasAction): string {
  if ('remove' in a) return `remove ${a.remove.index}`;
  const w = a.add.is_write_index;
  return `add ${a.add.index}${w === true ? ' as the write index' : w === false ? ' (no longer the write index)' : ''}`;
}

/**
 * The change as one POST /_aliases (atomic: all its actions or none), the indices it names pinned
 * for the guard, read back from GET /_alias/<alias>. Refused when the alias had a write index and
 * would be left, still existing, without one.
 */
export function aliasPlan(c: AliasChange, rows: readonly AliasRow[]): AliasPlanCheck {
  const actions = actionsFor(c, rows);
  if (typeof actions === 'string') return { ok: false, error: actions };
  const after = afterActions(rows, actions);
  const stillThere = after.some((r) => r.alias === c.alias);
  const writeBefore = writeIndexOf(c.alias, rows);
  const writeAfter = writeIndexOf(c.alias, after);
  if (writeBefore !== null && stillThere && writeAfter === null)
    return {
      ok: false,
      error: `this would leave the alias ${c.alias} without a write index (writes to it would fail): move it first with shardeck alias swap ${c.alias} --from ${writeBefore} --to NEW, or add another as the write index (shardeck alias add ${c.alias} INDEX --write); nothing was sent`,
    };
  const indices = [...new Set(actions.map((a) => ('add' in a ? a.add.index : a.remove.index)))].sort();
  const members = after
    .filter((r) => r.alias === c.alias)
    .map((r) => r.index)
    .sort();
  return {
    ok: true,
    actions,
    plan: {
      method: 'POST',
      path: '/_aliases',
      querystring: {},
      body: { actions },
      risk: 'reversible',
      target: c.alias,
      summary: `alias ${c.alias}: ${actions.map(describe).join(', ')} (one atomic request); then ${members.length ? `${members.join(', ')}, writes to ${writeAfter ?? 'none'}` : 'the alias is gone'}`,
      resolved: { expression: indices.join(','), indices },
      verify: {
        path: `/_cat/aliases/${encodeURIComponent(c.alias)}`,
        querystring: { format: 'json', h: 'alias,index,is_write_index', expand_wildcards: 'all' },
        check(body) {
          const now = parseAliasRows(body).filter((r) => r.alias === c.alias);
          const got = now.map((r) => r.index).sort();
          const write = writeIndexOf(c.alias, now);
          return got.join(',') === members.join(',') && write === writeAfter
            ? {
                ok: true,
                message: members.length ? `${c.alias}: ${got.join(', ')}; writes go to ${write ?? 'none'}` : `${c.alias} is gone`,
              }
            : { ok: false, message: `${c.alias} reads back as ${got.join(', ') || 'no index'}, writes to ${write ?? 'none'}` };
        },
      },
    },
  };
}
