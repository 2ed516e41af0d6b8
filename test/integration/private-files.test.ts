// The built CLI under umask 022 and 000: a new config dir is 0700 and config.json 0600 (also when
// an older version left it 0644); SHARDECK_CONFIG_DIR pointing at an existing folder others can
// open (a folder like /tmp) is refused with exit 64 and the folder is left as it was; a secrets.json that others
// can read is refused with the chmod that fixes it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt } from '../helpers/run-cli';

const mode = (p: string) => fs.statSync(p).mode & 0o777;
let base: string;

function cliUnder(umask: string, configDir: string, args: string[]) {
  const r = spawnSync('sh', ['-c', `umask ${umask}; exec "$0" "$@"`, process.execPath, CLI, ...args], {
    env: { ...process.env, NO_COLOR: '1', SHARDECK_CONFIG_DIR: configDir },
    encoding: 'utf8',
    input: '',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  ensureBuilt();
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-cli-modes-'));
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

describe.each(['022', '000'])('umask %s', (umask) => {
  it('a new config dir is 0700 and config.json 0600; a config.json left 0644 is tightened', () => {
    const dir = path.join(base, `new-${umask}`, 'shardeck');
    const r = cliUnder(umask, dir, ['profiles', 'save', 'p', '--url', 'http://127.0.0.1:1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, 'config.json'))).toBe(0o600);
    fs.chmodSync(path.join(dir, 'config.json'), 0o644);
    expect(cliUnder(umask, dir, ['profiles']).code).toBe(0);
    expect(mode(path.join(dir, 'config.json'))).toBe(0o600);
  });

  // A folder made like /tmp (1777), not /tmp itself: an old build under test would chmod it 0700.
  it('SHARDECK_CONFIG_DIR at a folder like /tmp (1777) or any folder others can open is refused, not chmod-ed', () => {
    const tmpLike = path.join(base, `tmp-like-${umask}`);
    fs.mkdirSync(tmpLike);
    fs.chmodSync(tmpLike, 0o1777);
    for (const args of [
      ['profiles'],
      ['status', '--url', 'http://127.0.0.1:1'],
      ['profiles', 'save', 'p', '--url', 'http://127.0.0.1:1'],
    ]) {
      const r = cliUnder(umask, tmpLike, args);
      expect(r.code).toBe(64);
      expect(r.stderr).toMatch(/tmp-like-\d+ can be opened by others .*SHARDECK_CONFIG_DIR/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(fs.statSync(tmpLike).mode & 0o7777).toBe(0o1777);
    const shared = path.join(base, `shared-${umask}`);
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o755);
    expect(cliUnder(umask, shared, ['profiles']).code).toBe(64);
    expect(mode(shared)).toBe(0o755);
  });

  it('a secrets.json others can read is refused with the chmod that fixes it (not silently tightened)', () => {
    const dir = path.join(base, `secrets-${umask}`);
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    expect(cliUnder(umask, dir, ['profiles', 'save', 'p', '--url', 'http://127.0.0.1:1']).code).toBe(0);
    fs.writeFileSync(path.join(dir, 'secrets.json'), JSON.stringify({ version: 1, refreshTokens: { p: 'tok' } }));
    fs.chmodSync(path.join(dir, 'secrets.json'), 0o644);
    const r = cliUnder(umask, dir, ['profiles']);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/secrets\.json holds secrets but can be read by others \(mode 0644\): run chmod 600/);
    expect(r.stderr).not.toContain('tok');
    expect(mode(path.join(dir, 'secrets.json'))).toBe(0o644);
  });
});
