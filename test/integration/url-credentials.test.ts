// The built CLI refuses credentials in URLs (--url, profiles save, a hand-edited config.json, the
// platform URL of login) before anything is sent, never echoes them, and refuses plain http to a
// platform on another machine unless --insecure-http is given.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../helpers/run-cli';

const SECRET = 's3cr3tPW';
const USER = 'opsuser';
let dir: string;
let env: NodeJS.ProcessEnv;
const cli = (args: string[], input?: string) => runCli(args, { env, input });
const configJson = () => path.join(env.SHARDECK_CONFIG_DIR!, 'config.json');

beforeAll(() => {
  ensureBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-url-creds-'));
  env = { SHARDECK_CONFIG_DIR: path.join(dir, 'conf') };
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

// Port 1 on loopback: nothing listens, so exit 64 (not 3) proves nothing was even tried.
const SHAPES = [
  `http://${USER}:${SECRET}@127.0.0.1:1`,
  `http://${USER}@127.0.0.1:1`,
  `http://:${SECRET}@127.0.0.1:1`,
  `${USER}:${SECRET}@127.0.0.1:1`,
];

function expectRefusedWithoutEcho(r: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  expect(r.code).toBe(64);
  expect(r.stderr).toMatch(pattern);
  expect(r.stdout + r.stderr).not.toContain(SECRET);
  expect(r.stdout + r.stderr).not.toContain(USER);
}

describe('credentials in URLs are refused everywhere and never echoed', () => {
  it.each(SHAPES)('--url %s: exit 64, points to --user / --password-file / --password-env', async (url) => {
    for (const args of [['status'], ['unblock', '--json'], ['replicas', 'set', 'x', '0', '--yes']]) {
      const r = await cli([...args, '--url', url]);
      expectRefusedWithoutEcho(r, /--user .*--password-file .*--password-env/);
    }
  });

  it.each(SHAPES)('profiles save --url %s is refused and nothing is stored', async (url) => {
    const r = await cli(['profiles', 'save', 'leaky', '--url', url]);
    expectRefusedWithoutEcho(r, /--url holds credentials/);
    expect(fs.existsSync(configJson()) ? fs.readFileSync(configJson(), 'utf8') : '').not.toContain(SECRET);
  });

  it('profiles save --platform with credentials is refused', async () => {
    const r = await cli(['profiles', 'save', 'leaky', '--platform', `https://${USER}:${SECRET}@platform.example.com`]);
    expectRefusedWithoutEcho(r, /platform URL holds credentials/);
  });

  it('a config.json edited by hand with user:pass@ in a URL: using it is refused, listing it does not show them', async () => {
    expect((await cli(['profiles', 'save', 'handmade', '--url', 'http://127.0.0.1:1'])).code).toBe(0);
    const conf = JSON.parse(fs.readFileSync(configJson(), 'utf8'));
    conf.profiles.handmade.url = `http://${USER}:${SECRET}@127.0.0.1:1`;
    conf.profiles.handmade.platformUrl = `http://${USER}:${SECRET}@127.0.0.1:2`;
    fs.writeFileSync(configJson(), JSON.stringify(conf));
    expectRefusedWithoutEcho(await cli(['status', '--profile', 'handmade']), /the URL of the profile holds credentials/);
    expectRefusedWithoutEcho(await cli(['explain', '--profile', 'handmade', '--json']), /the URL of the profile holds credentials/);
    for (const args of [['profiles'], ['profiles', '--json']]) {
      const r = await cli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('handmade');
      expect(r.stdout).toContain('127.0.0.1:1');
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.stdout + r.stderr).not.toContain(USER);
    }
    // The platform commands refuse it too (a signed-in profile would otherwise send the token there).
    fs.writeFileSync(
      path.join(env.SHARDECK_CONFIG_DIR!, 'secrets.json'),
      JSON.stringify({ version: 1, refreshTokens: { handmade: 'tok' } }),
      { mode: 0o600 },
    );
    const who = await cli(['whoami', '--profile', 'handmade']);
    expect(who.code).not.toBe(0);
    expect(who.code).not.toBe(3);
    expect(who.stdout + who.stderr).not.toContain(SECRET);
  });

  it('login --platform with credentials: exit 64, never echoed', async () => {
    for (const url of [
      `http://${USER}:${SECRET}@127.0.0.1:1`,
      `https://${USER}@platform.example.com`,
      `${USER}:${SECRET}@platform.example.com`,
    ]) {
      const r = await cli(['login', '--platform', url], 'tok\n');
      expectRefusedWithoutEcho(r, /platform URL/);
    }
  });
});

describe('login to a plain-http platform', () => {
  // platform.invalid is not loopback and never resolves (RFC 2606): exit 3 proves the request was tried.
  it('another machine over http: refused without --insecure-http, tried with it', async () => {
    const refused = await cli(['login', '--platform', 'http://platform.invalid:1'], 'tok\n');
    expect(refused.code).toBe(64);
    expect(refused.stderr).toMatch(/plain http to another machine.*--insecure-http/);
    const tried = await cli(['login', '--platform', 'http://platform.invalid:1', '--insecure-http'], 'tok\n');
    expect(tried.code).toBe(3);
    expect(tried.stderr).toMatch(/cannot reach the platform/);
  });

  it('loopback http stays allowed (the reference platform server runs there)', async () => {
    const r = await cli(['login', '--platform', 'http://127.0.0.1:1'], 'tok\n');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/cannot reach the platform/);
  });
});
