// Issue 40 N1: a program of the engine's user that shardeck runs (CheckIndex, elasticsearch-shard,
// the plugin tool: every host step goes through boundary/host-shell.ts runShell, and every
// program through boundary/programs.ts) cannot push input into root's terminal. Run in a real
// terminal (tmux) as root: the engine user's program tries TIOCSTI on /dev/tty with a command for
// root's shell. Through runShell it finds no terminal at all (ENXIO), and root's shell never runs
// the command; run the way the checklist used to (`runuser -u` from root's shell, same session),
// the same program does get its command run as root, which proves the test can see the attack.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ES_USER } from '../../dev/lib/es-node.mjs';
import { waitUntil } from '../helpers/wait-until';

const SOCKET = `shardeck-tty-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
let dir: string;

// The engine user's program: opens the controlling terminal and pushes a line into its input queue.
const PUSHER = `
my $d = $ARGV[0];
my $ok = open(my $t, '+<', '/dev/tty');
open(my $log, '>', "$d/tried") or die; print $log ($ok ? "opened" : "no terminal: $!"), "\\n"; close $log;
exit 0 unless $ok;
ioctl($t, 0x5412, $_) for split //, "id -u > $d/pwned\\n";
`;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-tty-'));
  fs.chmodSync(dir, 0o755);
  const uid = Number(execFileSync('id', ['-u', ES_USER], { encoding: 'utf8' }).trim());
  fs.writeFileSync(path.join(dir, 'push.pl'), PUSHER, { mode: 0o755 });
  fs.chownSync(path.join(dir, 'push.pl'), uid, uid);
  fs.chownSync(dir, uid, uid);
  fs.writeFileSync(
    path.join(dir, 'runner.mts'),
    `import { runShell } from ${JSON.stringify(path.resolve('src/boundary/host-shell.ts'))};\n` +
      `const r = await runShell(${JSON.stringify(`runuser -u ${ES_USER} -- /usr/bin/perl ${dir}/push.pl ${dir}`)}, () => undefined, { envNames: [], values: [] });\n` +
      `console.log('RAN', r.exitCode);\n`,
  );
});

afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // no server left
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Root's interactive shell in a real terminal runs `cmd`, then prints a marker; resolves once the marker shows and the shell had time to read what was pushed. */
async function inRootShell(session: string, cmd: string): Promise<void> {
  tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '23', 'bash --norc --noprofile');
  tmux('send-keys', '-t', session, `${cmd}; echo MARK-$((6*7))`, 'Enter');
  await waitUntil(
    'the marker',
    () => tmux('capture-pane', '-p', '-t', session),
    (s) => /MARK-42/.test(s),
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  // Pushed input is read by the shell after the command ends: give it its turn.
  tmux('send-keys', '-t', session, 'echo AFTER-$((6*7))', 'Enter');
  await waitUntil(
    'the shell after',
    () => tmux('capture-pane', '-p', '-t', session),
    (s) => /AFTER-42/.test(s),
    { timeoutMs: 20_000, intervalMs: 200 },
  );
}

it('through runShell the engine user finds no terminal of root to push into', async () => {
  await inRootShell('boundary', `${path.resolve('node_modules/.bin/tsx')} ${dir}/runner.mts`);
  expect(fs.readFileSync(path.join(dir, 'tried'), 'utf8')).toMatch(/^no terminal: /);
  expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
}, 120_000);

it('control: the same program run with runuser from root’s session does push a command that root’s shell runs', async () => {
  fs.rmSync(path.join(dir, 'tried'), { force: true });
  await inRootShell('control', `runuser -u ${ES_USER} -- /usr/bin/perl ${dir}/push.pl ${dir}`);
  expect(fs.readFileSync(path.join(dir, 'tried'), 'utf8')).toBe('opened\n');
  // Kernels with dev.tty.legacy_tiocsti=0 refuse TIOCSTI to everyone without CAP_SYS_ADMIN: then nothing runs either.
  const legacy = fs.existsSync('/proc/sys/dev/tty/legacy_tiocsti')
    ? fs.readFileSync('/proc/sys/dev/tty/legacy_tiocsti', 'utf8').trim()
    : '1';
  if (legacy === '1') expect(fs.readFileSync(path.join(dir, 'pwned'), 'utf8').trim()).toBe('0');
  else expect(fs.existsSync(path.join(dir, 'pwned'))).toBe(false);
}, 120_000);
