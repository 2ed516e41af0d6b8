// The platform sign-in (token exchange and refresh) against the reference platform server over real HTTP on loopback.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPlatformServer } from '../../dev/platform-server.mjs';
import { readRefreshToken, saveRefreshToken, secretsFile } from '../../src/config/secrets';
import { fetchProjects, projectsPath } from '../../src/platform/projects';
import { PlatformError, PlatformSignIn, type SignInStatus } from '../../src/platform/sign-in';
import { openProfileSignIn } from '../../src/services/platform-sign-in';

type Server = Awaited<ReturnType<typeof startPlatformServer>>;

let server: Server;
let configDir: string;
const oldConfigDir = process.env.SHARDECK_CONFIG_DIR;

beforeAll(async () => {
  server = await startPlatformServer({ tokenTtlSeconds: 600 });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-platform-'));
  process.env.SHARDECK_CONFIG_DIR = path.join(configDir, 'conf');
  server.setRotate(false);
  server.setTokenTtl(600);
});
afterEach(() => {
  if (oldConfigDir === undefined) delete process.env.SHARDECK_CONFIG_DIR;
  else process.env.SHARDECK_CONFIG_DIR = oldConfigDir;
  fs.rmSync(configDir, { recursive: true, force: true });
});

/** A sign-in for a fresh user whose token is stored as profile `name`. */
function signInFor(name: string, tuning: Partial<ConstructorParameters<typeof PlatformSignIn>[0]> = {}) {
  const token = server.addUser();
  saveRefreshToken(name, token);
  const platform = openProfileSignIn(name, { url: 'http://127.0.0.1:9', platformUrl: server.url }, tuning);
  return { token, platform };
}

const tenantPath = projectsPath('acme');

describe('sign-in', () => {
  it('returns the platform record without any token', async () => {
    const { platform } = signInFor('p');
    const info = await platform.signIn();
    expect(Object.keys(info).sort()).toEqual(['project_permissions', 'role', 'role_permissions', 'session_id', 'tenant', 'user_id']);
    expect(info).toMatchObject({ user_id: 'alice', tenant: 'acme', role: 'admin', project_permissions: ['*', 'frontend.user'] });
    expect(platform.status.state).toBe('signed-in');
    expect(await fetchProjects(platform)).toContainEqual({ id: 'Kb', name: 'Knowledge Base' });
  });

  it('explains an unknown refresh token (404) and sends nothing more', async () => {
    const platform = new PlatformSignIn({
      baseUrl: server.url,
      refreshToken: 'rt_not-a-token',
      stored: true,
      tokens: { save: () => undefined },
      loginCommand: 'shardeck login',
    });
    const before = server.exchanges;
    await expect(platform.signIn()).rejects.toThrow(
      'the refresh token is invalid: generate a new one under API Access in the platform settings, then run shardeck login',
    );
    await expect(platform.getJson(tenantPath)).rejects.toMatchObject({ kind: 'invalid-token', status: 404 });
    expect(server.exchanges - before).toBe(1);
  });

  it('never shows a token when inspected', async () => {
    const { token, platform } = signInFor('p');
    await platform.signIn();
    const { inspect } = await import('node:util');
    expect(inspect(platform, { depth: 5, showHidden: true })).not.toContain(token);
  });
});

describe('expiry while signed in', () => {
  it('20 concurrent requests after the platform ended the access token: one exchange, all succeed', async () => {
    const { platform } = signInFor('p');
    await platform.signIn();
    const before = server.exchanges;
    server.expireAccessTokens();
    const results = await Promise.all(Array.from({ length: 20 }, () => platform.getJson(tenantPath)));
    expect(results).toHaveLength(20);
    for (const r of results) expect(r).toContainEqual({ id: 'Alpha', name: 'Alpha Logistics' });
    expect(server.exchanges - before).toBe(1);
    expect(platform.status.state).toBe('signed-in');
  });

  it('refreshes ahead of expiry from the local receive time: one exchange, no request sent with an expired token', async () => {
    server.setTokenTtl(1);
    const { platform } = signInFor('p', { lifetimeMs: 1000 });
    await platform.signIn();
    const before = { exchanges: server.exchanges, unauthorized: server.counters.unauthorized };
    // Real time must pass: the token's 1 s lifetime runs out (no fake clock: the server's is real too).
    await new Promise((r) => setTimeout(r, 1100));
    const results = await Promise.all(Array.from({ length: 20 }, () => platform.getJson(tenantPath)));
    expect(results.every(Array.isArray)).toBe(true);
    expect(server.exchanges - before.exchanges).toBe(1);
    expect(server.counters.unauthorized - before.unauthorized).toBe(0);
  });

  it('on a 401 refreshes once and retries once, then gives up with a clear error', async () => {
    const { platform } = signInFor('p');
    await platform.signIn();
    server.setTokenTtl(0); // every new access token is born expired: the retry also gets 401
    server.expireAccessTokens();
    const before = { exchanges: server.exchanges, requests: server.counters.projectRequests };
    const err = (await platform.getJson(tenantPath).catch((e: unknown) => e)) as PlatformError;
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('unauthorized');
    expect(server.exchanges - before.exchanges).toBe(1);
    expect(server.counters.projectRequests - before.requests).toBe(2);
  });
});

