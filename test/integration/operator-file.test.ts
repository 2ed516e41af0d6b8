// Issue 40 N5: `incident export --out FILE` run as root in a folder others can write. The file is
// created new (O_EXCL, 0600) or must be root's own regular file with one name: a file another user
// planted there is refused, naming its owner, and nothing of root's timeline reaches it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterKey } from '../../src/domain/timeline';
import { fileTempDir } from '../helpers/file-temp';
import { ensureBuilt, runCli } from '../helpers/run-cli';

const URL_ = 'http://127.0.0.1:9';
const SECRET_NOTE = 'root-only: the failover plan for db-7';
/** Another local user: the one who plants the file. */
const OTHER = `shardeck-out-${process.pid % 100000}`;
let otherMade = false;
let cfg: string;
let shared: string;

const export_ = (out: string, ...extra: string[]) =>
  runCli(['incident', 'export', '--md', '--url', URL_, '--out', out, ...extra], { env: { SHARDECK_CONFIG_DIR: cfg } });
const asOther = (...argv: string[]) => {
  const r = spawnSync('runuser', ['-u', OTHER, '--', ...argv], { encoding: 'utf8', cwd: '/' });
  expect(r.status, r.stderr).toBe(0);
};

beforeAll(() => {
  ensureBuilt();
  const made = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER], {
    encoding: 'utf8',
  });
  expect(made.status, made.stderr).toBe(0);
  otherMade = true;
  cfg = fileTempDir('shardeck-out-conf-');
  fs.mkdirSync(path.join(cfg, 'timeline'), { mode: 0o700 });
  const note = { kind: 'note', time: new Date().toISOString(), author: 'root', text: SECRET_NOTE };
  fs.writeFileSync(path.join(cfg, 'timeline', `${clusterKey(URL_)}.jsonl`), JSON.stringify(note) + '\n', { mode: 0o600 });
  // A folder every user can write, as /tmp or a shared working folder.
  shared = fileTempDir('shardeck-out-shared-');
  fs.chmodSync(shared, 0o1777);
});

afterAll(() => {
  if (otherMade) spawnSync('userdel', [OTHER]);
});

describe('incident export --out, as root in a folder others can write', () => {
  it('a new file is created 0600 with the timeline', async () => {
    const out = path.join(shared, 'new.md');
    const r = await export_(out);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toContain(SECRET_NOTE);
    const st = fs.statSync(out);
    expect([st.mode & 0o777, st.uid]).toEqual([0o600, process.getuid!()]);
  });

  it('a file another user planted (0666) is refused naming its owner; nothing is written into it', async () => {
    const out = path.join(shared, 'planted.md');
    asOther('sh', '-c', `umask 0; echo waiting > ${out}`);
    const uid = fs.statSync(out).uid;
    const r = await export_(out);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(`${out} belongs to ${OTHER} (uid ${uid}), not to you: nothing was written`);
    expect(fs.readFileSync(out, 'utf8')).toBe('waiting\n');
    expect(fs.statSync(out).mode & 0o777).toBe(0o666);
    const j = await export_(out, '--json');
    expect(j.code).toBe(64);
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, error: expect.stringContaining(`belongs to ${OTHER}`) });
    expect(fs.readFileSync(out, 'utf8')).toBe('waiting\n');
  });

  it("root's own file is rewritten (0600); a link, a second name or a FIFO is refused without blocking", async () => {
    const own = path.join(shared, 'own.md');
    fs.writeFileSync(own, 'an older and longer export of the timeline');
    fs.chmodSync(own, 0o644);
    const r = await export_(own);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(own, 'utf8')).toContain(SECRET_NOTE);
    expect(fs.statSync(own).mode & 0o777).toBe(0o600);
    // Another user's link to root's file, and a second name of it (both in the shared folder).
    asOther('ln', '-s', own, path.join(shared, 'link.md'));
    expect((await export_(path.join(shared, 'link.md'))).stderr).toMatch(/link\.md is a symbolic link: nothing was written/);
    fs.linkSync(own, path.join(shared, 'hard.md'));
    expect((await export_(path.join(shared, 'hard.md'))).stderr).toMatch(/hard\.md has 2 names \(a hard link\): nothing was written/);
    asOther('mkfifo', path.join(shared, 'fifo.md'));
    const fifo = await export_(path.join(shared, 'fifo.md'));
    expect([fifo.code, fifo.stderr]).toEqual([64, expect.stringMatching(/fifo\.md is a FIFO: nothing was written/)]);
  });
});
