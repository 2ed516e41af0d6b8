// Issue 47 item 9: the unassigned-shards wizard offers the retry of failed allocations only when a
// copy has failed. On a real node a replica that cannot be placed (one node) is unassigned without
// any failure: the wizard's session counts none, and R sends nothing. (A copy whose allocation failed,
// dev/corrupt.mjs's red index, is driven by test/integration/recover-corrupt.test.tsx; the wizard's
// screens with failures are in test/snapshots/wizards.test.tsx.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEsApi } from '../../src/cluster/api';
import { createClient } from '../../src/cluster/connection';
import { readAudit } from '../../src/services/audit';
import { Guard } from '../../src/services/guard';
import { allocationSession } from '../../src/services/wizards/allocation';
import { esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let dir: string;

beforeAll(async () => {
  node = await sharedNode();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-retry-offer-'));
  await esCall(node.url, 'PUT', '/retry_offer', { settings: { number_of_shards: 1, number_of_replicas: 1 } });
}, 180_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it('a replica unassigned for want of a node is no failed allocation: no retry offered, R sends nothing', async () => {
  const client = createClient({ url: node.url });
  const auditFile = path.join(dir, 'audit.log');
  try {
    const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'retry', auditFile });
    const session = allocationSession(createEsApi(client, node.url), guard, { index: 'retry_offer', shard: 0, primary: false });
    const explained = await session.idle();
    expect(explained).toMatchObject({ phase: 'explained', failed: 0 });
    expect((explained as { unassigned: number }).unassigned).toBeGreaterThan(0);
    session.send({ type: 'retry' });
    expect(await session.idle()).toMatchObject({ phase: 'explained' });
    expect(readAudit(auditFile).records).toEqual([]);
  } finally {
    await client.close();
  }
});
