// The packaged shardeck (issue 16) run as a storage node would: dist/shardeck-linux-x64 in a mount
// namespace where every node/npm of this machine is hidden, its folder read-only, with an empty
// environment, against a real plain node and a real TLS+password node: --version, status --json,
// a guarded change with --dry-run, the console in tmux at 80x24, and what it does without a
// terminal. Then the Debian package: installed with apt-get, --version, man, completions, removed
// with dpkg -r leaving the operator's config alone. Needs root (unshare, mount, apt-get).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode } from '../../dev/lib/es-node.mjs';
import { esCall } from '../helpers/real-node';
import { DEB, EXE, ensurePackaged, hiddenNodeArgv, isRoot, run } from '../helpers/package';
import { waitUntil } from '../helpers/wait-until';

if (!isRoot)
  process.stderr.write(
    'package.test.ts: SKIPPED: the namespace and .deb tests need root (unshare -m, mount, apt-get); CI runs them as root\n',
  );

const VERSION = JSON.parse(fs.readFileSync('package.json', 'utf8')).version as string;
const INDEX = 'service_v9_pkg';
// eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
const ESC = /\u001b\[/;
// A preload that says at exit how many WebAssembly modules the process compiled.
const COUNT_WASM = `let n = 0;
for (const k of ['instantiate', 'compile', 'instantiateStreaming', 'compileStreaming']) {
  const f = WebAssembly[k];
  WebAssembly[k] = function (...a) { n++; return f.apply(this, a); };
}
const M = WebAssembly.Module;
WebAssembly.Module = function (...a) { n++; return new M(...a); };
process.on('exit', () => process.stderr.write('webassembly compiled: ' + n + '\\n'));
`;

describe.skipIf(!isRoot)('the executable on a node without Node.js [needs root]', () => {
  let plain: Awaited<ReturnType<typeof startNode>>;
  let secure: Awaited<ReturnType<typeof startNode>>;
  let dir: string;
  let pwFile: string;
  let baseEnv: Record<string, string>;
  const exe = (args: string[], env: Record<string, string> = {}) => run(hiddenNodeArgv([EXE, ...args], { ...baseEnv, ...env }));

  beforeAll(async () => {
    ensurePackaged();
    [plain, secure] = await Promise.all([startNode({ name: 'pkg-plain' }), startNode({ name: 'pkg-secure', secure: true })]);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-pkg-'));
    fs.mkdirSync(path.join(dir, 'conf'), { mode: 0o700 });
    pwFile = path.join(dir, 'es-password');
    fs.writeFileSync(pwFile, secure.password + '\n', { mode: 0o600 });
    // HOME and the config folder are the only writable places it gets.
    baseEnv = { HOME: dir, SHARDECK_CONFIG_DIR: path.join(dir, 'conf') };
    expect((await esCall(plain.url, 'PUT', `/${INDEX}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } })).status).toBe(200);
  });
  afterAll(async () => {
    await Promise.all([plain?.stop(), secure?.stop()]);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the namespace really has no node, npm or npx, and the executable folder is read-only', async () => {
    const r = await run(
      hiddenNodeArgv(
        [
          'sh',
          '-c',
          `for n in node npm npx /usr/bin/node; do $n --version 2>/dev/null && echo "FOUND $n"; done; touch ${path.dirname(EXE)}/x 2>/dev/null && echo WRITABLE; echo done`,
        ],
        {},
      ),
    );
    expect(r.stdout.trim()).toBe('done');
  });

  it('--version, with an empty environment', async () => {
    const r = await exe(['--version'], {});
    expect(r).toMatchObject({ code: 0, stdout: `shardeck ${VERSION}\n`, stderr: '' });
  });

  it('status --json against a plain node', async () => {
    const r = await exe(['status', '--json', '--url', plain.url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ reachable: true, status: 'green', cluster: { version: '8.19.21', nodes: 1 } });
  });

  it('status compiles no WebAssembly: Yoga, which lays out screens, loads with the first one', async () => {
    // Counts the process's WebAssembly compiles (NODE_OPTIONS reaches the executable's Node too).
    const hook = path.join(dir, 'count-wasm.cjs');
    fs.writeFileSync(hook, COUNT_WASM);
    // The counter counts: an empty module compiled by this machine's node is one.
    const seen = spawnSync(process.execPath, ['--require', hook, '-e', 'new WebAssembly.Module(Buffer.from("AGFzbQEAAAA=", "base64"))'], {
      encoding: 'utf8',
    });
    expect(seen.stderr).toBe('webassembly compiled: 1\n');
    const r = await exe(['status', '--json', '--url', plain.url], { NODE_OPTIONS: `--require ${hook}` });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('webassembly compiled: 0\n');
  });

  it('status --json against a TLS node with a custom CA and a password file', async () => {
    const r = await exe(['status', '--json', '--url', secure.url, '--ca', secure.ca!, '--user', 'elastic', '--password-file', pwFile]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ reachable: true, status: 'green', cluster: { version: '8.19.21' } });
    // The CA is checked: without it the same call is refused for the certificate, not let through.
    const noCa = await exe(['status', '--json', '--url', secure.url, '--user', 'elastic', '--password-file', pwFile]);
    expect(noCa.code).toBe(3);
    expect(JSON.parse(noCa.stdout).error.kind).toBe('tls');
    expect(noCa.stdout + noCa.stderr).not.toContain(secure.password);
  });

  it('a guarded change with --dry-run previews, sends nothing, audits nothing', async () => {
    const r = await exe(['replicas', 'set', INDEX, '1', '--dry-run', '--json', '--url', plain.url]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ command: 'replicas', dryRun: true, sent: false, matched: [INDEX] });
    expect(out.requests[0]).toMatchObject({ method: 'PUT', path: `/${INDEX}/_settings?expand_wildcards=all` });
    expect(out.requests[0].curl).toContain(`curl -X PUT '${plain.url}/${INDEX}/_settings`);
    const settings = await esCall(plain.url, 'GET', `/${INDEX}/_settings/index.number_of_replicas`);
    expect(settings.body[INDEX].settings.index.number_of_replicas).toBe('0');
    expect(fs.existsSync(path.join(dir, 'conf', 'audit.log'))).toBe(false);
  });

  it('the same dry run on the TLS node shows a curl line with --cacert and the user, never the password', async () => {
    const r = await exe([
      'unblock',
      '--dry-run',
      '--json',
      '--url',
      secure.url,
      '--ca',
      secure.ca!,
      '--user',
      'elastic',
      '--password-file',
      pwFile,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(secure.password);
  });

  it('without a terminal (a pipe) it prints the status text, says the console needs one, and exits like status', async () => {
    await esCall(plain.url, 'PUT', '/service_v9_pkg_yellow', { settings: { number_of_shards: 1, number_of_replicas: 1 } });
    try {
      const r = await exe(['--url', plain.url], { TERM: 'xterm-256color' });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^YELLOW {2}cluster /);
      expect(r.stdout).not.toMatch(ESC);
      expect(r.stderr).toMatch(/the console needs a terminal; printing `shardeck status` instead/);
    } finally {
      await esCall(plain.url, 'DELETE', '/service_v9_pkg_yellow');
    }
  });

  describe('the console in tmux at 80x24', () => {
    const SOCKET = `shardeck-pkg-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
    const screen = () => tmux('capture-pane', '-p', '-t', 'pkg');
    const waitFor = (test: (s: string) => boolean, what: string): Promise<string> =>
      waitUntil(what, screen, test, { timeoutMs: 30_000, intervalMs: 200 }).catch((e: Error) => {
        // The whole screen, not the one line the timeout quotes.
        throw new Error(`${e.message.split('; last seen')[0]}; screen:\n${screen()}`);
      });
    afterAll(() => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    });

    for (const [label, env, which] of [
      ['xterm-256color', { TERM: 'xterm-256color' }, 'TLS node'],
      ['NO_COLOR', { TERM: 'xterm-256color', NO_COLOR: '1' }, 'plain node'],
    ] as const) {
      it(`draws the panes, switches on a key and quits on q (${label}, ${which})`, async () => {
        const connect =
          which === 'TLS node'
            ? ['--url', secure.url, '--ca', secure.ca!, '--user', 'elastic', '--password-file', pwFile]
            : ['--url', plain.url];
        const argv = hiddenNodeArgv([EXE, ...connect, '--interval', '1'], { ...baseEnv, ...env });
        const cmd = `${argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}; echo EXIT=$?; sleep 600`;
        tmux('new-session', '-d', '-s', 'pkg', '-x', '80', '-y', '24', cmd);
        try {
          const first = await waitFor((s) => /GREEN/.test(s) && /Elasticsearch 8\.19\.21/.test(s), 'the Health pane with its data');
          const lines = first.split('\n');
          expect(lines.length).toBeLessThanOrEqual(25);
          for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
          expect(first).toMatch(/1 Health {2}2 In/);
          tmux('send-keys', '-t', 'pkg', '2');
          await waitFor((s) => /Indices/.test(s) && /index/.test(s), 'the Indices pane');
          // Colour as the terminal receives it: present unless NO_COLOR.
          const coloured = tmux('capture-pane', '-p', '-e', '-t', 'pkg');
          // eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
          if ('NO_COLOR' in env) expect(coloured).not.toMatch(/\u001b\[(3[1-3]|9[0-7])m/);
          // eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
          else expect(coloured).toMatch(/\u001b\[3[1-3]m/);
          tmux('send-keys', '-t', 'pkg', 'q');
          await waitFor((s) => /EXIT=0/.test(s), 'exit 0 after q');
        } finally {
          tmux('kill-session', '-t', 'pkg');
        }
        if (which === 'plain node') {
          // The poll left the index names for the shell completion: names only, 0600.
          const cache = path.join(dir, 'conf', 'completion-indices');
          expect(fs.statSync(cache).mode & 0o777).toBe(0o600);
          expect(fs.readFileSync(cache, 'utf8')).toBe(`${INDEX}\n`);
          const words = await exe(['help', '--complete', 'indices']);
          expect(words).toMatchObject({ code: 0, stdout: `${INDEX}\n` });
        }
      });
    }

    it('TERM=dumb: the status text without escape codes, and why the console does not start', async () => {
      const argv = hiddenNodeArgv([EXE, '--url', plain.url], { ...baseEnv, TERM: 'dumb' });
      const cmd = `${argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')}; echo EXIT=$?; sleep 600`;
      tmux('new-session', '-d', '-s', 'pkg', '-x', '80', '-y', '24', cmd);
      try {
        const s = await waitFor((t) => /EXIT=\d+/.test(t), 'the status text');
        expect(s).toMatch(/needs a terminal that can move the cursor \(TERM is dumb\)/);
        expect(s).toMatch(/^GREEN {2}cluster /m);
        expect(s).toMatch(/EXIT=0/);
        // eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
        expect(tmux('capture-pane', '-p', '-e', '-t', 'pkg')).not.toMatch(/\u001b\[3[1-3]m/);
      } finally {
        tmux('kill-session', '-t', 'pkg');
      }
    });
  });
});

describe.skipIf(!isRoot)('the Debian package [needs root]', () => {
  let home: string;
  const sh = (cmd: string, env: Record<string, string> = {}) =>
    execFileSync('sh', ['-c', cmd], {
      encoding: 'utf8',
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', HOME: home, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  beforeAll(() => {
    ensurePackaged();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-deb-home-'));
    // Another run's leftover would make this install an upgrade, not an install.
    expect(sh("dpkg-query -W -f='${Status}' shardeck 2>/dev/null || true")).not.toMatch(/installed/);
  });
  afterAll(() => {
    try {
      sh('dpkg -r shardeck >/dev/null 2>&1 || true');
    } finally {
      if (home) fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('installs with apt-get, runs, has its man page and completions, and dpkg -r leaves the config alone', () => {
    sh(`apt-get install -y -q --no-install-recommends ${DEB}`, { DEBIAN_FRONTEND: 'noninteractive' });
    expect(fs.statSync('/usr/bin/shardeck').mode & 0o777).toBe(0o755);
    expect(sh('shardeck --version')).toBe(`shardeck ${VERSION}\n`);
    const man = sh('man shardeck', { MANPAGER: 'cat', MANWIDTH: '80' });
    expect(man).toMatch(/shardeck - terminal console and CLI for Elasticsearch 8 storage nodes/);
    expect(man).toMatch(/EXIT STATUS/);
    expect(man).toMatch(/shardeck replicas/);
    // bash completion as bash-completion loads it: commands, then a command's flags, then profiles.
    const conf = path.join(home, '.config', 'shardeck');
    sh(`shardeck profiles save lab-node --url http://127.0.0.1:9`);
    const bash = (line: string) =>
      execFileSync(
        'bash',
        [
          '-c',
          `. /usr/share/bash-completion/completions/shardeck; COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _shardeck; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', HOME: home } },
      )
        .trim()
        .split('\n');
    expect(bash('shardeck re')).toEqual(['replicas', 'reroute', 'recover-corrupt', 'restore', 'restart-node', 'recovery']);
    expect(bash('shardeck replicas --dr')).toEqual(['--dry-run']);
    expect(bash("shardeck status --profile ''")).toEqual(['lab-node']);
    expect(fs.existsSync('/usr/share/zsh/vendor-completions/_shardeck')).toBe(true);
    execFileSync('zsh', ['-n', '/usr/share/zsh/vendor-completions/_shardeck']);

    expect(fs.existsSync(path.join(conf, 'config.json'))).toBe(true);
    const before = fs.readFileSync(path.join(conf, 'config.json'), 'utf8');
    sh('dpkg -r shardeck');
    expect(fs.existsSync('/usr/bin/shardeck')).toBe(false);
    expect(fs.existsSync('/usr/share/man/man1/shardeck.1.gz')).toBe(false);
    expect(fs.readFileSync(path.join(conf, 'config.json'), 'utf8')).toBe(before);
  });
});
