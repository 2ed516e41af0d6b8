// Field limits against a real 8.19.21 node: an index made near its limit on purpose
// (dev/lib/sick-node.mjs nearFieldLimit: 19 fields of 20) listed by `shardeck field-limits` with
// its count, limit and the remedy, exit 1 (90%+); a plain index not listed; --from out of range
// refused (64) in the one JSON error shape.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/run-cli';
import { cliAgainst, esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { nearFieldLimit } from '../../dev/lib/sick-node.mjs';

let node: SharedNode;
let cfg: string;
const cli = cliAgainst(
  () => node.url,
  () => cfg,
);

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-fields-'));
  expect((await nearFieldLimit(node.url, 'service_v9_fields_near', { limit: 20, fields: 19 })).status).toBe(200);
  const plain = await esCall(node.url, 'PUT', '/service_v9_fields_plain', {
    settings: { number_of_shards: 1, number_of_replicas: 0 },
    mappings: { properties: { a: { type: 'keyword' } } },
  });
  expect(plain.status).toBe(200);
}, 180_000);

afterAll(() => {
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

it('the index near its limit: 19 of 20 (95%), exit 1, with the remedy (json and text)', async () => {
  const json = await cli(['field-limits', '--json']);
  expect(json.code).toBe(1);
  const out = JSON.parse(json.stdout);
  expect(out).toMatchObject({ schema: 1, command: 'field-limits', ok: true, from: 80, remedy: expect.stringMatching(/dynamic/) });
  expect(out.indices).toEqual([{ index: 'service_v9_fields_near', fields: 19, limit: 20, percent: 95 }]);
  expect(out.checked).toBeGreaterThanOrEqual(2);
  const text = await cli(['field-limits']);
  expect(text.code).toBe(1);
  expect(text.stdout).toMatch(/^1 of \d+ indices with mapped fields at 80%\+ of index\.mapping\.total_fields\.limit:\n/);
  expect(text.stdout).toMatch(/ {2}95% {2}19 \/ 20 {6} service_v9_fields_near\n/);
  expect(text.stdout).toMatch(/\nremedy: /);
  // From 0.1%: the plain index (1 of the default 1000) too.
  const all = JSON.parse((await cli(['field-limits', '--from', '0.1', '--json'])).stdout);
  expect(all.indices).toContainEqual({ index: 'service_v9_fields_plain', fields: 1, limit: 1000, percent: 0.1 });
});

it('--from out of range: exit 64, one JSON error object', async () => {
  const r = await cli(['field-limits', '--from', '0', '--json']);
  expect(r.code).toBe(64);
  expect(JSON.parse(r.stdout)).toEqual({
    schema: 1,
    command: 'field-limits',
    ok: false,
    code: 64,
    error: expect.stringMatching(/--from "0"/),
  });
});
