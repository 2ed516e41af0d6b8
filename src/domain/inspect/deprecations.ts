// Upgrade readiness: what Elasticsearch itself says will break on the next major, from two places
// it reports it. 1. `GET _migration/deprecations` (the x-pack deprecation module: cluster, node,
// index, data stream, template and ILM levels, each issue with a level, a message, details and a
// doc link). 2. The node's deprecation log (`<path.logs>/<cluster.name>_deprecation.json`, written
// by the server itself, also where the module is missing): every deprecated setting the node was
// started with, and every deprecated API a client called. shardeck keeps no list of its own of what
// a release removes: only what the node reports. Pure.

import { compareText } from '../text/order';

export type DeprecationSeverity = 'critical' | 'warning';

export interface DeprecationIssue {
  /** Where Elasticsearch found it. */
  source: 'api' | 'log';
  /** cluster, node, index, data_stream, template, ilm_policy, ml, or the log's category (settings, api, ...). */
  level: string;
  /** The index, data stream, template or policy it is about (the API's per-name levels). */
  target?: string;
  severity: DeprecationSeverity;
  message: string;
  details?: string;
  url?: string;
  /** What to do, in plain words: the issue's own details where they say it, and where to change it. */
  fix: string;
  /** The API's flag: it can be fixed while nodes of both versions run. */
  resolveDuringRollingUpgrade?: boolean;
  /** Log only: how many times, when first and last, and the setting or API it names (event.code). */
  count?: number;
  first?: string;
  last?: string;
  code?: string;
}

type Json = Record<string, any>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/** "node_settings" -> "node", "index_settings" -> "index", "ilm_policies" -> "ilm_policy". */
function levelOf(key: string): string {
  return key
    .replace(/_settings$/, '')
    .replace(/ies$/, 'y')
    .replace(/s$/, '');
}

/** The fix in plain words: where such a thing is changed, then what Elasticsearch's details add. */
export function fixFor(level: string, target: string | undefined, details: string | undefined, settingName?: string): string {
  const setting = settingName ? `[${settingName}]` : 'the setting it names';
  const where: Record<string, string> = {
    cluster: `change ${setting} in the cluster settings (PUT _cluster/settings with it set to null, or to its replacement) before the upgrade`,
    node: `remove or replace ${setting} in elasticsearch.yml of the nodes named, then restart them one at a time (shardeck restart-node)`,
    settings: `remove or replace ${setting} in elasticsearch.yml (or the cluster settings) before the upgrade, then restart the node (shardeck restart-node)`,
    index: `index ${target ?? ''}: change the index setting it names, or reindex it into a new index made on this version (indices made before the current major must be reindexed)`,
    data_stream: `data stream ${target ?? ''}: roll it over so its backing indices are made on this version, or reindex the old ones`,
    template: `template ${target ?? ''}: update the template so that new indices no longer get the deprecated setting or mapping`,
    ilm_policy: `ILM policy ${target ?? ''}: edit the policy's phase or action it names`,
    api: 'a client calls a deprecated API or parameter: find it by the request it names (X-Opaque-Id) and update that client before the upgrade',
  };
  const base = where[level] ?? 'follow the doc link before the upgrade';
  return details ? `${base}. Elasticsearch says: ${details}` : base;
}

/** The issues of a `_migration/deprecations` answer, every level it holds (new levels included as they come). */
export function parseDeprecationsInfo(body: unknown): DeprecationIssue[] {
  const out: DeprecationIssue[] = [];
  const add = (level: string, target: string | undefined, i: Json) => {
    if (!i || typeof i !== 'object') return;
    const message = str(i.message) ?? '(no message)';
    const details = str(i.details);
    out.push({
      source: 'api',
      level,
      ...(target !== undefined ? { target } : {}),
      severity: i.level === 'critical' ? 'critical' : 'warning',
      message,
      ...(details ? { details } : {}),
      ...(str(i.url) ? { url: String(i.url) } : {}),
      fix: fixFor(level, target, details, /\[([^\]\s]+)\]/.exec(message)?.[1]),
      ...(typeof i.resolve_during_rolling_upgrade === 'boolean' ? { resolveDuringRollingUpgrade: i.resolve_during_rolling_upgrade } : {}),
    });
  };
  for (const [key, v] of Object.entries((body ?? {}) as Json)) {
    const level = levelOf(key);
    if (Array.isArray(v)) for (const i of v) add(level, undefined, i);
    else if (v && typeof v === 'object')
      for (const [target, issues] of Object.entries(v as Json)) if (Array.isArray(issues)) for (const i of issues) add(level, target, i);
  }
  return sortIssues(out);
}

