// search_curl (issue 16): a node upgraded with the deployment tooling carries a wrapper that runs
// curl with the node's credentials and CA. The harness writes a stand-in (curl plus the test node's
// password and CA, logging its arguments). When it is on PATH or named in the profile, previews
// show it instead of curl -u; with --via search_curl every request goes through it and shardeck
// is given no password at all. Against a real TLS+password node, with the built CLI.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { sharedSecureNode, type SharedNode } from '../helpers/shared-node';

const INDEX = 'service_v9_wrapped';
let node: SharedNode;
let dir: string;
let binDir: string;
let otherWrapper: string;
let log: string;
let pwFile: string;
let baseEnv: Record<string, string>;

/** curl with the node's credentials, as the test (not shardeck) calls it. */
function es(method: string, p: string, body?: unknown): any {
  const args = ['-sS', '--fail-with-body', '--cacert', node.ca!, '-u', `elastic:${node.password}`, '-X', method, `${node.url}${p}`];
  if (body !== undefined) args.push('-H', 'Content-Type: application/json', '-d', JSON.stringify(body));
  return JSON.parse(execFileSync('curl', args, { encoding: 'utf8' }));
}

/** A stand-in wrapper: a path argument (the `path` form) becomes the node's URL; every call is logged. */
function writeWrapper(file: string): void {
  fs.writeFileSync(
    file,
    `#!/bin/sh
printf '%s\\n' "$*" >> '${log}'
for a in "$@"; do
  case "$a" in /*) a="${node.url}$a" ;; esac
  set -- "$@" "$a"
  shift
done
exec curl --cacert '${node.ca}' -u "elastic:$(cat '${pwFile}')" "$@"
`,
    { mode: 0o700 },
  );
}

const calls = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { env: { ...baseEnv, ...env } });

