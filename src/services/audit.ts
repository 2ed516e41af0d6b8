// The audit log: one JSON line per mutation sent, in <configDir>/audit.log (0600).
import fs from 'node:fs';
import path from 'node:path';
import { configDir, appendPrivateLine } from '../config/files';
import { parseAuditLog, type AuditRecord } from '../domain/mutation';

export function auditFile(): string {
  return path.join(configDir(), 'audit.log');
}

export function appendAudit(record: AuditRecord, file = auditFile()): void {
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
