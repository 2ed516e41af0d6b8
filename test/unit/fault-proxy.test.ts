// The fault proxy (test/helpers/counting-proxy.ts) in front of a small local HTTP server standing
// in for the node: each rule does what the battery relies on, and heal ends it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { onPath, startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';

const ANSWER = JSON.stringify({ cluster_name: 'x', status: 'green', padding: 'p'.repeat(200) });
let upstream: http.Server;
let hits: string[];
let proxy: CountingProxy;

interface Got {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body?: string;
  error?: string;
}

/** One request through the proxy; resolves with what came back or how it failed. onHeaders: called when headers arrive. */
function get(path: string, method = 'GET', onHeaders?: () => void): Promise<Got> {
  return new Promise((resolve) => {
    const req = http.request(`${proxy.url}${path}`, { method, agent: false }, (res) => {
      onHeaders?.();
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
      res.on('error', (e) => resolve({ status: res.statusCode, error: (e as NodeJS.ErrnoException).code ?? e.message }));
      res.on('aborted', () => resolve({ status: res.statusCode, error: 'aborted' }));
    });
    req.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end();
  });
}

/** Resolves once the proxy has handled its first request so (a stall: once it read the request whole). */
async function until(handled: string): Promise<void> {
  while (proxy.requests[0]?.handled !== handled) await new Promise((r) => setImmediate(r));
}

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(ANSWER);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  proxy = await startCountingProxy(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
});

afterAll(async () => {
  await proxy.close();
  await new Promise((r) => upstream.close(r));
});

beforeEach(() => {
  hits = [];
  proxy.clearTraps();
  proxy.reset();
});

describe('the fault proxy', () => {
  it('forwards untouched without a rule', async () => {
    expect(await get('/_cluster/health')).toMatchObject({ status: 200, body: ANSWER });
    expect(hits).toEqual(['GET /_cluster/health']);
    // The answer's bytes as forwarded (bench/cluster-watch.ts reports them per minute).
    expect(proxy.requests[0].bytes).toBe(Buffer.byteLength(ANSWER));
  });

  it('a status with Retry-After, only the first time; then the node answers', async () => {
    proxy.trap({ match: onPath('GET', /^\/_cluster\/health$/), action: { status: 429, headers: { 'retry-after': '2' } }, times: 1 });
    const first = await get('/_cluster/health?level=indices');
    expect(first.status).toBe(429);
    expect(first.headers?.['retry-after']).toBe('2');
    expect(hits).toEqual([]);
    expect(await get('/_cluster/health')).toMatchObject({ status: 200, body: ANSWER });
    expect(proxy.requests.map((r) => r.handled)).toEqual(['answered', 'forwarded']);
  });

  it('added latency: held, not forwarded, until the delay ends (or heal)', async () => {
    proxy.trap({ match: onPath('*', /health/), action: { delayMs: 600_000 } });
    const pending = get('/_cluster/health');
    await until('delayed');
    expect(hits).toEqual([]);
    proxy.clearTraps();
    expect(await pending).toMatchObject({ status: 200, body: ANSWER });
    expect(hits).toEqual(['GET /_cluster/health']);
  });

  it('a stall with nothing at all, until heal closes it', async () => {
    proxy.trap({ match: onPath('GET', /health/), action: { stall: 'nothing' } });
    const pending = get('/_cluster/health');
    await until('stalled');
    proxy.clearTraps();
    expect((await pending).error).toMatch(/ECONNRESET|socket hang up/);
    expect(hits).toEqual([]);
  });

  it('a stall after the headers: the status arrives, the body never ends until heal', async () => {
    proxy.trap({ match: onPath('GET', /health/), action: { stall: 'headers' } });
    let headersCame!: () => void;
    const headers = new Promise<void>((r) => (headersCame = r));
    const pending = get('/_cluster/health', 'GET', headersCame);
    await headers;
    proxy.clearTraps();
    const got = await pending;
    expect(got.status).toBe(200);
    expect(got.error).toMatch(/aborted|ECONNRESET/);
  });

  it('reset after 0 bytes: the node did it, the answer is lost', async () => {
    proxy.trap({ match: onPath('PUT', /_settings/), action: { resetAfterBytes: 0 } });
    expect((await get('/x/_settings', 'PUT')).error).toMatch(/ECONNRESET|socket hang up/);
    expect(hits).toEqual(['PUT /x/_settings']);
  });

  it('withhold: the node did it, its answer never comes until heal closes the connection', async () => {
    proxy.trap({ match: onPath('PUT', /_settings/), action: { withhold: true } });
    const pending = get('/x/_settings', 'PUT');
    await until('stalled');
    while (!hits.length) await new Promise((r) => setImmediate(r));
    expect(hits).toEqual(['PUT /x/_settings']);
    proxy.clearTraps();
    expect((await pending).error).toMatch(/ECONNRESET|socket hang up/);
  });

  it('reset after N bytes, in the middle of the body', async () => {
    proxy.trap({ match: onPath('GET', /health/), action: { resetAfterBytes: 150 } });
    const got = await get('/_cluster/health');
    expect(got.error).toMatch(/aborted|ECONNRESET/);
    expect(hits).toHaveLength(1);
  });

  it('a body cut short ends cleanly and is not JSON; a garbled one neither', async () => {
    proxy.trap({ match: onPath('GET', /health/), action: { truncateBodyAt: 30 }, times: 1 });
    proxy.trap({ match: onPath('GET', /health/), action: { invalidJson: true } });
    const cut = await get('/_cluster/health');
    expect(cut).toMatchObject({ status: 200, body: ANSWER.slice(0, 30) });
    const garbled = await get('/_cluster/health');
    expect(garbled.status).toBe(200);
    expect(() => JSON.parse(garbled.body!)).toThrow();
    expect(hits).toHaveLength(2);
  });
});
