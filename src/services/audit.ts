// The audit log, <configDir>/audit.log (0600): per mutation a "sending" JSON line written before
// it goes out and an outcome line after (domain/mutation.ts parseAuditLog joins them).
import fs from 'node:fs';
import path from 'node:path';
import { configDir, appendPrivateLine } from '../config/files';
import { parseAuditLog, type AuditOutcomeLine, type AuditRecord, type AuditSending } from '../domain/mutation';

export function auditFile(): string {
  return path.join(configDir(), 'audit.log');
}

export function appendAudit(record: AuditSending | AuditOutcomeLine, file = auditFile()): void {
  appendPrivateLine(file, JSON.stringify(record));
}

export function readAudit(file = auditFile()): { records: AuditRecord[]; unreadable: number } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], unreadable: 0 };
    throw e;
  }
  return parseAuditLog(text);
}
