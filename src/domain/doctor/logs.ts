// Log to remedy: every storage-node error message of the seed's table, found in the node's log,
// with how often, first and last time, and the seed's remedy. Pure: the service hands in the text.
import { blocksOfReason, liftRequest } from '../refusal';
import { FIXES, type Finding, type Fix, type Severity } from './finding';

export interface LogEntry {
  /** ms since the epoch, from the entry's "[2026-11-24T00:22:00,048]" (the host's time zone); null when it has none. */
  t: number | null;
  /** The entry's first line and its continuation lines (a stack trace), joined by \n. */
  text: string;
}

const STAMP = /^\[(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})[,.](\d{3})[^\]]*\]/;

/** Splits a plain Elasticsearch log into entries: a line with a time stamp starts one, the others continue it. */
export function parseLog(text: string): LogEntry[] {
  const out: LogEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const m = STAMP.exec(line);
    if (m) out.push({ t: new Date(`${m[1]}T${m[2]}.${m[3]}`).getTime(), text: line });
    else if (out.length) out[out.length - 1].text += '\n' + line;
    else out.push({ t: null, text: line });
  }
  return out;
}

export interface LogRule {
  id: string;
  /** The message as the seed's table writes it. */
  message: string;
  match: RegExp;
  cause: string;
  remedy: string;
  severity: Severity;
  fix?: Fix;
}

/** The seed's table of storage node error messages (section Errors), in its order. */
export const LOG_RULES: readonly LogRule[] = [
  {
    id: 'scroll-contexts',
    message: 'Trying to create too many scroll contexts. Must be less than or equal to: [500]',
    match: /Trying to create too many scroll contexts/,
    cause: 'open scroll contexts above the limit',
    remedy:
      'raise search.max_open_scroll_context (e.g. to 1000), or lower the scroll argument of client scan calls from the default 5m to e.g. 1m',
    severity: 'warn',
    fix: FIXES.scroll(1000),
  },
  {
    id: 'jna',
    message: 'Unable to load JNA native support library, native methods will be disabled',
    // Elasticsearch 8.19 words it "Unable to load native provider. Native methods will be disabled."
    // (o.e.n.NativeAccess, with "failed to map segment from shared object" in its stack trace).
    match: /Unable to load JNA native support library|Unable to load native provider\. Native methods will be disabled/,
    cause: 'the temporary folder is mounted noexec or has no execution rights for the service user',
    remedy:
      'set ES_TMPDIR in the sysconfig file to a folder owned by the search-engine user and group, then restart (shardeck service restart)',
    severity: 'warn',
    fix: FIXES.restart(),
  },
  {
    id: 'cluster-block',
    message: 'cluster block exception',
    match: /cluster[ _]?block[ _]?exception/i,
    cause: 'disk usage above flood stage',
    remedy: 'free disk space, then clear the read-only block',
    severity: 'warn',
    fix: FIXES.unblock(),
  },
  {
    id: 'corrupt',
    message: 'corrupt_index_exception / no_valid_shard_copy',
    match: /corrupt_?index_?exception|no_valid_shard_copy/i,
    cause: 'corrupt shard',
    remedy:
      'recover from replicas, snapshots or backups; otherwise stop the engine, back up the shard folder, run the index check tool with the exorcise option (documents in broken segments are lost), remove files starting with corrupted, start the engine, check status',
    severity: 'warn',
    fix: { commandId: 'wizard.recoverCorrupt', key: 'C', pane: 'shards', command: 'shardeck recover-corrupt' },
  },
];

export interface LogMatch {
  rule: LogRule;
  count: number;
  first: number | null;
  last: number | null;
  /** The last matching entry's first line, shortened. */
  example: string;
}

/** Each rule's matches (one per entry, stack trace included). */
export function matchLog(entries: readonly LogEntry[], rules: readonly LogRule[] = LOG_RULES): LogMatch[] {
  return rules.map((rule) => {
    let count = 0;
    let first: number | null = null;
    let last: number | null = null;
    let example = '';
    for (const e of entries) {
      if (!rule.match.test(e.text)) continue;
      count++;
      if (e.t !== null) {
        first ??= e.t;
        last = e.t;
      }
      const line = e.text.split('\n').find((l) => rule.match.test(l)) ?? e.text.split('\n')[0];
      example = line.length > 240 ? line.slice(0, 237) + '...' : line;
    }
    return { rule, count, first, last, example };
  });
}

function iso(t: number | null): string {
  return t === null ? '?' : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** One finding per rule of the seed's table; "unknown" for all when the log cannot be read here. */
/** A log line older than this says what was, not what is (issue 47): said as old, with no fix offered. */
export const LOG_OLD_MS = 24 * 3_600_000;

export function logFindings(
  log: { file: string; entries: LogEntry[]; readFrom?: string } | { file: string | null; notHere: string },
  now?: number,
): Finding[] {
  if ('notHere' in log)
    return [
      {
        id: 'log.file',
        family: 'log',
        severity: 'unknown',
        finding: `node log not read: ${log.notHere}`,
        evidence: log.file ? [log.file] : [],
        remedy: 'run shardeck doctor on the storage node, or give the log with --log FILE',
      },
    ];
  const head = log.readFrom ? [`${log.file} (${log.readFrom})`] : [log.file];
  return matchLog(log.entries).map((m) => {
    const rule = m.rule.id === 'cluster-block' ? blockCause(m.rule, m.example) : m.rule;
    const old = m.count > 0 && now !== undefined && m.last !== null && now - m.last > LOG_OLD_MS;
    return {
      id: `log.${m.rule.id}`,
      family: 'log' as const,
      severity: !m.count ? 'ok' : old ? 'unknown' : rule.severity,
      finding: m.count
        ? `"${rule.message}" ${m.count} time${m.count === 1 ? '' : 's'} in the log, first ${iso(m.first)}, last ${iso(m.last)}: ${rule.cause}` +
          (old
            ? ` (old: nothing since ${Math.floor((now - m.last!) / 86_400_000) || 1} day(s); what is true now is in the other findings)`
            : '')
        : `no "${rule.message}" in the log`,
      evidence: m.count ? [...head, m.example] : head,
      // An old line's fix would find nothing to do: only the remedy, for the record.
      ...(m.count ? { remedy: rule.remedy, ...(rule.fix && !old ? { fix: rule.fix } : {}) } : {}),
    };
  });
}

/**
 * The seed's cause of a cluster block exception is the disk past flood stage; the line itself says
 * which block refused (issue 41: a block set by hand was blamed on the disk). Only the flood-stage
 * block (id 12) keeps the seed's cause and the unblock wizard.
 */
function blockCause(rule: LogRule, line: string): LogRule {
  const blocks = blocksOfReason(line);
  if (!blocks.length || blocks.some((b) => b.id === 12)) return rule;
  const named = blocks.map((b) => b.setting ?? b.description).join(', ');
  return {
    ...rule,
    cause: `the block ${named} refused it, not the disk`,
    remedy: `lift it: ${blocks.map(liftRequest).join('; ')} (the doctor's blocks findings say whether it is still set)`,
    fix: undefined,
  };
}
