// Issue 44 in a real terminal (tmux at 80x23) against a real node: the built CLI's console as an
// operator sees it. A profile's label on every pane and in a preview, and on a production profile
// the cluster's name asked before a change that loses data.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait-until';
import { CLI, ensureBuilt, runCli } from '../helpers/run-cli';
import { esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const SOCKET = `shardeck-habits-${process.pid}`;
const INDEX = `service_v9_habits${process.pid}`;

let node: SharedNode;
let cfg: string;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

/** The built CLI in its own tmux session of the given size, with the test's config dir. */
function launch(session: string, args: string, env = '', size: [number, number] = [80, 23]): void {
  const cmd = `env -u CI -u NO_COLOR -u FORCE_COLOR SHARDECK_CONFIG_DIR=${cfg} ${env} node ${CLI} ${args}; echo EXIT=$?; sleep 600`;
  tmux('new-session', '-d', '-s', session, '-x', String(size[0]), '-y', String(size[1]), cmd);
}

const screen = (session: string, ansi = false) => tmux('capture-pane', '-p', ...(ansi ? ['-e'] : []), '-t', session);
const waitFor = (session: string, test: (s: string) => boolean, what: string, timeoutMs = 20_000): Promise<string> =>
  waitUntil(what, () => screen(session), test, { timeoutMs, intervalMs: 200 });
const keys = (session: string, ...k: string[]) => tmux('send-keys', '-t', session, ...k);
const count = async () => {
  await esCall(node.url, 'POST', `/${INDEX}/_refresh`);
  return (await esCall(node.url, 'GET', `/${INDEX}/_count`)).body.count as number;
};

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-habits-'));
  const put = await esCall(node.url, 'PUT', `/${INDEX}`, {
    settings: { number_of_shards: 1, number_of_replicas: 0 },
    mappings: { properties: { modified_at: { type: 'date' } } },
  });
  expect(put.status).toBe(200);
  for (let i = 0; i < 3; i++) await esCall(node.url, 'PUT', `/${INDEX}/_doc/old${i}`, { modified_at: `2024-0${i + 1}-01T00:00:00Z` });
  await esCall(node.url, 'PUT', `/${INDEX}/_doc/new?refresh=true`, { modified_at: '2026-01-01T00:00:00Z' });
  for (const args of [
    ['profiles', 'save', 'prod', '--url', node.url, '--production'],
    ['profiles', 'save', 'stage', '--url', node.url, '--label', 'STAGE', '--color', 'yellow'],
  ]) {
    const r = await runCli(args, { env: { SHARDECK_CONFIG_DIR: cfg } });
    expect(r.code, r.stderr).toBe(0);
  }
});

afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // no session left
  }
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

describe('a label and a colour per profile, at 80x23', () => {
  it('the label heads every pane, in its colour; under NO_COLOR as plain text', async () => {
    launch('panes', '--profile stage --interval 1');
    await waitFor('panes', (s) => s.split('\n')[0].startsWith('[STAGE] shardeck '), 'the label in the header');
    for (const k of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0']) {
      keys('panes', k);
      // The pane's tab is the highlighted one: wait for the screen to change pane, then read its header.
      const s = await waitFor(
        'panes',
        (x) => x.split('\n')[0].startsWith('[STAGE] shardeck ') && x.split('\n')[1].includes(` ${k} `),
        `pane ${k}`,
      );
      expect(s.split('\n')[0], `pane ${k}`).toMatch(/^\[STAGE\] shardeck \S+ /);
    }
    // Yellow (SGR 33) reversed (SGR 7) right before the label.
    // eslint-disable-next-line no-control-regex -- the terminal's escape sequences on purpose
    const before = /^((?:\u001b\[[0-9;]*m)*)\[STAGE\]/.exec(screen('panes', true))?.[1] ?? '';
    // eslint-disable-next-line no-control-regex -- the terminal's escape sequences on purpose
    const codes = [...before.matchAll(/\u001b\[([0-9;]*)m/g)].flatMap((m) => m[1].split(';'));
    expect(codes).toEqual(expect.arrayContaining(['7', '33']));
    launch('plain', '--profile stage --interval 1', 'NO_COLOR=1');
    const plain = await waitFor('plain', (s) => s.startsWith('[STAGE] shardeck '), 'the label under NO_COLOR');
    expect(plain.split('\n')[0]).toMatch(/^\[STAGE\] shardeck /);
    // eslint-disable-next-line no-control-regex -- the terminal's escape sequences on purpose
    const sgr = [...screen('plain', true).matchAll(/\u001b\[([0-9;]*)m/g)].flatMap((m) => m[1].split(';'));
    expect(sgr.filter((c) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(c))).toEqual([]);
  });

  it('production: the preview carries [PROD], and a delete asks the cluster name (a wrong one refused, nothing sent)', async () => {
    launch('prod', '--profile prod --interval 1');
    await waitFor('prod', (s) => s.startsWith('[PROD] shardeck '), 'the PROD header');
    keys('prod', '2');
    keys('prod', '/');
    keys('prod', '-l', INDEX);
    keys('prod', 'Enter');
    await waitFor('prod', (s) => s.includes(INDEX) && /1 of \d+|1 index|\b1\//.test(s), 'the index alone in the Indices pane', 30_000);
    const deleteOnce = async (name: string) => {
      keys('prod', 'D');
      await waitFor('prod', (s) => s.includes('which documents'), 'the delete form');
      keys('prod', '-l', '2025-03-01');
      await waitFor('prod', (s) => s.includes('modified_at before 2025-03-01'), 'the cutoff');
      keys('prod', 'Enter');
      const review = await waitFor('prod', (s) => s.includes('type 3 to delete them'), 'the review');
      // The preview beside the review starts with the label.
      expect(review).toMatch(/\[PROD\] delete at most 3 documents/);
      keys('prod', '-l', '3');
      keys('prod', 'Enter');
      const ask = await waitFor('prod', (s) => s.includes("type the cluster's name to go on"), 'the cluster-name question');
      expect(ask).toContain('[PROD] production cluster: this change loses data');
      expect(ask).toContain('delete at most 3 documents of');
      for (const l of ask.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80);
      keys('prod', '-l', name);
      keys('prod', 'Enter');
    };
    await deleteOnce('staging-cluster');
    // The sentence wraps at 80 columns: read it joined.
    const joined = (s: string) => s.replace(/\n/g, '');
    const refused = joined(await waitFor('prod', (s) => joined(s).includes('was not typed exactly'), 'the refusal'));
    expect(refused).toContain(`the cluster's name "${node.clusterName}" was not typed exactly`);
    expect(refused).toContain('nothing was sent');
    expect(await count()).toBe(4);
    keys('prod', 'Escape');
    await waitFor('prod', (s) => !joined(s).includes('was not typed exactly') && s.includes(INDEX), 'back on the pane');
    await deleteOnce(node.clusterName);
    await waitFor('prod', (s) => /ok: deleted 3 of 3 previewed/.test(s), 'the delete done', 60_000);
    expect(await count()).toBe(1);
    keys('prod', 'Escape');
    keys('prod', 'q');
    await waitFor('prod', (s) => s.includes('EXIT=0'), 'the exit');
  });
});
