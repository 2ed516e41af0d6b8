// The pure half of the guarded mutation path (services/guard.ts sends): what a mutation is, how
// it is previewed (with the equivalent curl line), how much confirmation its risk asks for, which
// index expressions it may target, and the audit record it leaves.
import { NOT_IN_INDEX_NAMES } from './naming';
import { displayText } from './display-text';

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
  /**
   * The concrete indices the preview showed for the operator's expression (pinIndices). The path
   * names exactly these; right before sending, the guard resolves the expression again and refuses
   * when it matches another set, so an index created after the preview is never touched.
   */
  resolved?: ResolvedTarget;
}

export interface ResolvedTarget {
  expression: string;
  indices: string[];
}

export interface PreviewConnection {
  /** Already without credentials (domain/urls.ts urlForMessage). */
  url: string;
  user?: string;
  caFile?: string;
  insecure?: boolean;
  /** The node's search_curl wrapper, when it has one: previews show it instead of curl. */
  searchCurl?: SearchCurl;
}

/**
 * The wrapper that nodes upgraded with the deployment tooling carry (it supplies the credentials
 * and CA itself). Its argument form is not documented: `curl` (default) passes curl's own
 * arguments with the full URL; `path` passes the path (with its query) instead of the URL.
 */
export interface SearchCurl {
  command: string;
  form: SearchCurlForm;
}
export type SearchCurlForm = 'curl' | 'path';
export const SEARCH_CURL_FORMS: readonly SearchCurlForm[] = ['curl', 'path'];

export interface Preview {
  method: MutationMethod;
  /** Path with its query string. */
  path: string;
  body?: unknown;
  risk: Risk;
  target: string;
  summary: string;
  /** The same request for the node's own tools; curl asks for the password itself. */
  curl: string;
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function pathWithQuery(req: Pick<MutationRequest, 'path' | 'querystring'>): string {
  const qs = new URLSearchParams(req.querystring).toString();
  return qs ? `${req.path}?${qs}` : req.path;
}

type AnyRequest = Omit<MutationRequest, 'method'> & { method: MutationMethod | 'GET' | 'HEAD' };

/**
 * The argv of one request through search_curl: the ONE place its argument form lives (previews
 * print it, cluster/search-curl.ts runs it). `body`: 'inline' (-d JSON, for a line to copy) or
 * 'stdin' (--data-binary @-, for running it).
 */
export function searchCurlArgv(req: AnyRequest, url: string, sc: SearchCurl, body: 'inline' | 'stdin' = 'inline'): string[] {
  const target = sc.form === 'path' ? pathWithQuery(req) : url.replace(/\/$/, '') + pathWithQuery(req);
  const argv = [sc.command, '-X', req.method, target];
  if (req.body !== undefined) argv.push('-H', 'Content-Type: application/json', ...(body === 'stdin' ? ['--data-binary', '@-'] : ['-d', JSON.stringify(req.body)]));
  return argv;
}

export function curlLine(req: AnyRequest, conn: PreviewConnection): string {
  if (conn.searchCurl) {
    // The wrapper brings the credentials: no -u, --cacert or -k.
    const [command, ...args] = searchCurlArgv(req, conn.url, conn.searchCurl);
    return [/^[\w./-]+$/.test(command!) ? command : shellQuote(command!), ...args.map((a) => (/^-/.test(a) || /^[A-Z]+$/.test(a) ? a : shellQuote(a)))].join(' ');
  }
  const parts = ['curl', '-X', req.method, shellQuote(conn.url.replace(/\/$/, '') + pathWithQuery(req))];
  // -u with the user alone: curl asks for the password, so the line runs as shown and the password never appears.
  if (conn.user !== undefined) parts.push('-u', shellQuote(conn.user));
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
  // The summary names the target: one line, whatever the name holds.
  const lines = [displayText(p.summary), `${p.method} ${p.path}`];
  if (p.body !== undefined) lines.push(JSON.stringify(p.body));
  lines.push(`equivalent: ${p.curl}`);
  return lines;
}

// --- confirmation -----------------------------------------------------------------------------

export type ConfirmationNeed = { kind: 'key' } | { kind: 'type'; expected: string };

/**
 * How the operator said yes: --yes in a script, a keypress, or the typed target name. With --yes,
 * `text` is what a flag typed ahead for a destructive plan (--expect N, --accept-data-loss INDEX).
 */
export type Confirmation = { by: 'yes-flag'; text?: string } | { by: 'key' } | { by: 'typed'; text: string };

export function confirmationNeeded(plan: Pick<MutationPlan, 'risk' | 'target' | 'confirmText'>): ConfirmationNeed {
  return plan.risk === 'destructive' ? { kind: 'type', expected: plan.confirmText ?? plan.target } : { kind: 'key' };
}

/**
 * A keypress or --yes confirms a reversible plan. A destructive one needs its text exactly (the
 * target's name, or the document count), typed or given by a flag along with --yes: --yes alone
 * never confirms data loss.
 */
export function confirmationSatisfies(plan: Pick<MutationPlan, 'risk' | 'target' | 'confirmText'>, c: Confirmation): boolean {
  const need = confirmationNeeded(plan);
  if (need.kind === 'key') return true;
  return c.by !== 'key' && c.text === need.expected;
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
    if (NOT_IN_INDEX_NAMES.test(part) || part.includes('?')) return `"${part}" contains a character index names cannot have: check the spelling`;
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
  if (matched === null) return { ok: false, error: `no index matches "${expr}" (Elasticsearch: no such index): check the name with shardeck cat indices or the Indices pane` };
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
  if (plan.verify && firstSegment(plan.verify.path) === from) pinned.verify = { ...plan.verify, path: withFirstSegment(plan.verify.path, segment) };
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
    ...(added.length ? [`now also matches ${added.length} ${added.length === 1 ? 'index' : 'indices'} the preview did not show (${list(added)})`] : []),
    ...(gone.length ? [`no longer matches ${gone.length} previewed ${gone.length === 1 ? 'index' : 'indices'} (${list(gone)})`] : []),
  ];
  return `"${previewed.expression}" ${parts.join(' and ')}: nothing was sent; preview again and confirm what it matches now`;
}