/** Critical first, then by level and target, so runs compare. */
export function sortIssues(issues: DeprecationIssue[]): DeprecationIssue[] {
  const rank = (s: DeprecationSeverity) => (s === 'critical' ? 0 : 1);
  return [...issues].sort(
    (a, b) =>
      rank(a.severity) - rank(b.severity) ||
      compareText(a.level, b.level) ||
      compareText(a.target ?? '', b.target ?? '') ||
      compareText(a.message, b.message),
  );
}

/**
 * The node's deprecation log (JSON lines, ECS) grouped by what it is about (event.code: the setting
 * or API), each with its count and first and last time. Lines that are not JSON are skipped.
 */
export function parseDeprecationLog(text: string): DeprecationIssue[] {
  const byCode = new Map<string, DeprecationIssue>();
  for (const line of text.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    let j: Json;
    try {
      j = JSON.parse(line);
    } catch {
      continue;
    }
    const message = str(j.message);
    if (!message) continue;
    const code = str(j['event.code']) ?? message;
    const category = str(j['elasticsearch.event.category']) ?? 'other';
    const at = str(j['@timestamp']);
    const critical = String(j['log.level'] ?? '').toUpperCase() === 'CRITICAL';
    const seen = byCode.get(code);
    if (seen) {
      seen.count = (seen.count ?? 1) + 1;
      if (at) seen.last = at;
      if (critical) seen.severity = 'critical';
      continue;
    }
    // "[x] setting was deprecated in Elasticsearch ...": the setting's name, for the fix.
    const setting = category === 'settings' ? (/^\[([^\]\s]+)\] setting/.exec(message)?.[1] ?? code) : undefined;
    const opaque = str(j['elasticsearch.http.request.x_opaque_id']);
    byCode.set(code, {
      source: 'log',
      level: category,
      severity: critical ? 'critical' : 'warning',
      message,
      ...(opaque ? { details: `request X-Opaque-Id ${opaque}` } : {}),
      fix: fixFor(category, undefined, undefined, setting),
      count: 1,
      ...(at ? { first: at, last: at } : {}),
      code,
    });
  }
  return sortIssues([...byCode.values()]);
}

/** The deprecation log Elasticsearch writes beside its plain log. */
export function deprecationLogFile(n: { logs?: string; clusterName?: string }): string | null {
  return n.logs && n.clusterName ? `${n.logs.replace(/\/+$/, '')}/${n.clusterName}_deprecation.json` : null;
}

/** Why the API gave nothing: a node without the deprecation module answers 405 or 400 ("no handler"), not 404. */
export function deprecationsApiMissing(status: number | undefined, reason: string | undefined): boolean {
  if (status === 404 || status === 405) return true;
  return status === 400 && /no handler found|incorrect http method/i.test(reason ?? '');
}

export interface DeprecationsReport {
  schema: 1;
  reachable: true;
  /** The API's answer was read, or why not (not served on this node, a missing privilege). */
  api: { read: true } | { read: false; why: string };
  /** The node's deprecation log: read (which file), or why not. */
  log: { file: string; read: true } | { file: string | null; read: false; why: string };
  counts: Record<DeprecationSeverity, number>;
  issues: DeprecationIssue[];
}

export function deprecationsReport(
  api: DeprecationIssue[] | { why: string },
  log: { file: string; issues: DeprecationIssue[] } | { file: string | null; why: string },
): DeprecationsReport {
  const issues = sortIssues([...(Array.isArray(api) ? api : []), ...('issues' in log ? log.issues : [])]);
  return {
    schema: 1,
    reachable: true,
    api: Array.isArray(api) ? { read: true } : { read: false, why: api.why },
    log: 'issues' in log ? { file: log.file, read: true } : { file: log.file, read: false, why: log.why },
    counts: {
      critical: issues.filter((i) => i.severity === 'critical').length,
      warning: issues.filter((i) => i.severity === 'warning').length,
    },
    issues,
  };
}

/** Like the doctor: 0 nothing to do, 1 warnings, 2 a critical issue (the next major will not start or will lose it). */
export function deprecationsExit(r: DeprecationsReport): 0 | 1 | 2 {
  return r.counts.critical ? 2 : r.counts.warning ? 1 : 0;
}

/** One line per issue for the terminal and the doctor (text still to be made safe by the caller). */
export function issueTitle(i: DeprecationIssue): string {
  const where = i.target ? `${i.level} ${i.target}` : i.level;
  const times = i.count && i.count > 1 ? ` (${i.count} times)` : '';
  return `${where}: ${i.message}${times}`;
}
