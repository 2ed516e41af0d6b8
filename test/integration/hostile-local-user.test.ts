// Issue 40's hostile-local-user battery: as root, what another local user (here uid 65534, and the
// engine's user of the harness) can put where shardeck reads or writes: a FIFO where a file is
// read, a link where a folder or file is written, a file of theirs where a record of root's goes.
// Each is refused or contained, nothing is written where it should not be, and the reading code
// never blocks. A read that blocks would block the whole worker, so each case runs the real module
// in a child process with a deadline: hanging fails the case instead of the run.
// (The forged allocation record: allocation-record.test.ts and restart-node.test.ts; the program
// that pushes input into root's terminal: no-terminal.test.ts; the planted --out file:
// operator-file.test.ts.)
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileTempDir } from '../helpers/file-temp';

const NOBODY = 65534;
const TSX = path.resolve('node_modules/.bin/tsx');
const SRC = path.resolve('src');
let dir: string;

/** Runs `body` (an ES module's text, with `src` bound to the repo's src path) in a child; its stdout's last line, or "TIMEOUT". */
function isolated(body: string, env: Record<string, string> = {}, timeoutMs = 15_000): string {
  const file = path.join(dir, `case-${Math.random().toString(36).slice(2)}.mts`);
  fs.writeFileSync(file, `const src = ${JSON.stringify(SRC)};\n${body}\n`);
  const r = spawnSync(TSX, [file], { encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, ...env } });
  if (r.error || r.signal) return 'TIMEOUT';
  if (r.status !== 0) return `EXIT ${r.status}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`;
  return r.stdout.trim().split('\n').pop() ?? '';
}

const fifo = (p: string) => execFileSync('mkfifo', ['-m', '0666', p]);

beforeAll(() => {
  dir = fileTempDir('shardeck-hostile-');
  fs.chmodSync(dir, 0o755);
});

describe('a FIFO where shardeck reads a file of another user: refused at once, never waited on (N3)', () => {
  it("the node's state file under <data>/_state (detection, doctor, service, plugin, restart)", () => {
    const data = path.join(dir, 'data');
    fs.mkdirSync(path.join(data, '_state'), { recursive: true });
    fifo(path.join(data, '_state', 'segments_5'));
    fifo(path.join(data, '_state', 'node-0.st'));
    const out = isolated(
      `const { stateNodeId } = await import(src + '/services/corruption.ts');\nconsole.log(JSON.stringify(stateNodeId(${JSON.stringify(data)})));`,
    );
    expect(out).toBe('null');
  });

  it("the node's log, read for evidence of corruption", () => {
    const log = path.join(dir, 'cluster.log');
    fifo(log);
    const out = isolated(
      `const { corruptionLogLines } = await import(src + '/services/corruption.ts');\nconsole.log(JSON.stringify(corruptionLogLines(${JSON.stringify(log)}, 'logs', 0)));`,
    );
    expect(out).toBe('[]');
  });

  it('the CA file, at start and when the transport reads it again', () => {
    const ca = path.join(dir, 'ca.pem');
    fifo(ca);
    const out = isolated(
      `const { createClient } = await import(src + '/cluster/connection.ts');\ntry { createClient({ url: 'https://127.0.0.1:9', caFile: ${JSON.stringify(ca)} }); console.log('read'); } catch (e) { console.log(e.message); }`,
    );
    expect(out).toMatch(/cannot read the CA file .* \(it is a FIFO\)/);
  });

  it('the password file', () => {
    const pw = path.join(dir, 'password');
    fifo(pw);
    fs.chmodSync(pw, 0o600);
    const out = isolated(
      `const { resolveConnection } = await import(src + '/config/connection.ts');\ntry { await resolveConnection({ url: 'http://127.0.0.1:9', user: 'elastic', 'password-file': ${JSON.stringify(pw)} }, undefined); console.log('read'); } catch (e) { console.log(e.message); }`,
    );
    expect(out).toMatch(/cannot read the password file .* \(it is a FIFO\)/);
  });
});

describe('a link another user planted where root writes: refused, nothing written through it', () => {
  it('the recovery throttle record folder in the shared lock folder (N4)', () => {
    const locks = path.join(dir, 'locks');
    fs.mkdirSync(locks, { mode: 0o700 });
    fs.chmodSync(locks, 0o1777);
    // A folder only root may use, and the other user's link to it under the name root's record folder takes.
    const victim = path.join(dir, 'root-only');
    fs.mkdirSync(victim, { mode: 0o700 });
    const link = path.join(locks, `recovery-throttle.${process.getuid!()}`);
    fs.symlinkSync(victim, link);
    fs.lchownSync(link, NOBODY, NOBODY);
    const out = isolated(
      `const { writeThrottleRecord } = await import(src + '/config/throttle-record.ts');\ntry { writeThrottleRecord({ version: 1, clusterUuid: 'u1', url: 'http://x', at: 'now', before: {} }); console.log('written'); } catch (e) { console.log(e.message); }`,
      { SHARDECK_LOCK_DIR: locks },
    );
    expect(out).toMatch(/symbolic link/);
    expect(fs.readdirSync(victim)).toEqual([]);
  });

  it("an allocation record of root's: a link in its place is replaced, never written through", () => {
    const locks = path.join(dir, 'locks-alloc');
    fs.mkdirSync(locks, { mode: 0o700 });
    fs.chmodSync(locks, 0o1777);
    const victim = path.join(dir, 'victim-file');
    fs.writeFileSync(victim, 'root only\n', { mode: 0o600 });
    const out = isolated(
      `const { allocationRecordFile, writeAllocationRecord } = await import(src + '/config/allocation-record.ts');
const fs = await import('node:fs');
const file = allocationRecordFile('u2');
fs.symlinkSync(${JSON.stringify(victim)}, file);
writeAllocationRecord({ version: 1, clusterUuid: 'u2', url: 'http://x', at: 'now', user: 'root', pid: 1, what: 'x', before: { persistent: {}, transient: {} } });
const st = fs.lstatSync(file);
console.log(JSON.stringify({ link: st.isSymbolicLink(), mode: (st.mode & 0o777).toString(8) }));`,
      { SHARDECK_LOCK_DIR: locks },
    );
    expect(out).toBe('{"link":false,"mode":"600"}');
    expect(fs.readFileSync(victim, 'utf8')).toBe('root only\n');
  });

  it("another user's file under root's record name in the sticky folder: the write is refused, their file untouched", () => {
    const locks = path.join(dir, 'locks-foreign');
    fs.mkdirSync(locks, { mode: 0o700 });
    fs.chmodSync(locks, 0o1777);
    const out = isolated(
      `const { allocationRecordFile, writeAllocationRecord } = await import(src + '/config/allocation-record.ts');
const fs = await import('node:fs');
const file = allocationRecordFile('u3');
fs.writeFileSync(file, 'theirs\\n', { mode: 0o644 });
fs.chownSync(file, ${NOBODY}, ${NOBODY});
// Root may replace anything; what matters is that the sticky folder stops other users, and that
// root, reading, never takes this file for its own record.
const { readAllocationRecord } = await import(src + '/config/allocation-record.ts');
console.log(JSON.stringify({ mine: readAllocationRecord('u3') }));`,
      { SHARDECK_LOCK_DIR: locks },
    );
    expect(out).toBe('{"mine":null}');
  });
});
