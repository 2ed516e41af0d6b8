// A command run on the host only to read (`service status`, the plugin list) is still a program run
// on the node's host, often as root: it is audited (issue 23), in read-only mode too, and the audit
// and the timeline show it as a read, never as a change. The status command here is a real shell
// command; the Elasticsearch client is real and never used (a host read sends no request).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { formatAuditRecord, parseAuditLog } from '../../src/domain/mutation/audit';
import { changesFromAudit, entryText } from '../../src/domain/timeline';
import { serviceStatus } from '../../src/services/engine';
import { Guard } from '../../src/services/guard';

const URL = 'http://127.0.0.1:9';
let dir: string;
let lockDir: string | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-host-read-'));
  lockDir = process.env.SHARDECK_LOCK_DIR;
  process.env.SHARDECK_LOCK_DIR = path.join(dir, 'locks');
});

afterEach(() => {
  if (lockDir === undefined) delete process.env.SHARDECK_LOCK_DIR;
  else process.env.SHARDECK_LOCK_DIR = lockDir;
  fs.rmSync(dir, { recursive: true, force: true });
});

it('service status in read-only mode runs, is audited as a read, and is shown as a read, not a change', async () => {
  const auditFile = path.join(dir, 'audit.log');
  const guard = new Guard({ client: createClient({ url: URL }), conn: { url: URL, readOnly: true }, profile: 'ro', auditFile });
  const marker = path.join(dir, 'ran');
  const facts = { node: { name: 'storage-1' } } as Parameters<typeof serviceStatus>[1];
  const svc = await serviceStatus(guard, facts, { serviceStatus: `touch ${marker}; echo active` });
  expect(svc).toMatchObject({ running: true, exitCode: 0, output: 'active' });
  expect(fs.existsSync(marker)).toBe(true);

  const { records, unreadable } = parseAuditLog(fs.readFileSync(auditFile, 'utf8'));
  expect(unreadable).toBe(0);
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({
    risk: 'read',
    confirmedBy: 'none',
    target: 'storage-1',
    summary: 'service status of node storage-1',
    outcome: { ok: true, status: 0 },
  });
  expect(records[0].command).toContain(marker);

  expect(formatAuditRecord(records[0])).toMatch(/ ro read \(no change\) \$ touch .* -> ok 0$/);
  const entries = changesFromAudit(records, URL);
  expect(entries.map((e) => e.kind)).toEqual(['read']);
  expect(entryText(entries[0])).toMatch(/^read by .* \(no change\): service status of node storage-1 -> ok$/);
});

it('a host read whose audit record cannot be written is not run', async () => {
  const auditFile = path.join(dir, 'no-such-folder', 'audit.log');
  fs.writeFileSync(path.join(dir, 'no-such-folder'), 'a file, not a folder');
  const guard = new Guard({ client: createClient({ url: URL }), conn: { url: URL, readOnly: true }, profile: 'ro', auditFile });
  const marker = path.join(dir, 'ran');
  await expect(
    serviceStatus(guard, { node: { name: 'n' } } as Parameters<typeof serviceStatus>[1], { serviceStatus: `touch ${marker}` }),
  ).rejects.toThrow(/cannot write the audit log.*was not run/);
  expect(fs.existsSync(marker)).toBe(false);
});
