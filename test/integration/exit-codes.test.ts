// Every command of the command table, pointed at a closed port (storage node and platform), exits
// 3 with one sentence on stderr, and with --json prints ok:false. The list of commands is read from
// the built CLI itself (its usage lists the table), so a new command without an entry here fails.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI, ensureBuilt, runCli } from '../helpers/run-cli';

/** Arguments that get each command past its own flag checks, so that it has to reach the node. */
const ARGS: Record<string, string[][]> = {
  status: [[]],
  unblock: [[]],
  'scroll-limit': [[], ['1000', '--yes']],
  explain: [[], ['service_v9_x', '0', 'primary']],
  reroute: [['--retry-failed', '--yes']],
  replicas: [['set', 'service_v9_x', '0', '--yes']],
  'delete-by-query': [['service_v9_x', '--older-than', '90d', '--expect', '1', '--yes']],
  forcemerge: [['service_v9_x', '--expunge-deletes', '--yes']],
  tasks: [[]],
  'recover-corrupt': [['--detect'], ['service_v9_x', '0', '--plan']],
  // The platform commands: the closed port is the platform's.
  whoami: [[]],
  projects: [[]],
  login: [['--platform', 'PLATFORM']],
  // The reads of the inspect commands and the doctor.
  get: [['service_v9_x', 'doc-1']],
  search: [['service_v9_x', '--source', 'src-crm']],
  mappings: [['service_v9_x']],
  settings: [['service_v9_x']],
  stats: [[]],
  cat: [[]],
  templates: [[]],
  nodes: [[]],
  doctor: [[]],
  'component-template': [['put', 'no_body', '--disable-field', 'body', '--yes']],
  snapshots: [[]],
  snapshot: [
    ['repo', 'verify', 'backups'],
    ['create', 'backups', '--indices', 'service_v9_x', '--yes'],
  ],
  restore: [['backups', 'nightly-1', '--indices', 'service_v9_x', '--yes']],
  shrink: [['service_v9_x', '--shards', '1', '--yes']],
  lock: [[], ['take', '--holder', 'nobody', '--yes']],
  allocation: [[], ['enable', 'primaries', '--yes'], ['restore', '--yes']],
  'restart-node': [['--yes', '--node-name', 'x']],
  drain: [
    ['node-2', '--yes'],
    ['--undo', 'node-2', '--yes'],
  ],
  recovery: [[], ['throttle', '--max-bytes-per-sec', '100mb', '--yes'], ['throttle', '--restore', '--yes']],
  deprecations: [[]],
  balance: [[]],
  'hot-threads': [[], ['node-1']],
  pending: [[]],
  'field-limits': [[]],
  xray: [['service_v9_x']],
  // Issue 43's administration commands: their reads, and a change each.
  'cluster-settings': [['--changed'], ['set', 'cluster.routing.allocation.enable', 'all', '--yes']],
  index: [['close', 'service_v9_x', '--yes']],
  aliases: [[]],
  alias: [['add', 'logs', 'service_v9_x', '--yes']],
  move: [['service_v9_x', '0']],
  dangling: [[]],
};

/** Commands that never talk to a node or a platform, or cannot run here, and why. */
const EXCEPTIONS: Record<string, string> = {
  tui: "without a terminal it prints status's text and exit code (test/integration/package.test.ts); when the node is unreachable the console stays up and says so in its status bar (test/e2e)",
  help: 'only prints text generated from the command table (test/unit/help.test.ts)',
  profiles: 'only reads and writes the local config file',
  audit: 'only reads the local audit log',
  logout: 'only forgets the locally stored refresh token',
  follow: "talks to a leader's socket, never to a node (test/integration/share.test.ts: leader gone, refused)",
  incident: 'only reads the local timeline and the change journals',
  service: "runs this host's service manager; a node that does not answer is its status exit 3 (test/integration/engine-service.test.ts)",
  plugin: "runs the engine's own plugin tool on this host (test/integration/engine-service.test.ts)",
  fleet:
    "reads every saved profile's cluster, not the connection flags: an unreachable one is a row, and exit 3 when it is the worst (test/integration/fleet.test.tsx)",
};

/** Commands whose --json output on failure is not { ok: false } yet, and what they print instead. */
const JSON_SHAPES: Record<string, (out: any) => void> = {
  // status keeps its monitoring shape (schema, reachable, status, error): reachable:false is its "not ok".
  status: (out) => expect(out).toMatchObject({ reachable: false, status: 'unknown', error: { kind: 'unreachable' } }),
  // doctor is a monitoring check like status (exit 3 unreachable), with the same shape.
  doctor: (out) => expect(out).toMatchObject({ reachable: false, error: { kind: 'unreachable' } }),
};

let dir: string;
let closedUrl: string;
let env: NodeJS.ProcessEnv;
let commands: string[];

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

beforeAll(async () => {
  ensureBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-exit-codes-'));
  closedUrl = `http://127.0.0.1:${await closedPort()}`;
  env = { SHARDECK_CONFIG_DIR: path.join(dir, 'conf') };
  // A profile whose storage node and platform are both the closed port, signed in (a token on file).
  const saved = await runCli(['profiles', 'save', 'closed', '--url', closedUrl, '--platform', closedUrl], { env });
  expect(saved.code).toBe(0);
  fs.writeFileSync(path.join(dir, 'conf', 'secrets.json'), JSON.stringify({ version: 1, refreshTokens: { closed: 'not-a-real-token' } }), {
    mode: 0o600,
  });
  // The command table as the built CLI knows it (each command heads a line of `shardeck help`).
  const help = await runCli(['help'], { env });
  commands = [...help.stdout.matchAll(/^ {2}([a-z][a-z-]*)(?= |$)/gm)].map((m) => m[1]);
  expect(commands.length).toBeGreaterThan(10);
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a typo of a command: the nearest one and where the list is, in two lines, exit 64 (issue 47)', async () => {
  const r = await runCli(['statsu'], { env });
  expect(r.code).toBe(64);
  expect(r.stderr.split('\n').filter(Boolean)).toEqual([
    'shardeck: unknown command "statsu": did you mean "status"?',
    'shardeck help lists the commands; shardeck help COMMAND explains one',
  ]);
  // A listing asked of the command that changes: pointed to the one that lists.
  const list = await runCli(['snapshot', 'list'], { env });
  expect([list.code, list.stderr]).toEqual([
    64,
    'shardeck snapshot: the snapshots are listed by shardeck snapshots (this command changes: repo add|verify|remove, create)\n',
  ]);
});