describe('410 while signed in', () => {
  it('gives a clear message, no crash and no retry storm; a new login brings it back', async () => {
    const { token, platform } = signInFor('p');
    const states: SignInStatus[] = [];
    platform.onStatus((s) => states.push(s));
    await platform.signIn();
    server.revoke(token);
    const before = { exchanges: server.exchanges, requests: server.counters.projectRequests };
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => platform.getJson(tenantPath)));
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const e = (r as PromiseRejectedResult).reason as PlatformError;
      expect(e.kind).toBe('expired-token');
      expect(e.final).toBe(true);
      expect(e.message).toMatch(
        /expired or revoked it, e\.g\. for a security reason: generate a new one under API Access in the platform settings, then run shardeck login --profile p$/,
      );
    }
    // The 20 requests that were already on their way got 401; they shared one exchange (the 410).
    expect(server.exchanges - before.exchanges).toBe(1);
    expect(server.counters.projectRequests - before.requests).toBe(20);
    // Fifty more calls (a TUI polling on) send nothing at all.
    for (let i = 0; i < 50; i++) await expect(platform.getJson(tenantPath)).rejects.toMatchObject({ kind: 'expired-token' });
    expect(server.exchanges - before.exchanges).toBe(1);
    expect(server.counters.projectRequests - before.requests).toBe(20);
    expect(platform.status.state).toBe('error');
    expect(states.at(-1)?.message).toMatch(/security reason/);

    // The operator runs shardeck login (here: a new token lands in the secrets file).
    saveRefreshToken('p', server.addUser());
    expect(await platform.getJson(tenantPath)).toContainEqual({ id: 'Alpha', name: 'Alpha Logistics' });
    expect(platform.status.state).toBe('signed-in');
  });
});

describe('rotated refresh tokens', () => {
  it('stores the new token atomically in the 0600 secrets file inside the 0700 config dir', async () => {
    const { token, platform } = signInFor('rot');
    await platform.signIn();
    server.setRotate(true);
    server.expireAccessTokens();
    const body = await platform.getJson(tenantPath);
    expect(Array.isArray(body)).toBe(true);
    const stored = readRefreshToken('rot');
    expect(stored).not.toBe(token);
    expect(server.validRefreshTokens()).toContain(stored);
    expect(server.validRefreshTokens()).not.toContain(token);
    const file = secretsFile();
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).refreshTokens.rot).toBe(stored);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    // No temp file left behind by the atomic write.
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('the save happens before the new access token is used', async () => {
    const token = server.addUser();
    const order: string[] = [];
    const platform = new PlatformSignIn({
      baseUrl: server.url,
      refreshToken: token,
      stored: true,
      tokens: {
        save: (t) => {
          order.push(`save requests=${server.counters.projectRequests}`);
          expect(server.validRefreshTokens()).toContain(t);
        },
      },
    });
    await platform.signIn();
    server.setRotate(true);
    server.expireAccessTokens();
    const before = server.counters.projectRequests;
    await platform.getJson(tenantPath);
    expect(order).toEqual([`save requests=${before + 1}`]);
    expect(server.counters.projectRequests).toBe(before + 2);
  });

  it('a second shardeck on the same profile picks up the token the first one rotated', async () => {
    server.setRotate(true);
    const { platform: first } = signInFor('shared');
    const second = openProfileSignIn('shared', { url: 'http://127.0.0.1:9', platformUrl: server.url });
    await first.signIn(); // rotates: the token the second one read at start is now unknown
    const info = await second.signIn();
    expect(info.user_id).toBe('alice');
    expect(server.validRefreshTokens()).toContain(readRefreshToken('shared'));
  });
});

describe('network errors', () => {
  it('retries reads with backoff, shows the state meanwhile, and recovers', async () => {
    // A loopback proxy in front of the server that can drop connections, like a flaky network.
    let up = true;
    let dropped = 0;
    const open = new Set<net.Socket>();
    // Going down also cuts the kept-alive connections, as a network outage would.
    const setUp = (on: boolean) => {
      up = on;
      if (!on) for (const s of open) s.destroy();
    };
    const proxy = net.createServer((client) => {
      if (!up) {
        dropped++;
        client.destroy();
        return;
      }
      const upstream = net.connect(Number(new URL(server.url).port), '127.0.0.1');
      open.add(client).add(upstream);
      client.on('close', () => open.delete(client));
      upstream.on('close', () => open.delete(upstream));
      client.pipe(upstream).pipe(client);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    try {
      const token = server.addUser();
      const states: SignInStatus[] = [];
      const platform = new PlatformSignIn({
        baseUrl: proxyUrl,
        refreshToken: token,
        stored: true,
        tokens: { save: () => undefined },
        retryDelayMs: 100,
        readRetries: 3,
      });
      // The network comes back once the sign-in has shown that it is retrying (not after a fixed time).
      let comeBackOnRetry = false;
      platform.onStatus((s) => {
        states.push(s);
        if (comeBackOnRetry && s.state === 'error' && /retrying in/.test(s.message ?? '')) {
          comeBackOnRetry = false;
          setUp(true);
        }
      });
      await platform.signIn();
      setUp(false);
      comeBackOnRetry = true;
      const body = await platform.getJson(tenantPath);
      expect(Array.isArray(body)).toBe(true);
      expect(dropped).toBeGreaterThanOrEqual(1);
      expect(states.some((s) => s.state === 'error' && /cannot reach the platform .*retrying in/.test(s.message ?? ''))).toBe(true);
      expect(platform.status.state).toBe('signed-in');

      // Down for good: the read fails after its retries with one sentence, not final.
      setUp(false);
      const d0 = dropped;
      const err = (await platform.getJson(tenantPath).catch((e: unknown) => e)) as PlatformError;
      expect(err).toMatchObject({ kind: 'unreachable' });
      expect(err.final).toBe(false);
      expect(dropped - d0).toBe(4);
    } finally {
      proxy.close();
    }
  });
});
