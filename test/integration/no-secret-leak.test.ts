// Runs the built CLI's commands of the platform suite, and status against a real secured node
// (HTTPS, password in a --password-file), capturing everything shardeck printed and every file it
// wrote under SHARDECK_CONFIG_DIR, then looks for every token and password it was ever given or
// issued. The one expected place is the 0600 secrets file holding the current refresh token.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer } from '../../dev/platform-server.mjs';
import { ensureBuilt, runCli, type CliResult } from '../helpers/run-cli';
import { sharedSecureNode, type SharedNode } from '../helpers/shared-node';

let server: Awaited<ReturnType<typeof startPlatformServer>>;
let node: SharedNode;
let dir: string;
let configDir: string;
const printed: { args: string[]; result: CliResult }[] = [];

function filesUnder(d: string): string[] {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

beforeAll(async () => {
  ensureBuilt();
  [server, node] = await Promise.all([startPlatformServer(), sharedSecureNode()]);
  const es = new Client({
    node: node.url,
    auth: { username: node.user!, password: node.password! },
    tls: { ca: fs.readFileSync(node.ca!, 'utf8') },
  });
  await es.indices.create({ index: 'service_v9_alpha', settings: { number_of_shards: 1, number_of_replicas: 0 } });
  await es.close();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-no-leak-'));
  configDir = path.join(dir, 'conf');
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('no secret leaks', () => {
  it('finds no token or password in anything shardeck printed or wrote, except the 0600 secrets file', async () => {
    // Passwords live in 0600 files outside the config dir, as an operator would keep them.
    const passwordFile = path.join(dir, 'es.password');
    fs.writeFileSync(passwordFile, `${node.password}\n`, { mode: 0o600 });
    const wrongPassword = 'wrong-pass-' + Math.random().toString(36).slice(2);
    const wrongPasswordFile = path.join(dir, 'wrong.password');
    fs.writeFileSync(wrongPasswordFile, wrongPassword, { mode: 0o600 });
    const bogusToken = 'rt_bogus-' + Math.random().toString(36).slice(2);
    const argvToken = 'rt_argv-' + Math.random().toString(36).slice(2);
    const es = ['--url', node.url, '--user', node.user!, '--ca', node.ca!];

    const run = async (args: string[], input?: string) => {
      const result = await runCli(args, { env: { SHARDECK_CONFIG_DIR: configDir }, input });
      printed.push({ args, result });
      return result;
    };

    expect((await run(['login', '--platform', server.url], server.refreshToken)).code).toBe(0);
    expect((await run(['login', '--profile', 'bad', '--platform', server.url], bogusToken)).code).toBe(5);
    expect((await run(['login', '--platform', server.url, argvToken])).code).toBe(64);
    expect((await run(['whoami'])).code).toBe(0);
    expect((await run(['whoami', '--json'])).code).toBe(0);
    expect((await run(['projects', '--json', ...es, '--password-file', passwordFile])).code).toBe(0);
    expect((await run(['projects', ...es, '--password-file', passwordFile])).code).toBe(0);
    expect((await run(['status', ...es, '--password-file', passwordFile])).code).toBeLessThan(3);
    expect((await run(['status', '--json', ...es, '--password-file', passwordFile])).code).toBeLessThan(3);
    const refused = await run(['status', ...es, '--password-file', wrongPasswordFile]);
    expect(refused.code).toBe(3);
    expect(refused.stdout + refused.stderr).toMatch(/refused the credentials \(401\): check --user and the password/);
    expect((await run(['profiles'])).code).toBe(0);
    expect((await run(['profiles', '--json'])).code).toBe(0);
    // The platform rotates the refresh token: the new one is stored, the old one forgotten.
    server.setRotate(true);
    expect((await run(['whoami', '--json'])).code).toBe(0);
    server.setRotate(false);
    // Revoked for a security reason: a clear message, and still no token in it.
    for (const t of server.validRefreshTokens()) server.revoke(t);
    const revoked = await run(['whoami']);
    expect(revoked.code).toBe(5);
    expect(revoked.stderr).toMatch(/security reason/);
    // Sign in again with a fresh token, so the secrets file ends holding a valid one.
    expect((await run(['login'], server.addUser())).code).toBe(0);
    expect((await run(['logout', '--profile', 'bad'])).code).toBe(0);

    const secrets = [...server.issuedTokens(), bogusToken, argvToken, node.password!, wrongPassword];
    expect(secrets.length).toBeGreaterThan(8);
    const secretsFile = path.join(configDir, 'secrets.json');
    const current = JSON.parse(fs.readFileSync(secretsFile, 'utf8')).refreshTokens.default as string;
    expect(server.validRefreshTokens()).toContain(current);

    const leaks: string[] = [];
    for (const { args, result } of printed) {
      for (const s of secrets) {
        if (result.stdout.includes(s)) leaks.push(`stdout of shardeck ${args[0]}`);
        if (result.stderr.includes(s)) leaks.push(`stderr of shardeck ${args[0]}`);
      }
    }
    const files = filesUnder(configDir);
    expect(files).toContain(secretsFile);
    expect(files).toContain(path.join(configDir, 'config.json'));
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8');
      for (const s of secrets) {
        if (!text.includes(s)) continue;
        if (f === secretsFile && s === current) continue; // the one expected place
        leaks.push(`${path.relative(configDir, f)} holds a secret`);
      }
    }
    expect(leaks).toEqual([]);
    // The expected place is private, and the current token is in it exactly once.
    expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(configDir).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(secretsFile, 'utf8').split(current).length - 1).toBe(1);
  });
});
