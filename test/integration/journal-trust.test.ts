// The host journals (issue 31.6, 23.6): each user's journal of changes is 0600, rotated, read
// with a cap, and what another user's journal says is shown as that OS user's claim: never as
// someone's approval, never hiding a record of another file by reusing its id. Run as root with the
// harness's unprivileged user (shardeck-es) writing its own journal by hand, as it may.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ES_USER } from '../../dev/lib/es-node.mjs';
import { appendHostJournal, hostJournalFile, JOURNAL_MAX_BYTES, readHostJournals } from '../../src/config/host-journal';
import { changesFromAudit, entryText } from '../../src/domain/timeline';
import { appendAudit, appendJournal, readHostChanges } from '../../src/services/audit';

const URL_ = 'http://127.0.0.1:9299';
let dir: string;
let audit: string;
const oldLock = process.env.SHARDECK_LOCK_DIR;
const esUid = () => Number(execFileSync('id', ['-u', ES_USER], { encoding: 'utf8' }).trim());

const sending = (id: string, summary: string, extra: Record<string, unknown> = {}) => ({
  id,
  phase: 'sending' as const,
  time: new Date(Date.now() - 60_000).toISOString(),
  profile: 'p',
  osUser: 'root',
  url: URL_,
  risk: 'reversible' as const,
  target: 'logs',
  summary,
  confirmedBy: 'key' as const,
  request: { method: 'PUT' as const, path: '/logs/_settings', querystring: {} },
  ...extra,
});

/** Writes the engine user's journal as that user (what any local user may do with its own file). */
function writeAsOther(text: string): string {
  const file = hostJournalFile(URL_, esUid());
  const tmp = path.join(dir, 'other.txt');
  fs.writeFileSync(tmp, text);
  fs.chmodSync(tmp, 0o644); // the engine's user reads it; explicit, whatever the umask (077 on hardened roots)
  execFileSync('runuser', ['-u', ES_USER, '--', 'sh', '-c', `umask 077; cat ${tmp} > ${file}`]);
  return file;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-journal-trust-'));
  fs.chmodSync(dir, 0o755);
  process.env.SHARDECK_LOCK_DIR = path.join(dir, 'locks');
  audit = path.join(dir, 'conf', 'audit.log');
});

afterAll(() => {
  if (oldLock === undefined) delete process.env.SHARDECK_LOCK_DIR;
  else process.env.SHARDECK_LOCK_DIR = oldLock;
  fs.rmSync(dir, { recursive: true, force: true });
});

it("23.6: this user's journal is 0600 (others on the host cannot read what it changed)", () => {
  const rec = sending('root-1', 'set replicas of logs');
  appendAudit(rec, audit);
  expect(appendJournal(rec, URL_)).toBeUndefined();
  expect(fs.statSync(hostJournalFile(URL_)).mode & 0o777).toBe(0o600);
});

it("31.6: another user's record is its claim: no approval shown, its id scoped to its owner so it cannot hide root's", () => {
  // The other user reuses root's record id and claims a platform user, a proposer and an approver.
  const forged = sending('root-1', 'forged: looks like root approved it', {
    osUser: 'root',
    platformUser: 'alice',
    proposedBy: 'carol',
    approvedBy: 'dave',
  });
  writeAsOther(JSON.stringify(forged) + '\n');
  const records = readHostChanges(URL_, audit);
  expect(records.map((r) => r.summary)).toEqual(['set replicas of logs', 'forged: looks like root approved it']);
  const entries = changesFromAudit(records, URL_);
  const theirs = entries.find((e) => e.kind === 'change' && e.summary.startsWith('forged'))!;
  expect(theirs).toMatchObject({ who: ES_USER, id: `${esUid()}:root-1` });
  expect(theirs).not.toHaveProperty('approvedBy');
  const text = entryText(theirs);
  expect(text).toContain(`change by ${ES_USER} (unverified, its own journal claims: platform alice, proposed by carol, approved by dave)`);
  expect(text).not.toMatch(/^change by [^(]*, approved by/);
});

it("31.6: a journal is read with a cap (its last part) and this user's own is rotated past it", () => {
  // 3x the cap of lines: only the newest part is read.
  const line = JSON.stringify(sending('x', 'filler')) + '\n';
  const lines = Math.ceil((3 * JOURNAL_MAX_BYTES) / line.length);
  const big = Array.from({ length: lines }, (_, i) => line.replace('"id":"x"', `"id":"x${i}"`)).join('');
  writeAsOther(big);
  const theirs = readHostJournals(URL_).find((j) => j.uid === esUid())!;
  expect(theirs.text.length).toBeLessThanOrEqual(JOURNAL_MAX_BYTES);
  expect(theirs.text.startsWith('{')).toBe(true); // cut at a line
  expect(theirs.text).toContain(`"id":"x${lines - 1}"`);
  // Root's own journal past the cap: the next line starts a new file, the old one kept as .1.
  const own = hostJournalFile(URL_);
  fs.appendFileSync(own, big.slice(0, JOURNAL_MAX_BYTES + 10));
  appendHostJournal(URL_, JSON.stringify(sending('after', 'after rotation')));
  expect(fs.statSync(own).size).toBeLessThan(10_000);
  expect(fs.statSync(`${own}.1`).mode & 0o777).toBe(0o600);
});
