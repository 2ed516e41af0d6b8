// File modes under umask 022 and 000: private files are 0600 whenever opened (a 0644 left by an
// older version or by hand is tightened), secret files left wider are refused, a new config dir is
// 0700, and an existing folder others can open (such as /tmp) is refused, never chmod-ed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendPrivateLine,
  ensurePrivateDir,
  InsecureDirError,
  releaseLock,
  tightenPrivateFile,
  tryLock,
  writePrivateFileAtomic,
} from '../../src/config/files';
import { appendAudit } from '../../src/services/audit';
import { writeOperatorFileExclusive } from '../../src/boundary/operator-file';

const mode = (p: string) => fs.statSync(p).mode & 0o777;
let base: string;
let savedUmask: number;

beforeEach(() => {
  savedUmask = process.umask();
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-modes-'));
});

afterEach(() => {
  process.umask(savedUmask);
  fs.rmSync(base, { recursive: true, force: true });
});

describe.each([0o022, 0o000])('under umask %s', (umask) => {
  beforeEach(() => {
    process.umask(umask);
  });

  it('a new config dir (and its parents) is created 0700', () => {
    const dir = path.join(base, 'a', 'b', 'shardeck');
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  it('an existing folder others can open is refused, and left as it was', () => {
    for (const m of [0o777, 0o755, 0o750, 0o1777]) {
      const dir = path.join(base, `shared-${m.toString(8)}`);
      fs.mkdirSync(dir);
      fs.chmodSync(dir, m);
      expect(() => ensurePrivateDir(dir)).toThrow(InsecureDirError);
      expect(() => ensurePrivateDir(dir)).toThrow(/can be opened by others .*SHARDECK_CONFIG_DIR/);
      expect(fs.statSync(dir).mode & 0o7777).toBe(m);
    }
    const own = path.join(base, 'own');
    fs.mkdirSync(own, { mode: 0o700 });
    fs.chmodSync(own, 0o700);
    expect(ensurePrivateDir(own)).toBe(own);
  });

  it('the audit log is 0600 when created, and tightened when it was left 0644', () => {
    const dir = ensurePrivateDir(path.join(base, 'conf'));
    const audit = path.join(dir, 'audit.log');
    appendPrivateLine(audit, 'first');
    expect(mode(audit)).toBe(0o600);
    fs.chmodSync(audit, 0o644);
    appendAudit({ at: 'x' } as never, audit);
    expect(mode(audit)).toBe(0o600);
    expect(fs.readFileSync(audit, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('secret files written atomically (secrets.json, recovery progress) are 0600, whatever was there before', () => {
    const dir = ensurePrivateDir(path.join(base, 'conf'));
    const file = path.join(dir, 'secrets.json');
    fs.writeFileSync(file, '{}', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    writePrivateFileAtomic(file, '{"version":1}');
    expect(mode(file)).toBe(0o600);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('lock files are 0600', () => {
    const dir = ensurePrivateDir(path.join(base, 'conf'));
    const lock = path.join(dir, 'x.lock');
    expect(tryLock(lock)).toBe(true);
    expect(mode(lock)).toBe(0o600);
    releaseLock(lock);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('config.json is tightened on open', () => {
    const file = path.join(base, 'config.json');
    fs.writeFileSync(file, '{}');
    fs.chmodSync(file, 0o644);
    tightenPrivateFile(file);
    expect(mode(file)).toBe(0o600);
    tightenPrivateFile(path.join(base, 'missing.json')); // absent: nothing to do
  });
});

describe('a file written where the operator says (incident export --out)', () => {
  let d: string;
  beforeEach(() => {
    d = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-out-'));
  });
  afterEach(() => fs.rmSync(d, { recursive: true, force: true }));

  it('is written 0600, replacing what a regular file of its own held', () => {
    const f = path.join(d, 'timeline.md');
    fs.writeFileSync(f, 'old and longer content', { mode: 0o644 });
    writeOperatorFileExclusive(f, '# new');
    expect(fs.readFileSync(f, 'utf8')).toBe('# new');
    expect(fs.statSync(f).mode & 0o777).toBe(0o600);
  });

  it('never follows a symbolic link, never writes into a hard link, a FIFO or a device', () => {
    const victim = path.join(d, 'victim');
    fs.writeFileSync(victim, 'keep me');
    fs.chmodSync(victim, 0o644); // explicit: a write's mode is masked by the umask (077 on hardened roots)
    fs.symlinkSync(victim, path.join(d, 'link.md'));
    expect(() => writeOperatorFileExclusive(path.join(d, 'link.md'), 'x')).toThrow(/is a symbolic link: nothing was written/);
    fs.linkSync(victim, path.join(d, 'hard.md'));
    expect(() => writeOperatorFileExclusive(path.join(d, 'hard.md'), 'x')).toThrow(/has 2 names \(a hard link\)/);
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me');
    expect(fs.statSync(victim).mode & 0o777).toBe(0o644);
    expect(spawnSync('mkfifo', [path.join(d, 'fifo.md')]).status).toBe(0);
    expect(() => writeOperatorFileExclusive(path.join(d, 'fifo.md'), 'x')).toThrow(/FIFO/);
    expect(() => writeOperatorFileExclusive('/dev/null', 'x')).toThrow(/is a device: nothing was written/);
  });
});
