// The pure half of the guarded mutation path (services/guard.ts sends): what a mutation is, how
// it is previewed (with the equivalent curl line), how much confirmation its risk asks for, which
// index expressions it may target, and the audit record it leaves.

export type MutationMethod = 'PUT' | 'POST' | 'DELETE';

export interface MutationRequest {
  method: MutationMethod;
  path: string;
  querystring: Record<string, string>;
  body?: unknown;
}

/** A GET that reads the cluster back after the mutation, and what it should show. */
export interface VerifyCheck {
  path: string;
  querystring: Record<string, string>;
  check(body: unknown): { ok: boolean; message: string };
}

/**
 * reversible: a setting that can be set back (a keypress confirms it).
 * destructive: deletes data or cannot be undone (the operator types the target's name).
 */
export type Risk = 'reversible' | 'destructive';

export interface MutationPlan extends MutationRequest {
  risk: Risk;
  /** What is changed, as the operator names it (index, pattern, template, "cluster settings"). */
  target: string;
  /** One line saying what the mutation does. */
  summary: string;
  /** What the operator types to confirm a destructive plan, when not the target's name (delete-by-query: the document count). */
  confirmText?: string;
  verify?: VerifyCheck;
}

export interface PreviewConnection {
  /** Already without credentials (cluster/connection.ts redactUrl). */
  url: string;
  user?: string;
  caFile?: string;
  insecure?: boolean;
}

