// The console's close / open / delete of whole indices against a real node (issue 43 item 4, the
// Indices pane's marks): the session behind c, u and X, opened on the marked names as the pane hands
// them over (markedTarget), previews exactly those, sends one request naming each, refuses a delete
// confirmed by a key or a wrong count, and stops when a marked index vanished since the preview.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsApi } from '../../src/cluster/api';
import { createClient } from '../../src/cluster/connection';
import { markedTarget, toggleMark } from '../../src/domain/console/marks';
import { Guard } from '../../src/services/guard';
import { indexAdminSession } from '../../src/services/wizards/index-admin';
import { esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let dir: string;
const P = `marks${process.pid}`;

const make = async (name: string) =>
  expect((await esCall(node.url, 'PUT', `/${name}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } })).status).toBe(200);
async function present(): Promise<string[]> {
  const r = await esCall(node.url, 'GET', `/_cat/indices/${P}*,service_v9_${P}*?format=json&h=index`);
  return (r.body as { index: string }[]).map((x) => x.index).sort();
}
async function status(name: string): Promise<string | undefined> {
  const r = await esCall(node.url, 'GET', `/_cat/indices/${name}?format=json&h=status`);
  return r.status === 200 ? r.body[0]?.status : undefined;
}
function open(action: 'close' | 'open' | 'delete', target: string) {
  const client = createClient({ url: node.url });
  const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'marks', auditFile: path.join(dir, 'audit.log') });
  return indexAdminSession(createEsApi(client, node.url), guard, action, target);
}
const typed = (s: ReturnType<typeof open>, text: string) => {
  for (const c of text) s.send({ type: 'line', edit: { type: 'insert', text: c } });
  s.send({ type: 'submit' });
};

beforeAll(async () => {
  node = await sharedNode();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-marks-'));
  for (const n of [`${P}-a`, `${P}-b`, `${P}-c`, `service_v9_${P}x`]) await make(n);
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the marked indices, on a real node', () => {
  it('close: the two marked (one mark of an index gone dropped) are previewed, sent by name, closed; the third stays open', async () => {
    let marks: string[] = [];
    for (const n of [`${P}-b`, `${P}-a`, `${P}-gone`]) marks = toggleMark(marks, n);
    const target = markedTarget(marks, await present()) ?? `${P}-c`;
    expect(target).toBe(`${P}-a,${P}-b`);
    const s = open('close', target);
    const review = await s.idle();
    expect(review.phase).toBe('review');
    if (review.phase !== 'review') return;
    expect(review.preview.facts.map((f) => f.index)).toEqual([`${P}-a`, `${P}-b`]);
    expect(review.plan).toMatchObject({ method: 'POST', path: `/${P}-a,${P}-b/_close` });
    s.send({ type: 'confirm', confirmation: { by: 'key' } });
    const done = await s.idle();
    expect(done).toMatchObject({ phase: 'done', result: { ok: true, verified: { ok: true } } });
    expect([await status(`${P}-a`), await status(`${P}-b`), await status(`${P}-c`)]).toEqual(['close', 'close', 'open']);
    // Open again: the same names, the same way.
    const o = open('open', target);
    await o.idle();
    o.send({ type: 'confirm', confirmation: { by: 'key' } });
    expect(await o.idle()).toMatchObject({ phase: 'done', result: { ok: true } });
    expect(await status(`${P}-a`)).toBe('open');
  });

  it('delete: y and a wrong count send nothing; the count and the project name delete exactly the marked; the rest survives', async () => {
    const target = markedTarget([`${P}-a`, `service_v9_${P}x`], await present())!;
    const s = open('delete', target);
    await s.idle();
    s.send({ type: 'confirm', confirmation: { by: 'key' } });
    expect(await s.idle()).toMatchObject({ phase: 'review', error: expect.stringContaining(`type "2 service_v9_${P}x"`) });
    typed(s, '2');
    expect(await s.idle()).toMatchObject({ phase: 'review', error: expect.stringContaining('nothing was sent') });
    expect(await present()).toContain(`${P}-a`);
    // An index made after the preview is not named: it survives.
    await make(`${P}-late`);
    // What was typed stays: the project's name goes after the count.
    typed(s, ` service_v9_${P}x`);
    expect(await s.idle()).toMatchObject({ phase: 'done', result: { ok: true } });
    expect(await present()).toEqual([`${P}-b`, `${P}-c`, `${P}-late`]);
  });

  it('a marked index deleted between the preview and the send stops the whole delete (nothing sent)', async () => {
    const s = open('delete', `${P}-b,${P}-c`);
    await s.idle();
    expect((await esCall(node.url, 'DELETE', `/${P}-c`)).status).toBe(200);
    typed(s, '2');
    const after = await s.idle();
    expect(after.phase).toBe('done');
    if (after.phase !== 'done') return;
    expect(after.result.ok).toBe(false);
    expect(after.result.message).toMatch(/nothing was sent/);
    expect(await status(`${P}-b`)).toBe('open');
  });
});
