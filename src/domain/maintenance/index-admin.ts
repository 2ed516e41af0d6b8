// Whole indices (issue 43 item 4) and aliases (item 5): a pattern resolved to names before the
// preview, what each one is (documents, size, the newest snapshot holding it, the project behind
// it), the indices no close or delete may touch (hidden and system ones, the write index of an
// alias), and the requests that name exactly the previewed indices, never the pattern.
import { projectIdOfIndex } from '../naming';
import { MODIFIED_AT } from '../delete/query';
import type { MutationPlan } from '../mutation/plan';
import { displayText } from '../text/display-text';
import { formatBytes, formatCount } from '../text/format';

type Json = Record<string, unknown>;

export type IndexAction = 'close' | 'open' | 'delete';

export interface IndexFacts {
  index: string;
  uuid: string;
  status: string;
  health: string;
  docs: number | null;
  bytes: number | null;
  hidden: boolean;
  /** The newest snapshot holding a whole copy (repository:snapshot), or null. */
  newestSnapshot: string | null;
  /** The newest document's modified_at (the platform's write time), or null: none, not mapped, or closed. */
  lastWrite: string | null;
  /** The platform project whose index this is (its name starts with the template's prefix), or null. */
  project: string | null;
}

/**
 * What a close, open or delete review says of one index beside its name, most telling first (a
 * narrow screen cuts the end): status, documents, size, newest snapshot, project, last write (to
 * the minute; --json has it whole). `warn`: a part said in yellow (no snapshot to go back to).
 * The command's list and the console's review both print these.
 */
export function indexFactParts(f: IndexFacts): { text: string; warn?: true }[] {
  return [
    { text: displayText(f.status) },
    { text: `${f.docs === null ? '-' : formatCount(f.docs)} docs` },
    { text: formatBytes(f.bytes) },
    f.newestSnapshot ? { text: `snapshot ${displayText(f.newestSnapshot)}` } : { text: 'no snapshot', warn: true },
    ...(f.project ? [{ text: `project ${displayText(f.project)}` }] : []),
    { text: f.lastWrite ? `last write ${f.lastWrite.slice(0, 16).replace('T', ' ')}` : 'last write not known' },
  ];
}

/** One row of GET _cat/aliases?format=json&h=alias,index,is_write_index. */
export interface AliasRow {
  alias: string;
  index: string;
  /** true / false as set; null when not set ("-"). */
  isWriteIndex: boolean | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');
const num = (v: unknown): number | null =>
  v === null || v === undefined || v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : null;

export function parseAliasRows(body: unknown): AliasRow[] {
  return (Array.isArray(body) ? body : []).map((r: Json) => ({
    alias: str(r.alias),
    index: str(r.index),
    isWriteIndex: r.is_write_index === 'true' ? true : r.is_write_index === 'false' ? false : null,
  }));
}

/**
 * The index an alias writes to: the one marked is_write_index, else its only index when not marked
 * false (Elasticsearch writes through an alias of one index to that index); null: writes refused.
 */
export function writeIndexOf(alias: string, rows: readonly AliasRow[]): string | null {
  const of = rows.filter((r) => r.alias === alias);
  const marked = of.find((r) => r.isWriteIndex === true);
  if (marked) return marked.index;
  return of.length === 1 && of[0].isWriteIndex !== false ? of[0].index : null;
}

/** The aliases this index is the write index of. */
export function writeAliasesOf(index: string, rows: readonly AliasRow[]): string[] {
  return [...new Set(rows.filter((r) => r.index === index).map((r) => r.alias))].filter((a) => writeIndexOf(a, rows) === index).sort();
}

/**
 * The facts of the previewed indices from _cat/indices (h=index,uuid,status,health,docs.count,
 * store.size, bytes=b) and their settings (index.hidden), with the newest snapshot of each.
 */
export function parseIndexFacts(
  cat: unknown,
  settings: unknown,
  newestSnapshot: (index: string) => string | null,
  lastWrites: Record<string, string> = {},
  templateVersion?: string,
): IndexFacts[] {
  const s = (settings ?? {}) as Record<string, { settings?: { index?: { hidden?: unknown } } }>;
  return (Array.isArray(cat) ? cat : [])
    .map((r: Json) => {
      const index = str(r.index);
      return {
        index,
        uuid: str(r.uuid),
        status: str(r.status),
        health: str(r.health),
        docs: num(r['docs.count']),
        bytes: num(r['store.size']),
        hidden: str(s[index]?.settings?.index?.hidden) === 'true',
        newestSnapshot: newestSnapshot(index),
        lastWrite: lastWrites[index] ?? null,
        project: projectIdOfIndex(index, templateVersion),
      };
    })
    .sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : 0));
}

/** The aggregation that reads each index's newest modified_at in one search. */
export function lastWriteSearch(count: number) {
  return {
    size: 0,
    aggs: { by: { terms: { field: '_index', size: Math.max(count, 1) }, aggs: { last: { max: { field: MODIFIED_AT } } } } },
  };
}

/** Its answer: index -> ISO time of its newest modified_at (indices without one are left out). */
export function parseLastWrites(body: unknown): Record<string, string> {
  const buckets =
    ((body ?? {}) as { aggregations?: { by?: { buckets?: { key?: unknown; last?: { value?: unknown } }[] } } }).aggregations?.by?.buckets ??
    [];
  const out: Record<string, string> = {};
  for (const b of buckets)
    if (typeof b.key === 'string' && typeof b.last?.value === 'number') out[b.key] = new Date(b.last.value).toISOString();
  return out;
}