export interface Preview {
  method: MutationMethod;
  /** Path with its query string. */
  path: string;
  body?: unknown;
  risk: Risk;
  target: string;
  summary: string;
  /** The same request for the node's own tools, credentials elided. */
  curl: string;
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function pathWithQuery(req: Pick<MutationRequest, 'path' | 'querystring'>): string {
  const qs = new URLSearchParams(req.querystring).toString();
  return qs ? `${req.path}?${qs}` : req.path;
}

export function curlLine(req: Omit<MutationRequest, 'method'> & { method: MutationMethod | 'GET' }, conn: PreviewConnection): string {
  const parts = ['curl', '-X', req.method, shellQuote(conn.url.replace(/\/$/, '') + pathWithQuery(req))];
  // The password never appears: the operator fills it in (or curl asks for it).
  if (conn.user !== undefined) parts.push('-u', shellQuote(`${conn.user}:***`));
  if (conn.caFile) parts.push('--cacert', shellQuote(conn.caFile));
  if (conn.insecure) parts.push('-k');
  if (req.body !== undefined) parts.push('-H', shellQuote('Content-Type: application/json'), '-d', shellQuote(JSON.stringify(req.body)));
  return parts.join(' ');
}

export function buildPreview(plan: MutationPlan, conn: PreviewConnection): Preview {
  return {
    method: plan.method,
    path: pathWithQuery(plan),
    body: plan.body,
    risk: plan.risk,
    target: plan.target,
    summary: plan.summary,
    curl: curlLine(plan, conn),
  };
}

/** Preview as text lines (CLI output and the wizard's preview box share it). */
export function previewLines(p: Preview): string[] {
  const lines = [p.summary, `${p.method} ${p.path}`];
  if (p.body !== undefined) lines.push(JSON.stringify(p.body));
  lines.push(`equivalent: ${p.curl}`);
  return lines;
}

// --- confirmation -----------------------------------------------------------------------------

export type ConfirmationNeed = { kind: 'key' } | { kind: 'type'; expected: string };

/** How the operator said yes: --yes in a script, a keypress, or the typed target name. */
export type Confirmation = { by: 'yes-flag' } | { by: 'key' } | { by: 'typed'; text: string };

export function confirmationNeeded(plan: Pick<MutationPlan, 'risk' | 'target' | 'confirmText'>): ConfirmationNeed {
  return plan.risk === 'destructive' ? { kind: 'type', expected: plan.confirmText ?? plan.target } : { kind: 'key' };
}

/** A keypress is not enough for a destructive plan; typed text must be the target's name exactly. */
export function confirmationSatisfies(plan: Pick<MutationPlan, 'risk' | 'target' | 'confirmText'>, c: Confirmation): boolean {
  if (c.by === 'yes-flag') return true;
  const need = confirmationNeeded(plan);
  if (need.kind === 'key') return true;
  return c.by === 'typed' && c.text === need.expected;
}

// --- targets ----------------------------------------------------------------------------------

export interface TargetOptions {
  /** The operator asked for system (dot) indices explicitly (--include-system). */
  includeSystem?: boolean;
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
    if (/[\s"\\/<>|?#]/.test(part)) return `"${part}" contains a character index names cannot have: check the spelling`;
    if (part.startsWith('.') && !opts.includeSystem)
      return `"${part}" names system (dot) indices: add --include-system if you really mean them`;
  }
  return null;
}

export type TargetResolution =
  | { ok: true; expression: string; indices: string[]; isPattern: boolean }
  | { ok: false; error: string };

export function isPattern(expr: string): boolean {
  return expr.includes('*') || expr.includes(',');
}

/**
 * Judges what an expression matched on the cluster (resolved with expand_wildcards=all, so hidden
 * indices count). `matched` is null when Elasticsearch said an exact name does not exist.
 */
export function judgeResolution(expr: string, matched: string[] | null, opts: TargetOptions = {}): TargetResolution {
  if (matched === null) return { ok: false, error: `no index matches "${expr}" (Elasticsearch: no such index): check the name with shardeck status or the Indices pane` };
  if (matched.length === 0) return { ok: false, error: `the pattern "${expr}" matches no index: check it with the Indices pane (nothing was changed)` };
  const system = matched.filter((n) => n.startsWith('.'));
  if (system.length && !opts.includeSystem) {
    const shown = system.slice(0, 3).join(', ') + (system.length > 3 ? ', ...' : '');
    return { ok: false, error: `"${expr}" also matches ${system.length} system (dot) ${system.length === 1 ? 'index' : 'indices'} (${shown}): narrow the pattern, or add --include-system if you mean them` };
  }
  return { ok: true, expression: expr, indices: [...matched].sort(), isPattern: isPattern(expr) };
}

/** "3 indices: a, b, c" — how many a pattern matches, shown before anything runs. */
export function describeMatch(indices: string[], max = 5): string {
  const head = indices.slice(0, max).join(', ');
  const more = indices.length > max ? `, ... (${indices.length - max} more)` : '';
  return `${indices.length} ${indices.length === 1 ? 'index' : 'indices'}: ${head}${more}`;
}

/**
 * The seed's request that lifts the flood-stage block on every index. It is the one mutation
 * allowed to target all indices (`*`), and only with exactly this body.
 */
export const UNBLOCK_ALL_REQUEST: MutationRequest = {
  method: 'PUT',
  path: '/*/_settings',
  querystring: {},
  body: { 'index.blocks.read_only_allow_delete': null },
};

export function isUnblockAllRequest(req: MutationRequest): boolean {
  return (
    req.method === UNBLOCK_ALL_REQUEST.method &&
    req.path === UNBLOCK_ALL_REQUEST.path &&
    Object.keys(req.querystring).length === 0 &&
    JSON.stringify(req.body) === JSON.stringify(UNBLOCK_ALL_REQUEST.body)
  );
}

/**
 * Last line of defence in the guard: the index expression in a plan's path (first segment unless
 * it is an API like _cluster) must pass checkIndexExpression, except the unblock request.
 */
export function checkPlanPath(req: MutationRequest, opts: TargetOptions = {}): string | null {
  if (isUnblockAllRequest(req)) return null;
  const first = decodeURIComponent(req.path.replace(/^\//, '').split('/')[0] ?? '');
  if (first.startsWith('_') && first !== '_all') return null;
  return checkIndexExpression(first, opts);
}

// --- audit ------------------------------------------------------------------------------------

export interface AuditRecord {
  time: string;
  profile: string;
  /** The platform user when the profile is signed in. */
  platformUser?: string;
  /** The node, without credentials. */
  url: string;
  /** The request sent to the node; absent for a command run on the node's host (below). */
  request?: { method: MutationMethod; path: string; querystring: Record<string, string>; body?: unknown };
  /** A shell command run on the host (the corruption checklist's stop, backup, repair, start). */
  command?: string;
  risk: Risk;
  target: string;
  summary: string;
  confirmedBy: Confirmation['by'];
  /** task: the id a wait_for_completion=false request answered with, to re-attach (shardeck tasks). */
  outcome: { ok: boolean; status?: number; error?: string; durationMs: number; task?: string };
}

export function parseAuditLog(text: string): { records: AuditRecord[]; unreadable: number } {
  const records: AuditRecord[] = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line) as AuditRecord);
    } catch {
      unreadable++;
    }
  }
  return { records, unreadable };
}

export function formatAuditRecord(r: AuditRecord): string {
  const outcome = r.outcome.ok ? `ok ${r.outcome.status ?? ''}${r.outcome.task ? ` task ${r.outcome.task}` : ''}`.trim() : `FAILED ${r.outcome.status ?? ''} ${r.outcome.error ?? ''}`.trim();
  const who = r.platformUser ? `${r.profile}/${r.platformUser}` : r.profile;
  if (!r.request) return `${r.time} ${who} $ ${r.command ?? '?'} -> ${outcome}`;
  const body = r.request.body === undefined ? '' : ` ${JSON.stringify(r.request.body)}`;
  return `${r.time} ${who} ${r.request.method} ${pathWithQuery(r.request)}${body} -> ${outcome}`;
}