/**
 * After a wait (a follower's approval, another change's lock): the same names must still be the
 * same indices. An index deleted and re-created under its name meanwhile has a new UUID: refused.
 */
export function compareUuids(expression: string, before: ReadonlyMap<string, string>, now: ReadonlyMap<string, string> | null): string | null {
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

// --- audit ------------------------------------------------------------------------------------
//
// Two lines per mutation: a "sending" record written BEFORE the request (or host command) goes out,
// and an outcome line written after, naming the first by its id. A process killed in between (a
// dropped SSH session) leaves the sending record alone: shown as "outcome unknown". Logs written
// before this format have one line per mutation with its outcome; they are read as they are.

/**
 * What happened on the cluster: yes (it answered success, or the read-back shows the change),
 * no (it refused, or the read-back shows no change), unknown (no answer and no way to check).
 */
export type Applied = 'yes' | 'no' | 'unknown';

export interface AuditOutcome {
  ok: boolean;
  status?: number;
  error?: string;
  durationMs: number;
  /** The id a wait_for_completion=false request answered with, to re-attach (shardeck tasks). */
  task?: string;
  /** Absent in records written before it was recorded (they were sent and answered: ok says it). */
  applied?: Applied;
  /** Present when the answer did not tell (no answer, a server error): what reading the cluster back said. */
  readBack?: string;
}

export interface AuditRecord {
  /** Links the sending record and its outcome line (absent in the old one-line format). */
  id?: string;
  time: string;
  profile: string;
  /** The platform user when the profile is signed in. */
  platformUser?: string;
  /** The host user and process that sent it (absent in older records). */
  osUser?: string;
  pid?: number;
  /** Four eyes (--require-approval): who proposed the change and the follower who approved it. */
  proposedBy?: string;
  approvedBy?: string;
  /** The node, without credentials. */
  url: string;
  /** The request sent to the node; absent for a command run on the node's host (below). */
  request?: { method: MutationMethod; path: string; querystring: Record<string, string>; body?: unknown };
  /** A shell command run on the host (the corruption checklist's stop, backup, repair, start). */
  command?: string;
  /** 'read': a command run on the host only to read (`service status`, the plugin list): audited, never a change. */
  risk: Risk | 'read';
  target: string;
  summary: string;
  /** 'none': a host read, which nobody confirms. */
  confirmedBy: Confirmation['by'] | 'none';
  /** Absent while (or when) no answer was recorded: the process may have died mid-request. */
  outcome?: AuditOutcome;
  /** When the outcome was recorded. */
  outcomeTime?: string;
  /**
   * Read from this OS user's host journal (the file's owner), not from this user's audit log:
   * every other field is that user's claim, unchecked (its id is scoped "<uid>:<id>").
   */
  journalOf?: string;
}

/** The line written before sending: everything but the outcome. */
export type AuditSending = Omit<AuditRecord, 'outcome' | 'outcomeTime'> & { id: string; phase: 'sending' };

/** The line written after: the outcome of the sending record `of`. */
export interface AuditOutcomeLine {
  of: string;
  time: string;
  outcome: AuditOutcome;
}

export function auditOutcomeLine(sending: AuditSending, time: string, outcome: AuditOutcome): AuditOutcomeLine {
  return { of: sending.id, time, outcome };
}

/**
 * The log as one record per mutation: a sending record with its outcome line joined onto it (or
 * without an outcome when none was written), old one-line records as they are. An outcome line
 * whose sending record is missing, or a line that is not JSON, is counted as unreadable.
 */
export function parseAuditLog(text: string): { records: AuditRecord[]; unreadable: number } {
  const records: AuditRecord[] = [];
  const byId = new Map<string, AuditRecord>();
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let parsed: any;
    try {
      parsed = JSON.parse(line);
    } catch {
      unreadable++;
      continue;
    }
    if (typeof parsed?.of === 'string' && parsed.outcome) {
      const sent = byId.get(parsed.of);
      if (!sent || sent.outcome) unreadable++;
      else Object.assign(sent, { outcome: parsed.outcome, outcomeTime: parsed.time });
      continue;
    }
    const { phase: _phase, ...record } = parsed as AuditRecord & { phase?: string };
    records.push(record);
    if (typeof record.id === 'string') byId.set(record.id, record);
  }
  return { records, unreadable };
}

