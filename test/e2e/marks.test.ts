// Issue 43 item 4 in a real terminal (tmux at 80x23) against a real node: the built console's marks
// on the Indices pane. Space marks (a * in the row, the count in the footer), c closes exactly the
// marked indices after a preview naming each, Esc clears the marks, X deletes only once the count is
// typed, and read-only mode offers none of the change keys. Enter's detail names the index's aliases.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardeckCommand, Terminals } from '../helpers/tmux';
import { ensureBuilt } from '../helpers/run-cli';
import { esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

const P = `marks${process.pid}`;

const term = new Terminals('shardeck-marks');
const { screen, waitFor, keys } = term;
let node: SharedNode;
let cfg: string;

function launch(session: string, args: string): void {
  term.start(session, shardeckCommand(args, `SHARDECK_CONFIG_DIR=${cfg}`));
}
async function status(name: string): Promise<string | undefined> {
  const r = await esCall(node.url, 'GET', `/_cat/indices/${name}?format=json&h=status`);
  return r.status === 200 ? r.body[0]?.status : undefined;
}
/** The index names on rows that carry the mark. */
const markedRows = (s: string) =>
  s
    .split('\n')
    .filter((l) => /^\* /.test(l))
    .map((l) => new RegExp(`${P}-\\w+`).exec(l)?.[0]);

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-marks-e2e-'));
  for (const n of ['keep', 'old1', 'old2', 'old3'])
    expect((await esCall(node.url, 'PUT', `/${P}-${n}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } })).status).toBe(200);
});

afterAll(() => {
  term.close();
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

/** The Indices pane filtered to `filter`, with `rows` rows shown. */
async function indicesOf(session: string, filter: string, rows: number): Promise<void> {
  await waitFor(session, (s) => s.includes('GREEN') || s.includes('YELLOW'), 'the console');
  keys(session, '2');
  await waitFor(session, (s) => /Indices/.test(s.split('\n').slice(2, 4).join('\n')), 'the Indices pane');
  keys(session, '/');
  keys(session, '-l', filter);
  keys(session, 'Enter');
  await waitFor(session, (s) => s.split('\n').filter((l) => l.includes(filter)).length >= rows, `${rows} rows of ${filter}`);
}

describe('marks on the Indices pane, at 80x23', () => {
  it('Space marks two, the footer counts them; c closes exactly those after naming each; Esc clears', async () => {
    launch('close', `--url ${node.url} --interval 1`);
    await indicesOf('close', `${P}-old`, 3);
    keys('close', 'Space');
    keys('close', 'Space');
    const marked = await waitFor('close', (s) => /2 marked · Space mark · Esc clear/.test(s), 'the footer count');
    const names = markedRows(marked);
    expect(names).toHaveLength(2);
    expect(marked.split('\n').every((l) => l.length <= 80)).toBe(true);
    // R opens on the same names: the replicas form's target is the comma list, its review counts both.
    keys('close', 'R');
    await waitFor('close', (s) => s.includes([...names].sort().join(',')), 'the replicas form on the marked names');
    keys('close', '0', 'Enter');
    await waitFor('close', (s) => s.includes(`2 indices: ${[...names].sort().join(', ')}`), 'the replicas review of both');
    keys('close', 'Escape');
    await waitFor('close', (s) => /2 marked/.test(s) && !s.includes('2 indices:'), 'back on the pane');
    // A wizard opened any other way (the command line naming an index) acts on that index, not the marks.
    keys('close', ':');
    keys('close', '-l', `replicas ${P}-keep`);
    keys('close', 'Enter');
    const line = await waitFor(
      'close',
      (s) => s.includes('Replicas of an index') && s.includes(`${P}-keep`),
      'the replicas form from the line',
    );
    expect(line).not.toContain([...names].sort().join(','));
    keys('close', 'Escape');
    await waitFor('close', (s) => /2 marked/.test(s) && !s.includes('Replicas of an index'), 'back on the pane, still marked');
    keys('close', 'c');
    const review = await waitFor('close', (s) => s.includes('close 2 indices, each named:'), 'the review');
    for (const n of names) expect(review).toContain(`  ${n} · open`);
    // The request names both, never a pattern.
    // (the curl line is cut into the box's rows: read without the box and the line ends)
    expect(review.replace(/[│\s]/g, '')).toContain(`/${[...names].sort().join(',')}/_close`);
    keys('close', 'y');
    await waitFor('close', (s) => /ok: 2 indices closed/.test(s), 'the result');
    const unmarked = [`${P}-old1`, `${P}-old2`, `${P}-old3`].filter((n) => !names.includes(n));
    expect([await status(names[0]!), await status(names[1]!), await status(unmarked[0])]).toEqual(['close', 'close', 'open']);
    keys('close', 'Enter');
    await waitFor('close', (s) => /2 marked/.test(s) && !s.includes('each named'), 'back on the pane, still marked');
    keys('close', 'Escape');
    const cleared = await waitFor('close', (s) => !/\d marked/.test(s), 'the marks cleared');
    expect(markedRows(cleared)).toEqual([]);
    keys('close', 'q');
  });

  it('X deletes the marked only once their count is typed; y is not a confirmation; the rest survives', async () => {
    launch('drop', `--url ${node.url} --interval 1`);
    await indicesOf('drop', `${P}-old`, 3);
    keys('drop', 'Space');
    keys('drop', 'Space');
    const names = markedRows(await waitFor('drop', (s) => /2 marked/.test(s), 'two marked'));
    keys('drop', 'X');
    await waitFor('drop', (s) => s.includes('type 2 (the number of indices above) to delete them'), 'the typed count asked');
    keys('drop', 'y', 'Enter');
    await waitFor('drop', (s) => s.includes('not what was asked: type "2" exactly (nothing was sent)'), 'y refused');
    expect(await status(names[0]!)).toBeDefined();
    keys('drop', 'BSpace', '2', 'Enter');
    await waitFor('drop', (s) => /ok: 2 indices deleted/.test(s), 'the delete');
    expect([await status(names[0]!), await status(names[1]!), await status(`${P}-keep`)]).toEqual([undefined, undefined, 'open']);
    keys('drop', 'Enter');
    // The marks of the deleted indices are dropped with them.
    await waitFor('drop', (s) => !/\d marked/.test(s) && !s.includes('each named'), 'no mark left');
    keys('drop', 'q');
  });

  it('Enter on an index: its aliases in the detail, the write index said', async () => {
    const add = await esCall(node.url, 'POST', '/_aliases', {
      actions: [
        { add: { index: `${P}-keep`, alias: `${P}-writes`, is_write_index: true } },
        { add: { index: `${P}-keep`, alias: `${P}-all` } },
      ],
    });
    expect(add.status).toBe(200);
    launch('detail', `--url ${node.url} --interval 1`);
    await indicesOf('detail', `${P}-keep`, 1);
    keys('detail', 'Enter');
    const s = await waitFor('detail', (x) => x.includes('aliases: '), 'the aliases line');
    expect(s).toContain(`aliases: ${P}-all, ${P}-writes (write index)`);
    keys('detail', 'Escape');
    await waitFor('detail', (x) => !x.includes('aliases: ') && x.includes('q quit'), 'back on the pane');
    keys('detail', 'q');
  });

  it('read-only: Space still marks, but c, u and X are not offered and open nothing', async () => {
    launch('ro', `--url ${node.url} --interval 1 --read-only`);
    await indicesOf('ro', `${P}-`, 2);
    keys('ro', 'Space');
    const s = await waitFor('ro', (x) => /1 marked/.test(x), 'a mark');
    expect(s).not.toMatch(/c close|X drop|u open/);
    keys('ro', 'c');
    keys('ro', 'X');
    await new Promise((r) => setTimeout(r, 1000));
    expect(screen('ro')).not.toContain('each named');
    keys('ro', 'q');
  });
});
