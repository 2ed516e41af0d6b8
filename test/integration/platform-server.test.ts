// The reference platform server keeps exactly the seed's contract (tests and the demo rely on it),
// and `npm run platform:start|stop` runs it detached.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer } from '../../dev/platform-server.mjs';

let server: Awaited<ReturnType<typeof startPlatformServer>>;
beforeAll(async () => {
  server = await startPlatformServer({ tokenTtlSeconds: 600 });
});
afterAll(() => server.close());

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const exchange = (refreshToken: string) =>
  fetch(`${server.url}/api/user/oauth2/token`, form({ grant_type: 'refresh_token', refresh_token: refreshToken }));
const projects = (authorization?: string, tenant = 'acme') =>
  fetch(`${server.url}/api/topic/v0/${tenant}/projects`, {
    headers: { accept: 'application/json', ...(authorization ? { authorization } : {}) },
  });

describe('token operation', () => {
  it('returns the session record with exactly the eight documented fields', async () => {
    const res = await exchange(server.refreshToken);
    expect(res.status).toBe(200);
    const rec = (await res.json()) as any;
    expect(Object.keys(rec).sort()).toEqual([
      'access_token',
      'project_permissions',
      'refresh_token',
      'role',
      'role_permissions',
      'session_id',
      'tenant',
      'user_id',
    ]);
    expect(rec.refresh_token).toBe(server.refreshToken);
  });

  it('400 unless grant_type=refresh_token in a form body; 404 unknown; 410 revoked', async () => {
    expect(
      (await fetch(`${server.url}/api/user/oauth2/token`, form({ grant_type: 'password', refresh_token: server.refreshToken }))).status,
    ).toBe(400);
    expect(
      (
        await fetch(`${server.url}/api/user/oauth2/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: server.refreshToken }),
        })
      ).status,
    ).toBe(400);
    expect((await exchange('rt_unknown')).status).toBe(404);
    const t = server.addUser();
    server.revoke(t);
    expect((await exchange(t)).status).toBe(410);
  });

  it('rotates when asked: the old token becomes unknown', async () => {
    const t = server.addUser();
    server.setRotate(true);
    try {
      const rec = (await (await exchange(t)).json()) as any;
      expect(rec.refresh_token).not.toBe(t);
      expect((await exchange(t)).status).toBe(404);
      expect((await exchange(rec.refresh_token)).status).toBe(200);
    } finally {
      server.setRotate(false);
    }
  });
});

describe('projects', () => {
  it('401 without credentials, with an unknown or an expired token; bearer and Basic with a user token work', async () => {
    expect((await projects()).status).toBe(401);
    expect((await projects('Bearer at_unknown')).status).toBe(401);
    const t = server.addUser();
    const { access_token } = (await (await exchange(t)).json()) as any;
    const ok = await projects(`Bearer ${access_token}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toContainEqual({ id: 'Alpha', name: 'Alpha Logistics' });
    expect((await projects(`Basic ${Buffer.from(`alice:${t}`).toString('base64')}`)).status).toBe(200);
    // The refresh token is not a bearer credential (seed, Authentication 5).
    expect((await projects(`Bearer ${t}`)).status).toBe(401);
    expect((await projects(`Bearer ${access_token}`, 'other')).status).toBe(403);
    server.expireAccessTokens();
    expect((await projects(`Bearer ${access_token}`)).status).toBe(401);
  });

  it('serves the list a test sets', async () => {
    const { access_token } = (await (await exchange(server.addUser())).json()) as any;
    server.setProjects([{ id: 'Solo', name: 'Only one' }]);
    expect(await (await projects(`Bearer ${access_token}`)).json()).toEqual([{ id: 'Solo', name: 'Only one' }]);
  });
});

describe('npm run platform:start / platform:stop', () => {
  it('starts detached, prints PLATFORM_URL and REFRESH_TOKEN last, and stops', async () => {
    // Its own run dir, so a demo's server elsewhere on the machine is left alone.
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-platform-run-'));
    const env = { ...process.env, SHARDECK_DEV_CACHE: cache };
    const script = path.resolve('dev/platform.mjs');
    try {
      const out = execFileSync('node', [script, 'start', '--token-ttl', '5'], {
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const lines = out.trim().split('\n');
      const url = /^PLATFORM_URL=(http:\/\/127\.0\.0\.1:\d+)$/.exec(lines.at(-2)!)?.[1];
      const token = /^REFRESH_TOKEN=(\S+)$/.exec(lines.at(-1)!)?.[1];
      expect(url).toBeDefined();
      const res = await fetch(`${url}/api/user/oauth2/token`, form({ grant_type: 'refresh_token', refresh_token: token! }));
      expect(res.status).toBe(200);
      // Starting again reuses the running server.
      expect(
        execFileSync('node', [script, 'start', '--token-ttl', '5'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
      ).toBe(out);
      expect(execFileSync('node', [script, 'stop'], { env, encoding: 'utf8' })).toMatch(/^stopped the reference platform server/);
      await expect(fetch(`${url}/api/user/oauth2/token`)).rejects.toThrow();
    } finally {
      execFileSync('node', [script, 'stop'], { env, stdio: 'ignore' });
      fs.rmSync(cache, { recursive: true, force: true });
    }
  });
});