/** A command run on the host only to read: shown as a read, never as a change. */
export function isHostRead(r: Pick<AuditRecord, 'risk'>): boolean {
  return r.risk === 'read';
}

const APPLIED_WORDS: Record<Applied, string> = { yes: 'applied', no: 'not applied', unknown: 'applied or not: unknown' };

export function formatAuditRecord(r: AuditRecord): string {
  const o = r.outcome;
  const outcome = !o
    ? 'outcome unknown (no answer recorded)'
    : o.ok
      ? `ok ${o.status ?? ''}${o.task ? ` task ${o.task}` : ''}`.trim()
      : o.readBack !== undefined
        ? `${o.status === undefined ? `no answer (${o.error ?? 'no response'})` : `FAILED ${o.status} ${o.error ?? ''}`.trim()}; read back: ${APPLIED_WORDS[o.applied ?? 'unknown']}`
        : `FAILED ${o.status ?? ''} ${o.error ?? ''}`.trim();
  const who = r.platformUser ? `${r.profile}/${r.platformUser}` : r.profile;
  if (isHostRead(r)) return `${r.time} ${who} read (no change) $ ${r.command ?? '?'} -> ${outcome}`;
  if (!r.request) return `${r.time} ${who} $ ${r.command ?? '?'} -> ${outcome}`;
  const body = r.request.body === undefined ? '' : ` ${JSON.stringify(r.request.body)}`;
  return `${r.time} ${who} ${r.request.method} ${pathWithQuery(r.request)}${body} -> ${outcome}`;
}

/** One sentence for the operator: what the cluster did, whatever the answer was. */
export function describeOutcome(out: {
  ok: boolean;
  applied: Applied;
  status?: number;
  error?: { message: string };
  verified?: { ok: boolean; message: string };
  auditWarning?: string;
}): string {
  const warn = out.auditWarning ? ` (warning: ${out.auditWarning})` : '';
  if (out.ok) return `done (${out.status})${warn}`;
  const why = out.error?.message ?? 'failed';
  // Refused by the node, or never connected: nothing to read back.
  if (out.applied === 'no' && out.verified === undefined) return `${why}: nothing was retried${warn}`;
  const readBack = out.verified ? ` (${out.verified.message})` : '';
  const what =
    out.applied === 'yes'
      ? `but the cluster read back shows it applied${readBack}`
      : out.applied === 'no'
        ? `and the cluster read back shows it NOT applied${readBack}; it may still arrive if the node is slow: check before running it again`
        : `and whether it was applied is unknown${readBack}: check the cluster (shardeck status, shardeck tasks) before running it again`;
  return `${out.status === undefined ? `no answer (${why})` : why}, ${what}; it was not resent${warn}`;
}
