// The audit record a mutation leaves.
//
// Two lines per mutation: a "sending" record written BEFORE the request (or host command) goes out,
// and an outcome line written after, naming the first by its id. A process killed in between (a
// dropped SSH session) leaves the sending record alone: shown as "outcome unknown". Logs written
// before this format have one line per mutation with its outcome; they are read as they are.
import type { Confirmation } from './confirmation';
import { pathWithQuery, type MutationMethod, type Risk } from './plan';
import { hasTornLastLine } from '../host/local-files';

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
export function parseAuditLog(text: string): { records: AuditRecord[]; unreadable: number; tornLastLine: boolean } {
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
    // A line of another shape (null, a number, a list, a record without its time) is not a record.
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      unreadable++;
      continue;
    }
    if (typeof parsed.of === 'string' && parsed.outcome) {
      const sent = byId.get(parsed.of);
      if (!sent || sent.outcome) unreadable++;
      else Object.assign(sent, { outcome: parsed.outcome, outcomeTime: parsed.time });
      continue;
    }
    if (typeof parsed.time !== 'string' || 'of' in parsed) {
      unreadable++;
      continue;
    }
    const { phase: _phase, ...record } = parsed as AuditRecord & { phase?: string };
    records.push(record);
    if (typeof record.id === 'string') byId.set(record.id, record);
  }
  return { records, unreadable, tornLastLine: hasTornLastLine(text) };
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
