// Every answer read from the cluster is capped (issue 31.5): a hostile "node" (a tiny HTTP server
// in this test: a peer, not a mocked client) answers with a gzip bomb or a table that never ends.
// shardeck must stop reading at the cap with an error that names it and how to raise it, without
// holding the bomb's expansion in memory.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createEsApi } from '../../src/cluster/api';
import { closeClient, createClient } from '../../src/cluster/connection';
import { ensureBuilt, runCli } from '../helpers/run-cli';

let server: http.Server;
let url: string;
// 64 MB of JSON-ish bytes in ~64 KB of gzip: far past a 1 MB cap once inflated.
const BOMB = zlib.gzipSync(Buffer.concat([Buffer.from('{"cluster_name":"'), Buffer.alloc(64 * 1024 * 1024, 0x61), Buffer.from('"}')]), {
  level: 9,
});
const ROW = Buffer.from('{"index":"x","health":"green","status":"open","pri":"1","rep":"0"},');
const old = process.env.SHARDECK_MAX_ANSWER_MB;

beforeAll(async () => {
  ensureBuilt();
  server = http.createServer((req, res) => {
    const head = { 'x-elastic-product': 'Elasticsearch', 'content-type': 'application/json' };
    if (req.url!.startsWith('/_cat/')) {
      // A table that never ends (until the reader hangs up).
      res.writeHead(200, head);
      res.write('[');
      const more = () => {
        while (res.write(Buffer.concat(Array(256).fill(ROW))));
      };
      res.on('drain', more);
      res.on('error', () => undefined);
      more();
      return;
    }
    res.writeHead(200, { ...head, 'content-encoding': 'gzip' }).end(BOMB);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  if (old === undefined) delete process.env.SHARDECK_MAX_ANSWER_MB;
  else process.env.SHARDECK_MAX_ANSWER_MB = old;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

it('a gzip bomb is cut at the cap (inflated size), naming the cap and SHARDECK_MAX_ANSWER_MB', async () => {
  process.env.SHARDECK_MAX_ANSWER_MB = '1';
  const client = createClient({ url });
  try {
    const es = createEsApi(client, url);
    await expect(es.data('health')).rejects.toThrow(/bigger than shardeck's cap of 1 MB.*SHARDECK_MAX_ANSWER_MB/);
  } finally {
    await closeClient(client);
  }
});

it('a _cat table that never ends is cut at the cap', async () => {
  process.env.SHARDECK_MAX_ANSWER_MB = '1';
  const client = createClient({ url });
  try {
    const es = createEsApi(client, url);
    await expect(es.data('indices')).rejects.toThrow(/bigger than shardeck's cap of 1 MB.*SHARDECK_MAX_ANSWER_MB/);
  } finally {
    await closeClient(client);
  }
});

it('status against the hostile node ends with the cap in its message (default cap 256 MB), not an abort', async () => {
  const r = await runCli(['status', '--url', url], { env: { SHARDECK_MAX_ANSWER_MB: '2' } });
  expect(r.code).not.toBe(0);
  expect(r.code).toBeLessThan(128); // not killed (OOM, V8 abort)
  expect(r.stdout + r.stderr).toMatch(/cap of 2 MB/);
});