/**
 * Why these indices may not be closed or deleted (one sentence), or null. Hidden and system
 * indices belong to Elasticsearch or a feature; the write index of an alias takes the writes of
 * everything that writes through it.
 */
export function refusal(action: IndexAction, facts: readonly IndexFacts[], aliases: readonly AliasRow[]): string | null {
  const list = (xs: string[]) => xs.slice(0, 5).join(', ') + (xs.length > 5 ? `, ... (${xs.length - 5} more)` : '');
  const system = facts.filter((f) => f.index.startsWith('.') || f.hidden).map((f) => f.index);
  if (system.length)
    return `${list(system)} ${system.length === 1 ? 'is a' : 'are'} hidden or system ${system.length === 1 ? 'index' : 'indices'}: shardeck does not ${action} those; narrow the pattern (nothing was sent)`;
  if (action === 'open') return null;
  const writing = facts.flatMap((f) => writeAliasesOf(f.index, aliases).map((a) => `${f.index} (alias ${a})`));
  if (writing.length)
    return `${list(writing)}: the write index of an alias, which takes every write sent to the alias; move the alias first (shardeck alias swap ALIAS --from OLD --to NEW), then ${action} it (nothing was sent)`;
  return null;
}

/** Already in the state asked for: said, not sent. */
export function alreadyThere(action: IndexAction, facts: readonly IndexFacts[]): string[] {
  if (action === 'delete') return [];
  const want = action === 'close' ? 'close' : 'open';
  return facts.filter((f) => f.status === want).map((f) => f.index);
}

/** What the operator types to delete: the count, then each project index's name (a project's data, typed by name). */
export function deleteConfirmText(facts: readonly IndexFacts[]): string {
  return [String(facts.length), ...facts.filter((f) => f.project !== null).map((f) => f.index)].join(' ');
}

/** --expect N and --confirm-project NAME (each) as the text the guard compares with deleteConfirmText. */
export function typedAheadText(expect: string | undefined, projectNames: readonly string[]): string | undefined {
  return expect === undefined ? undefined : [expect.trim(), ...[...projectNames].sort()].join(' ');
}

function catPath(names: readonly string[]): string {
  return `/_cat/indices/${names.map(encodeURIComponent).join(',')}`;
}

/**
 * The indices a summary names: "2 indices: a, b" when they are the names given (marked on the
 * pane, listed on the line), with the pattern that matched them only when there was one.
 */
function chosenText(count: string, pattern: string, names: readonly string[]): string {
  const given = pattern
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const plain = given.length === names.length && given.every((p) => names.includes(p));
  return `${count}${plain ? '' : ` that "${pattern}" matched`}: ${names.join(', ')}`;
}

/**
 * The request for exactly these indices (their names, comma separated: never the pattern). The
 * guard checks right before sending that each name is still the index the preview showed (same
 * UUID): one deleted since, or re-created under its name, stops it; an index created since that
 * the pattern would also match is not named, so it is not touched.
 */
export function indexActionPlan(action: IndexAction, facts: readonly IndexFacts[], pattern: string): MutationPlan {
  const names = facts.map((f) => f.index).sort();
  const list = names.map(encodeURIComponent).join(',');
  const count = `${names.length} ${names.length === 1 ? 'index' : 'indices'}`;
  const chosen = chosenText(count, pattern, names);
  const base = { querystring: {}, resolved: { expression: names.join(','), indices: names } };
  if (action === 'delete')
    return {
      ...base,
      method: 'DELETE',
      path: `/${list}`,
      risk: 'destructive',
      target: names.join(','),
      confirmText: deleteConfirmText(facts),
      summary: `delete ${chosen} (documents and all)`,
      verify: {
        path: `/${list}/_settings`,
        querystring: { ignore_unavailable: 'true', expand_wildcards: 'all', filter_path: '*.settings.index.uuid' },
        check(body) {
          const left = Object.keys((body ?? {}) as Json).filter((n) => names.includes(n));
          return left.length === 0 ? { ok: true, message: `${count} deleted` } : { ok: false, message: `still there: ${left.join(', ')}` };
        },
      },
    };
  const want = action === 'close' ? 'close' : 'open';
  return {
    ...base,
    method: 'POST',
    path: `/${list}/_${action}`,
    risk: 'reversible',
    target: names.join(','),
    summary: action === 'close' ? `close ${chosen} (searches and writes refused until opened; data kept)` : `open ${chosen}`,
    verify: {
      path: catPath(names),
      querystring: { format: 'json', h: 'index,status', expand_wildcards: 'all' },
      check(body) {
        const rows = (Array.isArray(body) ? body : []) as { index?: string; status?: string }[];
        const wrong = names.filter((n) => rows.find((r) => r.index === n)?.status !== want);
        return wrong.length === 0
          ? { ok: true, message: `${count} ${want === 'close' ? 'closed' : 'open'}` }
          : { ok: false, message: `not ${want === 'close' ? 'closed' : 'open'}: ${wrong.join(', ')}` };
      },
    },
  };
}
