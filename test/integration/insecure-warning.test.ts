// An unverified TLS connection is announced by every command (issue 31.7): on stderr, and with
// --json as a field of the output, whether --insecure came from the flag or a saved profile.
// Nothing answers at the port: the announcement comes before anything is sent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../helpers/run-cli';

let cfg: string;
const URL_ = 'https://127.0.0.1:1';

beforeAll(async () => {
  ensureBuilt();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-insecure-'));
  const saved = await runCli(['profiles', 'save', 'lab', '--url', URL_, '--insecure'], { env: { SHARDECK_CONFIG_DIR: cfg } });
  expect(saved.code, saved.stderr).toBe(0);
});

afterAll(() => {
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

const WARNING = /TLS verification is OFF for https:\/\/127\.0\.0\.1:1/;

it('status and doctor from a profile with insecure: true warn on stderr, and --json says insecureTls: true', async () => {
  for (const cmd of ['status', 'doctor']) {
    const r = await runCli([cmd, '--json'], { env: { SHARDECK_CONFIG_DIR: cfg } });
    expect(r.stderr, cmd).toMatch(WARNING);
    expect(JSON.parse(r.stdout), cmd).toMatchObject({ insecureTls: true });
  }
});

it('a text command with --insecure on the command line warns too; a verified connection says nothing', async () => {
  const r = await runCli(['status', '--url', URL_, '--insecure'], { env: { SHARDECK_CONFIG_DIR: cfg } });
  expect(r.stderr).toMatch(WARNING);
  // A config without the insecure profile: TLS verified.
  const verified = await runCli(['status', '--url', URL_, '--json'], { env: { SHARDECK_CONFIG_DIR: path.join(cfg, 'fresh') } });
  expect(verified.stderr).not.toMatch(/TLS verification is OFF/);
  expect(JSON.parse(verified.stdout)).not.toHaveProperty('insecureTls');
});
