// The replicas wizard's Ink component against a real node: it only renders the machine's state
// and sends keys; the real Guard sends the request. Yellow (1 replica on one node) -> 0 -> green.
import { stripVTControlCharacters } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import React from 'react';
import { render } from 'ink-testing-library';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import { readAudit } from '../../src/services/audit';
import { Guard } from '../../src/services/guard';
import { createWizardServices } from '../../src/services/wizards';
import { KeyRouter } from '../../src/ui/input/router';
import { ReplicasView } from '../../src/ui/wizards/ReplicasWizard';
import { waitUntil } from '../helpers/wait-until';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let dir: string;
const INDEX = 'service_v9_uiwizard';

beforeAll(async () => {
  node = await sharedNode();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-wizui-'));
  await fetch(`${node.url}/${INDEX}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ settings: { number_of_shards: 1, number_of_replicas: 1 } }),
  });
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const until = (frame: () => string | undefined, re: RegExp, timeoutMs = 20_000): Promise<string> =>
  waitUntil(
    `a frame matching ${re}`,
    () => frame() ?? '',
    (f) => re.test(f),
    { timeoutMs, intervalMs: 50 },
  );

it('types the count, shows the request and its curl line, sends on y, and reports yellow -> green', async () => {
  const auditFile = path.join(dir, 'audit.log');
  const client = createClient({ url: node.url });
  const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'ui', auditFile });
  let closed = false;
  const app = render(
    <KeyRouter onInterrupt={() => {}}>
      <ReplicasView
        services={createWizardServices(createEsApi(client, node.url), guard, { pollMs: 200 })}
        initial={{ target: INDEX }}
        onClose={() => (closed = true)}
      />
    </KeyRouter>,
  );
  await until(app.lastFrame, /replicas/);
  // Each key once the one before it is drawn (keys written together could arrive as one chunk).
  app.stdin.write('x');
  await until(app.lastFrame, /replicas\s+x/);
  app.stdin.write('\u007f');
  await waitUntil(
    'the x deleted',
    () => app.lastFrame() ?? '',
    (f) => /replicas/.test(f) && !/replicas\s+x/.test(f),
  );
  app.stdin.write('0');
  await until(app.lastFrame, /replicas\s+0/);
  app.stdin.write('\r');
  const review = await until(app.lastFrame, /y send/);
  expect(review).toContain(`${INDEX}: 1 index: ${INDEX}`);
  expect(review).toContain('health now yellow, expected after: green');
  // The curl line whole (it carries the method, path and body): the box cuts it into rows, every character kept.
  const inner = stripVTControlCharacters(review)
    .split('\n')
    .filter((r) => r.startsWith('│'))
    .map((r) => r.slice(2, -2));
  const curlRows = inner.slice(inner.findIndex((r) => r.startsWith('equivalent: curl')));
  expect(curlRows.join('').trimEnd()).toBe(
    `equivalent: curl -X PUT '${node.url}/${INDEX}/_settings?expand_wildcards=all' -H 'Content-Type: application/json' -d '{"index":{"number_of_replicas":0}}'`,
  );
  expect(readAudit(auditFile).records).toEqual([]); // nothing sent before y

  app.stdin.write('y');
  const done = await until(app.lastFrame, /health yellow -> green/);
  expect(done).toMatch(/ok: every matched index now has 0 replicas/);
  expect(readAudit(auditFile).records).toHaveLength(1);
  const health = (await (await fetch(`${node.url}/_cluster/health/${INDEX}`)).json()) as any;
  expect(health.status).toBe('green');

  app.stdin.write(' ');
  await waitUntil('the wizard to close', () => closed);
  expect(closed).toBe(true);
  app.unmount();
});
