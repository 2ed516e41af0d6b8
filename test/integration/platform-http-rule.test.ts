// The platform's refresh token never travels in clear text to another machine, and never follows
// a redirect (issue 31.4). Real HTTP on loopback: a hostile "platform" that answers the token
// exchange or a read with a redirect, and a catcher that records whatever reaches it.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PlatformSignIn } from '../../src/platform/sign-in';
import { createEsApi } from '../../src/cluster/api';
import { closeClient, createClient } from '../../src/cluster/connection';
import { openProfileSignIn } from '../../src/services/platform-sign-in';
import { ensureBuilt, runCli } from '../helpers/run-cli';

let hostile: http.Server;
let catcher: http.Server;
let hostileUrl: string;
let catcherUrl: string;
const caught: string[] = [];
const TOKEN = 'rt_secret-refresh-token-5521';

function listen(s: http.Server): Promise<string> {
  return new Promise((r) => s.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  ensureBuilt();
  catcher = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      caught.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body}`);
      res.end('{}');
    });
  });
  catcherUrl = await listen(catcher);
  hostile = http.createServer((req, res) => {
    req.resume();
    if (req.url === '/ok/api/user/oauth2/token') {
      // Under /ok the exchange works: the read after it carries the bearer token.
      const rec = {
        user_id: 'u',
        session_id: 's',
        role: 'admin',
        tenant: 'acme',
        role_permissions: [],
        project_permissions: [],
        access_token: 'at_bearer-secret-77',
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rec));
      return;
    }
    if (req.url === '/api/user/oauth2/token') {
      // 307/308 keep the method and body: a follower would resend the token to the target.
      res.writeHead(307, { location: `${catcherUrl}/steal` }).end();
      return;
    }
    res.writeHead(302, { location: `${catcherUrl}/steal-read` }).end();
  });
  hostileUrl = await listen(hostile);
});

afterAll(async () => {
  await new Promise((r) => hostile?.close(r));
  await new Promise((r) => catcher?.close(r));
});

it('the token exchange does not follow a redirect: an error names the target, nothing reaches it', async () => {
  const platform = new PlatformSignIn({ baseUrl: hostileUrl, refreshToken: TOKEN, stored: true, tokens: { save: () => undefined } });
  await expect(platform.signIn()).rejects.toThrow(`redirected to ${catcherUrl}/steal`);
  expect(caught).toEqual([]);
});

it('a read carrying the bearer token does not follow a redirect either', async () => {
  const platform = new PlatformSignIn({
    baseUrl: `${hostileUrl}/ok`,
    refreshToken: TOKEN,
    stored: true,
    tokens: { save: () => undefined },
    readRetries: 0,
  });
  await platform.signIn();
  await expect(platform.getJson('/api/topic/v0/acme/projects')).rejects.toThrow(`redirected to ${catcherUrl}/steal-read`);
  expect(caught).toEqual([]);
});

it('the Elasticsearch client does not follow a redirect with the password either', async () => {
  const client = createClient({ url: hostileUrl, user: 'elastic', password: 'es-pw-redirect-31' });
  try {
    // Neither followed nor read as an (empty) answer: an error naming the target.
    await expect(createEsApi(client, hostileUrl).data('health')).rejects.toThrow(
      `redirecting to ${catcherUrl}/steal-read: shardeck does not follow redirects`,
    );
  } finally {
    await closeClient(client);
  }
  expect(caught).toEqual([]);
});

it('profiles save refuses a plain-http platform on another machine unless --insecure-http, and saves nothing', async () => {
  const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-http-rule-'));
  const env = { SHARDECK_CONFIG_DIR: cfg };
  const r = await runCli(['profiles', 'save', 'remote', '--url', 'http://127.0.0.1:9200', '--platform', 'http://10.1.2.3:8080'], { env });
  expect(r.code, r.stderr).toBe(64);
  expect(r.stderr).toContain('plain http to another machine');
  expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
  expect(fs.existsSync(path.join(cfg, 'config.json'))).toBe(false);
  const ok = await runCli(
    ['profiles', 'save', 'remote', '--url', 'http://127.0.0.1:9200', '--platform', 'http://10.1.2.3:8080', '--insecure-http'],
    { env },
  );
  expect(ok.code, ok.stderr).toBe(0);
  expect(JSON.parse(fs.readFileSync(path.join(cfg, 'config.json'), 'utf8')).profiles.remote).toMatchObject({
    platformUrl: 'http://10.1.2.3:8080',
    platformInsecureHttp: true,
  });
  // Loopback http needs no flag (the reference platform server runs there).
  const local = await runCli(['profiles', 'save', 'local', '--platform', 'http://127.0.0.1:8080'], { env });
  expect(local.code, local.stderr).toBe(0);
  fs.rmSync(cfg, { recursive: true, force: true });
});

it('a profile whose plain-http platform was never accepted (config edited by hand) is refused when used', () => {
  const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-http-rule-'));
  const old = process.env.SHARDECK_CONFIG_DIR;
  process.env.SHARDECK_CONFIG_DIR = cfg;
  try {
    expect(() => openProfileSignIn('p', { url: 'http://127.0.0.1:9', platformUrl: 'http://10.1.2.3:8080' })).toThrow(
      /plain http to another machine/,
    );
  } finally {
    if (old === undefined) delete process.env.SHARDECK_CONFIG_DIR;
    else process.env.SHARDECK_CONFIG_DIR = old;
    fs.rmSync(cfg, { recursive: true, force: true });
  }
});