describe('a connection failure exits 3 in every command', () => {
  it('every command of the table is either run here or excepted with a reason', () => {
    for (const c of commands) expect(ARGS[c] ?? EXCEPTIONS[c], `add "${c}" to ARGS or EXCEPTIONS`).toBeDefined();
    for (const c of [...Object.keys(ARGS), ...Object.keys(EXCEPTIONS)]) expect(commands, `"${c}" is no longer a command`).toContain(c);
  });

  for (const json of [false, true]) {
    it(`exit 3 and one sentence against a closed port${json ? ' (--json: ok:false)' : ''}`, async () => {
      const failures: string[] = [];
      for (const c of commands.filter((name) => ARGS[name])) {
        for (const args of ARGS[c]) {
          const argv = [c, ...args.map((a) => (a === 'PLATFORM' ? closedUrl : a)), '--profile', 'closed', ...(json ? ['--json'] : [])];
          const r = await runCli(argv, { env, input: 'not-a-real-token\n' });
          const label = `shardeck ${argv.join(' ')}`;
          if (r.code !== 3) failures.push(`${label}: exit ${r.code} (${r.stderr.trim()})`);
          const lines = r.stderr.trim().split('\n');
          // status and doctor print their verdict on stdout (UNREACHABLE ...) or as JSON, nothing on stderr.
          if (
            c !== 'status' &&
            c !== 'doctor' &&
            (lines.length !== 1 || !lines[0].startsWith(`shardeck ${c}: `) || /\n\s+at /.test(r.stderr))
          )
            failures.push(`${label}: stderr is not one sentence: ${JSON.stringify(r.stderr)}`);
          if (/\b(cannot reach|nothing listens|connection refused)\b/.test(r.stderr + r.stdout) === false)
            failures.push(`${label}: does not say the node or platform cannot be reached: ${JSON.stringify(r.stderr + r.stdout)}`);
          if (json) {
            let out: any;
            try {
              out = JSON.parse(r.stdout);
            } catch {
              failures.push(`${label}: stdout is not JSON: ${JSON.stringify(r.stdout)}`);
              continue;
            }
            if (JSON_SHAPES[c]) JSON_SHAPES[c](out);
            else if (out.ok !== false || typeof out.error !== 'string' || out.code !== r.code)
              failures.push(`${label}: JSON is not { ok:false, error, code: ${r.code} }: ${r.stdout}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });
  }
});

describe('the CLI as a new user meets it', () => {
  // A reader that leaves after the first chunk (`| head -1`) of a long listing: 20,000 audit records.
  const readFirstChunk = (args: string[]): Promise<{ code: number | null; signal: string | null; stderr: string }> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, ...args], {
        env: { ...process.env, ...env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stdout.once('data', () => child.stdout.destroy());
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stderr }));
    });

  it('piping a long listing into head ends quietly (exit 0, no EPIPE stack trace), text and --json', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({
        id: `r${i}`,
        time: '2026-11-25T10:00:00.000Z',
        profile: 'p',
        url: 'http://127.0.0.1:1',
        request: { method: 'PUT', path: `/idx-${i}/_settings`, querystring: {} },
        risk: 'low',
        target: `idx-${i}`,
        summary: `replicas of idx-${i}`,
      }),
    );
    fs.writeFileSync(path.join(dir, 'conf', 'audit.log'), lines.join('\n') + '\n', { mode: 0o600 });
    try {
      for (const args of [['audit'], ['audit', '--json']]) {
        const r = await readFirstChunk(args);
        expect(r.stderr, args.join(' ')).not.toMatch(/EPIPE|\n\s+at /);
        expect([0, 141].includes(r.code ?? -1) || r.signal === 'SIGPIPE', `${args.join(' ')}: exit ${r.code} ${r.signal}`).toBe(true);
      }
    } finally {
      fs.rmSync(path.join(dir, 'conf', 'audit.log'));
    }
  });

  it('a mistyped command or flag gets "did you mean" (exit 64), and with --json the same as one JSON failure', async () => {
    const cmd = await runCli(['stauts'], { env });
    expect(cmd.code).toBe(64);
    expect(cmd.stderr).toContain('did you mean "status"?');
    const flag = await runCli(['status', '--jsn'], { env });
    expect(flag.code).toBe(64);
    expect(flag.stderr).toContain('did you mean --json?');
    const json = await runCli(['status', '--jsn', '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual({ ok: false, error: expect.stringContaining('did you mean --json?'), code: 64 });
    const usage = await runCli(['search', '--json'], { env });
    expect(usage.code).toBe(64);
    expect(JSON.parse(usage.stdout)).toMatchObject({ ok: false, error: expect.any(String), code: 64 });
  });

  it('-v, -V and --version print the version', async () => {
    for (const f of ['-v', '-V', '--version']) {
      const r = await runCli([f], { env });
      expect(r.code, f).toBe(0);
      expect(r.stdout, f).toMatch(/^shardeck \d+\.\d+\.\d+/);
    }
  });
});
