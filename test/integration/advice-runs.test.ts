// Issue 47 item 3: advice that runs. The `shardeck ...` lines that real commands print on a real node
// in trouble (a red index whose primary can go nowhere, a yellow one whose replica cannot be
// placed) are run as printed: none is refused as bad usage (exit 64). Mutating ones are run with
// --dry-run, so nothing changes. (test/unit/advice.test.ts checks the source strings' commands and flags.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands';
import { loadTable, type Table } from '../../src/commands/help';
import { EXIT } from '../../src/commands/support/common';
import { mentionsIn, type Mention } from '../helpers/advice';
import { cliAgainst, esCall } from '../helpers/real-node';
import { ensureBuilt } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let cfg: string;
let table: Table;
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);

/** Where a printed suggestion's command ends and the sentence goes on ("shardeck explain x 0 says why"). */
const PROSE = new Set([
  'says',
  'to',
  'then',
  'and',
  'or',
  'if',
  'when',
  'again',
  'first',
  'now',
  'is',
  'lists',
  'shows',
  'puts',
  'goes',
  'for',
  'after',
  'before',
  'until',
  'with',
  'on',
  'in',
  'the',
  'a',
]);

/** The suggestion as an operator would paste it, or null when it is a template (INDEX, NAME, …). */
function asPrinted(m: Mention): string[] | null {
  const end = m.tokens.findIndex((t) => PROSE.has(t));
  const tokens = end === -1 ? m.tokens : m.tokens.slice(0, end);
  if (tokens.some((t) => /[A-Z]{2,}|[…<>|[\]]|\.\.\./.test(t))) return null;
  return [m.command, ...tokens.map((t) => t.replace(/[.:]$/, ''))];
}

beforeAll(async () => {
  ensureBuilt();
  table = await loadTable(COMMANDS);
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-advice-'));
  // Red: a primary that no node may hold. Yellow: a replica on a cluster of one node.
  await esCall(node.url, 'PUT', '/advice_nowhere', {
    settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'no-such-node' },
  });
  await esCall(node.url, 'PUT', '/advice_yellow', { settings: { number_of_shards: 1, number_of_replicas: 1 } });
}, 180_000);

afterAll(() => {
  fs.rmSync(cfg, { recursive: true, force: true });
});

it('every concrete shardeck line that status, doctor, balance, explain and the other reads print runs as printed (none exits 64)', async () => {
  const commands = new Map(table);
  const reads = [
    ['status'],
    ['doctor'],
    ['balance'],
    ['explain', 'advice_nowhere', '0'],
    ['explain', 'advice_yellow', '0'],
    ['explain'],
    ['unblock'],
    ['scroll-limit'],
    ['field-limits'],
    ['pending'],
    ['tasks'],
    ['snapshots'],
    ['aliases'],
    ['deprecations'],
  ];
  const suggested = new Map<string, string>();
  for (const args of reads) {
    const r = await cli(args);
    for (const line of `${r.stdout}\n${r.stderr}`.split('\n'))
      for (const m of mentionsIn(args.join(' '), line)) {
        if (!commands.has(m.command)) continue;
        const argv = asPrinted(m);
        if (argv) suggested.set(argv.join(' '), `shardeck ${args.join(' ')}: ${line.trim()}`);
      }
  }
  console.log([...suggested.keys()].map((s) => `shardeck ${s}`).join('\n'));
  const refused: string[] = [];
  for (const [printed, where] of suggested) {
    const argv = printed.split(' ');
    const mod = commands.get(argv[0])!;
    // A change is previewed only: the advice must parse, nothing is sent.
    const dry = mod.group === 'change' || mod.group === 'recover' ? ['--dry-run'] : [];
    const r = await cli([...argv, ...dry]);
    if (r.code === EXIT.usage) refused.push(`${where}\n  -> exit 64: ${r.stderr.trim().split('\n')[0]}`);
  }
  expect(refused).toEqual([]);
  // The node in trouble made them print advice: what each of its two troubles calls for. Other
  // advice comes and goes with the node's state (`deprecations` once its deprecation log has an
  // entry, `nodes --pressure` under load), so it is run when printed but not counted on.
  expect([...suggested.keys()]).toEqual(
    expect.arrayContaining(['explain advice_nowhere 0 primary', 'replicas set advice_yellow 0', 'explain advice_yellow 0']),
  );
}, 300_000);
