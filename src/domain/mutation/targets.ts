// Which index expressions a mutation may target: the syntax check, what a pattern matched, the
// indices pinned at preview time, and the same set (and UUIDs) checked again right before sending.
import { NOT_IN_INDEX_NAMES } from '../naming';
import { pathWithQuery, type MutationPlan, type MutationRequest, type ResolvedTarget } from './plan';
import { displayText } from '../text/display-text';

export interface TargetOptions {
  /** The operator asked for system (dot) indices explicitly (--include-system). */
  includeSystem?: boolean;
  /** How this surface asks for them, when not the flag alone (a form's field). */
  includeSystemHow?: string;
}

const WILDCARD_ONLY = /^\*+$/;

/**
 * Syntax check of an index expression before anything is sent: one sentence saying what is
 * wrong, or null. Refuses what would match more than the operator can see: `*`, `_all`, empty
 * names (also hidden in a comma list), exclusions, and dot (system) names unless asked for.
 */
export function checkIndexExpression(expr: string, opts: TargetOptions = {}): string | null {
  if (expr.trim() === '') return 'no index given: name an index or a pattern such as service_v9_*';
  const parts = expr.split(',');
  for (const raw of parts) {
    const part = raw.trim();
    if (part === '') return `"${expr}" contains an empty name (a stray comma): name each index once, separated by single commas`;
    if (WILDCARD_ONLY.test(part) || part === '_all')
      return `"${part}" would match every index: name the indices or a narrower pattern such as service_v9_*`;
    if (part.startsWith('-')) return `"${part}" is an exclusion, which hides what is matched: name the indices to change instead`;
    if (part.startsWith('_')) return `"${part}" is not an index name (names cannot start with _): check the spelling`;
    if (NOT_IN_INDEX_NAMES.test(part) || part.includes('?'))
      return `"${part}" contains a character index names cannot have: check the spelling`;
    if (part.startsWith('.') && !opts.includeSystem)
      return `"${part}" names system (dot) indices: ${opts.includeSystemHow ?? 'add --include-system'} if you really mean them`;
  }
  return null;
}

export type TargetResolution = { ok: true; expression: string; indices: string[]; isPattern: boolean } | { ok: false; error: string };

export function isPattern(expr: string): boolean {
  return expr.includes('*') || expr.includes(',');
}

/**
 * Judges what an expression matched on the cluster (resolved with expand_wildcards=all, so hidden
 * indices count). `matched` is null when Elasticsearch said an exact name does not exist.
 */
export function judgeResolution(expr: string, matched: string[] | null, opts: TargetOptions = {}): TargetResolution {
  if (matched === null)
    return {
      ok: false,
      error: `no index matches "${expr}" (Elasticsearch: no such index): check the name with shardeck cat indices or the Indices pane`,
    };
  if (matched.length === 0)
    return { ok: false, error: `the pattern "${expr}" matches no index: check it with the Indices pane (nothing was changed)` };
  const system = matched.filter((n) => n.startsWith('.'));
  if (system.length && !opts.includeSystem) {
    const shown = system.slice(0, 3).join(', ') + (system.length > 3 ? ', ...' : '');
    return {
      ok: false,
      error: `"${expr}" also matches ${system.length} system (dot) ${system.length === 1 ? 'index' : 'indices'} (${shown}): narrow the pattern, or add --include-system if you mean them`,
    };
  }
  return { ok: true, expression: expr, indices: [...matched].sort(), isPattern: isPattern(expr) };
}

/** "3 indices: a, b, c" — how many a pattern matches, shown before anything runs. */
export function describeMatch(indices: string[], max = 5): string {
  const head = indices.slice(0, max).map(displayText).join(', ');
  const more = indices.length > max ? `, ... (${indices.length - max} more)` : '';
  return `${indices.length} ${indices.length === 1 ? 'index' : 'indices'}: ${head}${more}`;
}

