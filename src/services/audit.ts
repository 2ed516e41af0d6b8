// The audit log, <configDir>/audit.log (0600): per mutation a "sending" JSON line written before
// it goes out and an outcome line after (domain/mutation/audit.ts parseAuditLog joins them).
import path from 'node:path';
import { configDir, appendPrivateLine } from '../config/files';
import { moveAsideRemedy, readLocalText } from '../config/local-files';
import { appendHostJournal, readHostJournals } from '../config/host-journal';
import { parseAuditLog, type AuditOutcomeLine, type AuditRecord, type AuditSending } from '../domain/mutation/audit';
import { unfinishedChanges } from '../domain/mutation/unfinished';

export function auditFile(): string {
  return path.join(configDir(), 'audit.log');
}

/** What to do with an audit log that cannot be read or written: move it aside, never lose it. */
const auditRemedy = (file: string) =>
  moveAsideRemedy(file, 'shardeck starts a new one (keep the old one: it is the record of what was sent)');

/** The most an audit log is read at once (its last bytes when longer: the latest records). */
const MAX_AUDIT_BYTES = 64 * 1024 * 1024;

/** A write that fails throws the system's error: the guard names its code and says nothing was sent. */
export function appendAudit(record: AuditSending | AuditOutcomeLine, file = auditFile()): void {
  appendPrivateLine(file, JSON.stringify(record), { durable: true });
}

export function readAudit(file = auditFile()): { records: AuditRecord[]; unreadable: number; tornLastLine: boolean } {
  const text = readLocalText(file, MAX_AUDIT_BYTES, auditRemedy(file), { tail: true });
  if (text === null) return { records: [], unreadable: 0, tornLastLine: false };
  return parseAuditLog(text);
}

/** Whether the process that wrote a sending record still runs (EPERM: it does, as another user). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The changes of `records` to `url` (undefined: any cluster) sent by a shardeck that is gone
 * without their outcome (killed between "sending" and the answer): what the next start offers to
 * read back (domain/mutation/unfinished.ts).
 */
export function unfinishedInLog(records: AuditRecord[], url?: string): AuditRecord[] {
  return unfinishedChanges(records, url, pidAlive);
}

/**
 * The same line, as the host journal keeps it (config/host-journal.ts: other users read it): the
 * request's method and path only, no body or query string (a delete's query is the operator's own).
 */
function journalLine(record: AuditSending | AuditOutcomeLine): AuditSending | AuditOutcomeLine {
  if (!('phase' in record) || !record.request) return record;
  return { ...record, request: { method: record.request.method, path: record.request.path, querystring: {} } };
}

/**
 * Copies an audit line to the host journal of its cluster (url: without credentials). Best effort:
 * the audit log is the record that guards a change; a journal that cannot be written only keeps
 * other users' timelines from showing it. Returns why it was not written, or undefined.
 */
export function appendJournal(record: AuditSending | AuditOutcomeLine, url: string): string | undefined {
  try {
    appendHostJournal(url, JSON.stringify(journalLine(record)));
    return undefined;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  }
}

/**
 * The changes to one cluster from every user's shardeck on the host: this user's audit log, and
 * the other users' journals root may read (each record's user is the journal file's owner, not
 * what it says; the rest of it is marked as that user's claim, journalOf).
 */
export function readHostChanges(url: string, file = auditFile()): AuditRecord[] {
  const own = readAudit(file).records;
  const me = process.getuid?.() ?? -1;
  const seen = new Set(own.map((r) => r.id).filter(Boolean));
  const others: AuditRecord[] = [];
  for (const j of readHostJournals(url)) {
    // This user's own journal repeats its audit log (same ids); another's ids are scoped to its owner,
    // so a reused id cannot hide a record of another file.
    const mine = j.uid === me;
    for (const r of parseAuditLog(j.text).records) {
      if (!r.id) continue;
      const id = mine ? r.id : `${j.uid}:${r.id}`;
      if (seen.has(id)) continue;
      seen.add(id);
      others.push(mine ? { ...r, osUser: j.user } : { ...r, id, osUser: j.user, journalOf: j.user });
    }
  }
  return [...own, ...others];
}
