// The built CLI's console in a real terminal (tmux, 80x24) against a real Elasticsearch node with an
// index whose replicas cannot be placed on one node (yellow).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/lib/es-node.mjs';
import { waitUntil } from '../helpers/wait-until';
import { shardeckCommand, Terminals } from '../helpers/tmux';
import { ensureBuilt } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const INDEX = `tui_e2e_yellow_${process.pid}`;

const term = new Terminals('shardeck-e2e');
const { tmux, screen, waitFor, keys } = term;
let node: SharedNode;

/** Starts the built CLI in its own 80x24 tmux session; the shell prints markers around it. */
function launch(session: string, args: string, env = ''): void {
  term.start(session, `echo before-tui; ${shardeckCommand(args, env)}`, [80, 24]);
}

beforeAll(async () => {
  // Not `npm run build` outright: it empties dist/ while the other worker's files run the CLI from it.
  ensureBuilt();
  node = await sharedNode();
  const res = await fetch(`${node.url}/${INDEX}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ settings: { number_of_shards: 2, number_of_replicas: 1 } }),
  });
  expect(res.ok).toBe(true);
});

afterAll(() => {
  term.close();
});

describe('shardeck console in tmux at 80x24', () => {
  it('says yellow, names the unassigned shards, switches panes, and q restores the terminal', async () => {
    // CI set in the operator's shell: the console still draws every frame (src/cli.tsx).
    launch('yellow', `--url ${node.url} --interval 1`, 'CI=true CONTINUOUS_INTEGRATION=1');
    const health = await waitFor('yellow', (s) => s.includes('YELLOW') && s.includes('health report'), 'the Health pane');
    expect(health).toMatch(/unassigned 2 \(pri 0\)/);
    keys('yellow', '3');
    await waitFor('yellow', (s) => s.includes('UNASSIGNED'), 'the Shards pane');
    keys('yellow', 'u');
    const shards = await waitFor('yellow', (s) => s.includes('(problems only: u)'), 'problem shards only');
    const rows = shards.split('\n').filter((l) => l.includes('UNASSIGNED'));
    expect(rows).toHaveLength(2);
    // A name longer than its column is cut in the middle (its start and its end stay readable).
    for (const r of rows) expect(r).toMatch(new RegExp(`${INDEX.slice(0, 8)}…?.*${INDEX.slice(-5)} +\\d+ r +UNASSIGNED .*INDEX_CREATED`));
    // With the shards known, Health names the reason too.
    keys('yellow', '1');
    await waitFor('yellow', (s) => /unassigned shards: 2 replica INDEX_CREATED/.test(s), 'the reason on the Health pane');
    keys('yellow', '4');
    await waitFor('yellow', (s) => /watermarks +L low 85%/.test(s) && /\[█*[·LHF█]*\]/.test(s), 'the Disk pane');
    keys('yellow', '5');
    await waitFor('yellow', (s) => s.includes('search.max_open_scroll_context'), 'the Nodes pane');
    keys('yellow', 'q');
    const after = await waitFor('yellow', (s) => s.includes('EXIT=0'), 'the exit');
    // The alternate screen is gone: the shell's own lines are back and the console's are not.
    expect(after).toContain('before-tui');
    expect(after).not.toContain('Health');
    expect(tmux('display-message', '-p', '-t', 'yellow', '#{alternate_on} #{cursor_flag}').trim()).toBe('0 1');
  });

  it('shows the one-sentence error for an unreachable --url and keeps running', async () => {
    const port = await freePort();
    launch('down', `--url http://127.0.0.1:${port} --interval 1`);
    await waitFor('down', (s) => s.includes(`nothing listens at http://127.0.0.1:${port} (connection refused)`), 'the error');
    const later = await waitFor('down', (s) => s.includes('STALE') && /retrying every/.test(s), 'the stale mark and the retry line');
    expect(later).toContain('STALE');
    expect(later).toMatch(/retrying every \d+s/);
    expect(later).not.toContain('EXIT=');
    keys('down', 'C-c');
    await waitFor('down', (s) => s.includes('EXIT='), 'the exit on Ctrl-C');
  });

  it('uses colour with meaning, and none under NO_COLOR', async () => {
    launch('colour', `--url ${node.url} --interval 1`);
    await waitFor('colour', (s) => s.includes('YELLOW'), 'the header');
    // Yellow status in yellow (SGR 33), whatever else is on screen.
    // eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
    expect(screen('colour', true)).toMatch(/\u001b\[[0-9;]*33[0-9;]*m/);
    launch('plain', `--url ${node.url} --interval 1`, 'NO_COLOR=1');
    await waitFor('plain', (s) => s.includes('YELLOW'), 'the header');
    // eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
    const sgr = [...screen('plain', true).matchAll(/\u001b\[([0-9;]*)m/g)].flatMap((m) => m[1].split(';'));
    const colours = sgr.filter((c) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(c));
    expect(colours).toEqual([]);
  });

  // A dropped SSH session (SIGHUP) or a service manager (SIGTERM): the console's stop list runs
  // (commands/tui/console.ts), so the shell gets its screen and cursor back and the share socket
  // is removed, not left for followers to find.
  for (const sig of ['SIGHUP', 'SIGTERM'] as const) {
    it(`${sig} gives the terminal back and removes the share socket`, async () => {
      const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-e2e-run-'));
      const session = `signal-${sig}`;
      launch(session, `--url ${node.url} --interval 1 --share`, `XDG_RUNTIME_DIR=${runtime}`);
      await waitFor(session, (s) => s.includes('YELLOW'), 'the header');
      const dir = path.join(runtime, `shardeck-${process.getuid!()}`);
      const socket = await waitUntil(
        'the share socket',
        () => (fs.existsSync(dir) ? fs.readdirSync(dir) : []),
        (f) => f.length === 1,
        { timeoutMs: 20_000, intervalMs: 100 },
      );
      const pid = Number(/^console-(\d+)\.sock$/.exec(socket[0])?.[1]);
      expect(fs.lstatSync(path.join(dir, socket[0])).isSocket()).toBe(true);
      expect(tmux('display-message', '-p', '-t', session, '#{alternate_on}').trim()).toBe('1');
      process.kill(pid, sig);
      const after = await waitFor(session, (s) => s.includes('EXIT='), 'the exit');
      expect(after).toContain('EXIT=130');
      expect(after).toContain('before-tui');
      expect(after).not.toContain('Health');
      expect(tmux('display-message', '-p', '-t', session, '#{alternate_on} #{cursor_flag}').trim()).toBe('0 1');
      expect(fs.readdirSync(dir)).toEqual([]);
      fs.rmSync(runtime, { recursive: true, force: true });
    });
  }
});