/** The first path segment: the index expression of an index API (`/<expr>/_settings`). */
function firstSegment(path: string): string {
  return path.replace(/^\//, '').split('/')[0] ?? '';
}

function withFirstSegment(path: string, segment: string): string {
  return '/' + [segment, ...path.replace(/^\//, '').split('/').slice(1)].join('/');
}

/**
 * The plan sent to the indices the preview showed, not to the expression: its path (and its
 * read-back's, when it names the same expression) names them as a comma list, and the plan keeps
 * the expression so the guard can check, right before sending, that it still matches this set.
 */
export function pinIndices(plan: MutationPlan, expression: string, indices: string[]): MutationPlan {
  const names = [...indices].sort();
  const segment = names.map(encodeURIComponent).join(',');
  const from = firstSegment(plan.path);
  const pinned: MutationPlan = { ...plan, path: withFirstSegment(plan.path, segment), resolved: { expression, indices: names } };
  if (plan.verify && firstSegment(plan.verify.path) === from)
    pinned.verify = { ...plan.verify, path: withFirstSegment(plan.verify.path, segment) };
  return pinned;
}

/**
 * Null when the expression still matches what the preview showed; else one sentence naming the
 * indices that appeared or went away since. `now` is null when Elasticsearch says no such index.
 */
export function compareResolution(previewed: ResolvedTarget, now: string[] | null): string | null {
  const was = new Set(previewed.indices);
  const is = new Set(now ?? []);
  const added = [...is].filter((i) => !was.has(i)).sort();
  const gone = [...was].filter((i) => !is.has(i)).sort();
  if (!added.length && !gone.length) return null;
  const list = (xs: string[]) => xs.slice(0, 5).join(', ') + (xs.length > 5 ? `, ... (${xs.length - 5} more)` : '');
  const parts = [
    ...(added.length
      ? [`now also matches ${added.length} ${added.length === 1 ? 'index' : 'indices'} the preview did not show (${list(added)})`]
      : []),
    ...(gone.length ? [`no longer matches ${gone.length} previewed ${gone.length === 1 ? 'index' : 'indices'} (${list(gone)})`] : []),
  ];
  return `"${previewed.expression}" ${parts.join(' and ')}: nothing was sent; preview again and confirm what it matches now`;
}

/**
 * After a wait (a follower's approval, another change's lock): the same names must still be the
 * same indices. An index deleted and re-created under its name meanwhile has a new UUID: refused.
 */
export function compareUuids(
  expression: string,
  before: ReadonlyMap<string, string>,
  now: ReadonlyMap<string, string> | null,
): string | null {
  const names = [...before.keys()].sort();
  const nowNames = [...(now?.keys() ?? [])].sort();
  if (names.join(',') !== nowNames.join(',')) return compareResolution({ expression, indices: names }, nowNames);
  const renewed = names.filter((n) => now!.get(n) !== before.get(n));
  if (!renewed.length) return null;
  return `"${expression}": ${renewed.slice(0, 5).join(', ')}${renewed.length > 5 ? ` and ${renewed.length - 5} more` : ''} ${renewed.length === 1 ? 'was' : 'were'} deleted and re-created since the preview (another index under the same name): nothing was sent; preview again and confirm what it matches now`;
}

/** Elasticsearch refuses a request line longer than http.max_initial_line_length (4 KB by default). */
export const MAX_REQUEST_LINE = 4096;

/** The request line ("PUT /a,b/_settings?x=y HTTP/1.1") must fit Elasticsearch's limit; else one sentence. */
export function checkRequestLine(req: MutationRequest & { resolved?: ResolvedTarget }): string | null {
  const line = `${req.method} ${pathWithQuery(req)} HTTP/1.1`;
  if (line.length <= MAX_REQUEST_LINE) return null;
  const what = req.resolved ? `naming the ${req.resolved.indices.length} indices "${req.resolved.expression}" matches` : 'this request';
  return `${what} takes a ${line.length}-byte request line, over Elasticsearch's ${MAX_REQUEST_LINE}-byte limit: narrow the pattern (e.g. service_v9_a*) and run it in parts; nothing was sent`;
}

/**
 * Last line of defence in the guard: the index expression in a plan's path (first segment unless
 * it is an API like _cluster) must pass checkIndexExpression: no request reaches `*` or `_all`,
 * the flood-stage unblock included (it names the blocked indices).
 */
export function checkPlanPath(req: MutationRequest & { resolved?: ResolvedTarget }, opts: TargetOptions = {}): string | null {
  const tooLong = checkRequestLine(req);
  if (tooLong) return tooLong;
  const first = decodeURIComponent(firstSegment(req.path));
  if (first.startsWith('_') && first !== '_all') return null;
  return checkIndexExpression(first, opts);
}