beforeAll(async () => {
  ensureBuilt();
  node = await sharedSecureNode();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-search-curl-'));
  binDir = path.join(dir, 'bin');
  fs.mkdirSync(binDir);
  log = path.join(dir, 'wrapper.log');
  pwFile = path.join(dir, 'es-password');
  fs.writeFileSync(pwFile, node.password + '\n', { mode: 0o600 });
  writeWrapper(path.join(binDir, 'search_curl'));
  otherWrapper = path.join(dir, 'es-curl-wrapper');
  writeWrapper(otherWrapper);
  baseEnv = { SHARDECK_CONFIG_DIR: path.join(dir, 'conf'), PATH: `${binDir}:${process.env.PATH}` };
  es('PUT', `/${INDEX}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('previews show search_curl when the node has it', () => {
  it('on PATH: the dry run prints a search_curl line (no -u, no --cacert) that runs as printed', async () => {
    const r = await cli([
      'replicas',
      'set',
      INDEX,
      '0',
      '--dry-run',
      '--json',
      '--url',
      node.url,
      '--ca',
      node.ca!,
      '--user',
      'elastic',
      '--password-file',
      pwFile,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const line: string = JSON.parse(r.stdout).requests[0].curl;
    expect(line).toBe(
      `search_curl -X PUT '${node.url}/${INDEX}/_settings?expand_wildcards=all' -H 'Content-Type: application/json' -d '{"index":{"number_of_replicas":0}}'`,
    );
    expect(calls()).toEqual([]);
    // The operator can paste it on the node: it runs through the wrapper and is acknowledged.
    const ran = execFileSync('sh', ['-c', line], { encoding: 'utf8', env: { PATH: baseEnv.PATH } });
    expect(JSON.parse(ran)).toEqual({ acknowledged: true });
    expect(calls()).toHaveLength(1);
  });

  it('without it on PATH the preview is curl with the user (curl asks for the password)', async () => {
    const r = await cli(
      [
        'replicas',
        'set',
        INDEX,
        '0',
        '--dry-run',
        '--json',
        '--url',
        node.url,
        '--ca',
        node.ca!,
        '--user',
        'elastic',
        '--password-file',
        pwFile,
      ],
      {
        PATH: process.env.PATH!,
      },
    );
    expect(JSON.parse(r.stdout).requests[0].curl).toMatch(
      new RegExp(`^curl -X PUT '${node.url}/${INDEX}/_settings\\?expand_wildcards=all' -u 'elastic' --cacert `),
    );
  });

  it('named in the profile with the path argument form: the wrapper and the path only', async () => {
    // Its own config folder: the saved profile becomes the default, which the other tests do not want.
    const own = { PATH: process.env.PATH!, SHARDECK_CONFIG_DIR: path.join(dir, 'conf-profile') };
    const saved = await cli(
      [
        'profiles',
        'save',
        'wrapped',
        '--url',
        node.url,
        '--ca',
        node.ca!,
        '--user',
        'elastic',
        '--password-file',
        pwFile,
        '--search-curl',
        otherWrapper,
        '--search-curl-form',
        'path',
      ],
      own,
    );
    expect(saved.code, saved.stderr).toBe(0);
    const r = await cli(['replicas', 'set', INDEX, '0', '--dry-run', '--json', '--profile', 'wrapped'], own);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).requests[0].curl).toBe(
      `${otherWrapper} -X PUT '/${INDEX}/_settings?expand_wildcards=all' -H 'Content-Type: application/json' -d '{"index":{"number_of_replicas":0}}'`,
    );
  });

  it('a bad argument form is one sentence, exit 64', async () => {
    const r = await cli(['profiles', 'save', 'bad', '--url', node.url, '--search-curl-form', 'wget']);
    expect(r.code).toBe(64);
    expect(r.stderr.trim()).toBe('shardeck profiles: --search-curl-form "wget" is not a search_curl argument form: use curl or path');
  });
});

describe('--via search_curl: the wrapper is the connection', () => {
  it('status --json with no user, no password and no CA in shardeck', async () => {
    fs.rmSync(log, { force: true });
    const r = await cli(['status', '--json', '--url', node.url, '--via', 'search_curl']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ reachable: true, status: 'green', cluster: { version: '8.19.21' } });
    const seen = calls();
    expect(seen.length).toBeGreaterThan(3);
    // Every read went through the wrapper in curl's form, health among them. Not in a set order:
    // status sends its reads at once, and the wrapper's processes log as they start (a fresh run
    // saw the version read's first).
    for (const c of seen) expect(c).toMatch(new RegExp(`^-sS -i -X GET ${node.url}/`));
    expect(seen.filter((c) => c.startsWith(`-sS -i -X GET ${node.url}/_cluster/health `))).toHaveLength(1);
    for (const c of seen) expect(c).not.toContain(node.password);
  });

  it('a guarded change goes through it too: preview, confirm, audit, send once, read back', async () => {
    fs.rmSync(log, { force: true });
    const r = await cli(['scroll-limit', '700', '--yes', '--json', '--url', node.url, '--via', 'search_curl']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.requests[0].curl).toMatch(/^search_curl -X PUT '.*\/_cluster\/settings'/);
    expect(calls().filter((c) => / -X PUT /.test(c))).toHaveLength(1);
    expect(es('GET', '/_cluster/settings?flat_settings=true').persistent['search.max_open_scroll_context']).toBe('700');
    const audit = fs.readFileSync(path.join(dir, 'conf', 'audit.log'), 'utf8');
    expect(audit).toContain('search.max_open_scroll_context');
    expect(audit).not.toContain(node.password);
  });

  it('a wrapper that cannot reach the node: exit 3, one sentence', async () => {
    const r = await cli(['status', '--url', 'https://127.0.0.1:9', '--via', 'search_curl']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^UNREACHABLE /);
  });

  it('without a wrapper, or with credentials given as well: one sentence, exit 64, nothing run', async () => {
    fs.rmSync(log, { force: true });
    const none = await cli(['status', '--url', node.url, '--via', 'search_curl'], { PATH: process.env.PATH! });
    expect(none.code).toBe(64);
    expect(none.stderr.trim()).toBe(
      'shardeck status: --via search_curl: no search_curl on PATH; name it in the profile (shardeck profiles save NAME --search-curl PATH)',
    );
    const both = await cli(['status', '--url', node.url, '--via', 'search_curl', '--user', 'elastic', '--password-file', pwFile]);
    expect(both.code).toBe(64);
    expect(both.stderr).toMatch(/brings its own credentials and CA: drop --user/);
    const other = await cli(['status', '--url', node.url, '--via', 'wget']);
    expect(other.code).toBe(64);
    expect(calls()).toEqual([]);
  });
});
