// The built CLI's platform commands (login, whoami, projects, profiles, logout) against the reference
// platform server and a real Elasticsearch node, with a private SHARDECK_CONFIG_DIR.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer } from '../../dev/platform-server.mjs';
import { readAudit } from '../../src/services/audit';
import { CLI, ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { waitUntil } from '../helpers/wait-until';

let server: Awaited<ReturnType<typeof startPlatformServer>>;
let node: SharedNode;
let dir: string;
let env: NodeJS.ProcessEnv;
const secrets = () => path.join(env.SHARDECK_CONFIG_DIR!, 'secrets.json');
const cli = (args: string[], input?: string) => runCli(args, { env, input });

beforeAll(async () => {
  ensureBuilt();
  [server, node] = await Promise.all([startPlatformServer(), sharedNode()]);
  server.setProjects([
    { id: 'Alpha', name: 'Alpha storefront' },
    { id: 'KB', name: 'Knowledge base' },
    { id: 'Zulu', name: 'Zulu pilot' },
  ]);
  for (const index of ['service_v9_alpha', 'service_v9_kb', 'service_v9_legacy']) {
    const res = await fetch(`${node.url}/${index}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { number_of_shards: 1, number_of_replicas: 0 } }),
    });
    expect(res.status).toBe(200);
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-cli-platform-'));
  env = { SHARDECK_CONFIG_DIR: path.join(dir, 'conf') };
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('shardeck login / whoami / projects / profiles / logout (built CLI)', () => {
  it('login reads the token from stdin, proves it with one exchange and stores it 0600 in a 0700 dir', async () => {
    const before = server.exchanges;
    const r = await cli(['login', '--platform', server.url], `${server.refreshToken}\n`);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^signed in to http:\/\/127\.0\.0\.1:\d+ as alice@acme \(role admin\); the refresh token is stored for profile "default"/,
    );
    expect(server.exchanges - before).toBe(1);
    expect(JSON.parse(fs.readFileSync(secrets(), 'utf8')).refreshTokens.default).toBe(server.refreshToken);
    expect(fs.statSync(secrets()).mode & 0o777).toBe(0o600);
    expect(fs.statSync(env.SHARDECK_CONFIG_DIR!).mode & 0o777).toBe(0o700);
    const config = JSON.parse(fs.readFileSync(path.join(env.SHARDECK_CONFIG_DIR!, 'config.json'), 'utf8'));
    expect(config.profiles.default.platformUrl).toBe(server.url);
    expect(JSON.stringify(config)).not.toContain(server.refreshToken);
  });

  it('whoami --json shows the session record without tokens', async () => {
    const r = await cli(['whoami', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      profile: 'default',
      platformUrl: server.url,
      user_id: 'alice',
      tenant: 'acme',
      role: 'admin',
      role_permissions: ['tenant.read', 'tenant.admin', 'project.read'],
      project_permissions: ['*', 'frontend.user'],
    });
    expect(out.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(out)).not.toContain('access_token');
    expect(Object.keys(out)).not.toContain('refresh_token');
  });

  it('projects --json matches projects to the indices of a real node, flagging orphans both ways', async () => {
    const r = await cli(['projects', '--json', '--url', node.url]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.tenant).toBe('acme');
    expect(out.storage).toEqual({ reachable: true, url: node.url });
    expect(out.projects).toEqual([
      { id: 'Alpha', name: 'Alpha storefront', index: 'service_v9_alpha', indexExists: true },
      { id: 'KB', name: 'Knowledge base', index: 'service_v9_kb', indexExists: true },
      { id: 'Zulu', name: 'Zulu pilot', index: 'service_v9_zulu', indexExists: false },
    ]);
    expect(out.projectsWithoutIndex).toEqual(['Zulu']);
    expect(out.indicesWithoutProject).toEqual(['service_v9_legacy']);

    const text = await cli(['projects', '--url', node.url]);
    expect(text.stdout).toContain('service_v9_zulu (none)');
    expect(text.stdout).toContain('indices of no known project: service_v9_legacy');
    expect(Math.max(...text.stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
  });

  it('projects still lists the projects when the storage node cannot be reached', async () => {
    const r = await cli(['projects', '--json', '--url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.storage.reachable).toBe(false);
    expect(out.storage.error).toMatch(/connection refused/);
    expect(out.projects.map((p: { id: string }) => p.id)).toEqual(['Alpha', 'KB', 'Zulu']);
  });

  it('a rotating platform: login stores the token the server issued, not the one typed', async () => {
    const given = server.addUser();
    server.setRotate(true);
    try {
      const r = await cli(['login', '--profile', 'ops', '--platform', server.url], given);
      expect(r.code).toBe(0);
      const stored = JSON.parse(fs.readFileSync(secrets(), 'utf8')).refreshTokens.ops;
      expect(stored).not.toBe(given);
      expect(server.validRefreshTokens()).toContain(stored);
      // The default profile's token is untouched by ops' login.
      expect(JSON.parse(fs.readFileSync(secrets(), 'utf8')).refreshTokens.default).toBe(server.refreshToken);
    } finally {
      server.setRotate(false);
    }
  });

  it('profiles lists every profile, no secrets, the last used marked', async () => {
    const r = await cli(['profiles']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\* ops\s+http:\/\/localhost:9200\s+http:\/\/127\.0\.0\.1:\d+ \(signed in\)$/m);
    expect(r.stdout).toMatch(/^ {2}default\s/m);
    const json = JSON.parse((await cli(['profiles', '--json'])).stdout);
    expect(json.map((p: { name: string; last: boolean }) => [p.name, p.last])).toEqual([
      ['default', false],
      ['ops', true],
    ]);
    // The last used is the default: whoami without --profile signs in as ops.
    expect(JSON.parse((await cli(['whoami', '--json'])).stdout).profile).toBe('ops');
  });

  it('login with an unknown token (404) explains and stores nothing', async () => {
    const before = fs.readFileSync(secrets(), 'utf8');
    const r = await cli(['login', '--profile', 'bad', '--platform', server.url], 'rt_no-such-token\n');
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(
      'shardeck login: the refresh token is invalid: generate a new one under API Access in the platform settings, then run shardeck login --profile bad\n',
    );
    expect(fs.readFileSync(secrets(), 'utf8')).toBe(before);
    expect(JSON.parse((await cli(['profiles', '--json'])).stdout).map((p: { name: string }) => p.name)).not.toContain('bad');
  });

  it('on a terminal, login prompts for the token without echoing it', async () => {
    // A real terminal: tmux gives the CLI a pty; the test types the token as an operator would.
    const sock = `shardeck-login-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', ['-L', sock, ...args], { encoding: 'utf8' });
    const screen = () => tmux('capture-pane', '-p', '-t', 'login');
    const waitFor = (text: string) =>
      waitUntil(`"${text}" on screen`, screen, (s) => s.includes(text), { timeoutMs: 10_000, intervalMs: 50 }).catch((e: Error) => {
        throw new Error(`no "${text}" on screen:\n${screen()}`, { cause: e });
      });
    const token = server.addUser();
    const cmd = `env SHARDECK_CONFIG_DIR=${env.SHARDECK_CONFIG_DIR} NO_COLOR=1 ${process.execPath} ${CLI} login --profile tty --platform ${server.url}; sleep 30`;
    tmux('new-session', '-d', '-s', 'login', '-x', '150', '-y', '10', cmd);
    try {
      await waitFor('input hidden');
      tmux('send-keys', '-t', 'login', '-l', token);
      tmux('send-keys', '-t', 'login', 'Enter');
      await waitFor('signed in to');
      expect(screen()).not.toContain(token);
      expect(JSON.parse(fs.readFileSync(secrets(), 'utf8')).refreshTokens.tty).toBe(token);
    } finally {
      tmux('kill-server');
    }
  });

  it('the demo signs a profile in through dev/platform.mjs platformSignIn', () => {
    // Its own run dir, so a demo's server elsewhere on the machine is left alone.
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-demo-run-'));
    const script = `const m = await import(${JSON.stringify(path.resolve('dev/platform.mjs'))});
      try { await m.platformSignIn({ cli: ${JSON.stringify(CLI)}, configDir: ${JSON.stringify(env.SHARDECK_CONFIG_DIR)}, profile: 'demo' }); }
      finally { await m.platformStop(); }`;
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, SHARDECK_DEV_CACHE: cache },
        stdio: 'pipe',
      });
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
    const config = JSON.parse(fs.readFileSync(path.join(env.SHARDECK_CONFIG_DIR!, 'config.json'), 'utf8'));
    expect(config.profiles.demo.platformUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(JSON.parse(fs.readFileSync(secrets(), 'utf8')).refreshTokens.demo).toMatch(/^rt_/);
  });

  it('refuses a token on the command line without echoing it, and an empty stdin', async () => {
    const r = await cli(['login', '--platform', server.url, 'rt_typed-on-argv']);
    expect(r.code).toBe(64);
    expect(r.stderr).toMatch(/never taken from the command line/);
    expect(r.stderr + r.stdout).not.toContain('rt_typed-on-argv');
    const empty = await cli(['login', '--platform', server.url], '');
    expect(empty.code).toBe(64);
    expect(empty.stderr).toMatch(/no refresh token given: type it at the prompt or pipe it on stdin/);
  });

  it('refuses a secrets file others can read, with the chmod that fixes it', async () => {
    fs.chmodSync(secrets(), 0o644);
    try {
      const r = await cli(['whoami', '--profile', 'default']);
      expect(r.code).toBe(64);
      expect(r.stderr).toContain(`can be read by others (mode 0644): run chmod 600 ${JSON.stringify(secrets())}`);
      expect(r.stdout).toBe('');
    } finally {
      fs.chmodSync(secrets(), 0o600);
    }
  });

  it('pair-debugging on a rotating platform: six shardeck processes of one profile exchange one after another, none is left with a retired token', async () => {
    server.setRotate(true);
    try {
      expect((await cli(['login', '--profile', 'pair', '--platform', server.url], server.addUser())).code).toBe(0);
      const before = server.exchanges;
      const runs = await Promise.all(Array.from({ length: 6 }, () => cli(['projects', '--profile', 'pair', '--json', '--url', node.url])));
      for (const r of runs) expect(r.stderr, r.stderr).toBe('');
      expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0]);
      expect(server.exchanges - before).toBe(6);
      const stored = JSON.parse(fs.readFileSync(secrets(), 'utf8')).refreshTokens.pair;
      expect(server.validRefreshTokens()).toContain(stored);
      expect(fs.existsSync(`${secrets()}.lock`)).toBe(false);
    } finally {
      server.setRotate(false);
    }
  });

  it('a CLI mutation after login names the signed-in platform user in its audit record', async () => {
    const r = await cli(['replicas', 'set', 'service_v9_alpha', '0', '--yes', '--json', '--profile', 'default', '--url', node.url]);
    expect(r.code, r.stderr).toBe(0);
    const { records } = readAudit(path.join(env.SHARDECK_CONFIG_DIR!, 'audit.log'));
    expect(records.at(-1)).toMatchObject({
      profile: 'default',
      platformUser: 'alice',
      request: { method: 'PUT', path: '/service_v9_alpha/_settings' },
      outcome: { ok: true },
    });
  });

  it('logout forgets the token; whoami then says how to sign in', async () => {
    const r = await cli(['logout', '--profile', 'default']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^forgot the refresh token of profile "default"/);
    expect(JSON.parse(fs.readFileSync(secrets(), 'utf8')).refreshTokens.default).toBeUndefined();
    const config = JSON.parse(fs.readFileSync(path.join(env.SHARDECK_CONFIG_DIR!, 'config.json'), 'utf8'));
    expect(config.profiles.default.platformUser).toBeUndefined();
    const who = await cli(['whoami', '--profile', 'default']);
    expect(who.code).toBe(64);
    expect(who.stderr).toBe('shardeck whoami: profile "default" is not signed in to the platform: run shardeck login --profile default\n');
  });
});
