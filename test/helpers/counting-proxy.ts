// A small HTTP proxy on 127.0.0.1 in front of a real (plain http) test node: it forwards every
// request and records its method and path, so a test can assert what shardeck sent, above all
// that read-only mode sent nothing that changes the cluster. It can also be told to answer a
// matching request itself with a status (e.g. 503), or to reset the connection once the request
// has been received, to test that a failed mutation is reported and never resent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  /** Path with its query string, as sent. */
  path: string;
  changing: boolean;
  /** What the proxy did with it. */
  handled: 'forwarded' | 'answered' | 'reset';
  /** Forwarded: ms from its arrival to the node's last byte (what the read cost the node, plus loopback). */
  ms?: number;
  /** When it arrived (performance.now() of the proxy's process). */
  at: number;
}

/** POSTs that only read (a query or an explanation carried in a body). */
const READ_POSTS = [/\/_search(\/scroll)?$/, /\/_count$/, /^\/_cluster\/allocation\/explain$/, /\/_mget$/, /\/_msearch$/, /\/_field_caps$/, /^\/_index_template\/_simulate(_index)?\//, /^\/_security\/user(\/[^/]+)?\/_has_privileges$/];
/** Endpoints that write whatever the method: Elasticsearch also serves GET /<index>/_refresh and _flush. */
const WRITE_ENDPOINTS = /(^|\/)(_refresh|_flush|_forcemerge|_cache\/clear)(\/|$)/;

/** Would this request change anything on the cluster? Anything not known to be a read counts. */
export function isChanging(method: string, pathWithQuery: string): boolean {
  const p = pathWithQuery.split('?')[0];
  if (WRITE_ENDPOINTS.test(p)) return true;
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD') return false;
  if (m === 'POST') return !READ_POSTS.some((r) => r.test(p));
  return true; // PUT, DELETE, PATCH, anything else
}

export type Trap = { match: (method: string, path: string) => boolean; action: { status: number; body?: unknown } | 'reset' };

export interface CountingProxy {
  url: string;
  requests: SeenRequest[];
  changing(): SeenRequest[];
  /** Answer (or reset) the requests `match` selects instead of forwarding them. */
  trap(t: Trap): void;
  clearTraps(): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  if (upstream.protocol !== 'http:') throw new Error('the counting proxy fronts a plain http node');
  const requests: SeenRequest[] = [];
  let traps: Trap[] = [];
  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const t0 = performance.now();
    const seen: SeenRequest = { method, path, changing: isChanging(method, path), handled: 'forwarded', at: t0 };
    requests.push(seen);
    const trap = traps.find((t) => t.match(method, path));
    if (trap) {
      // Read the whole request first: the node "received" it, then fails.
      req.resume();
      req.on('end', () => {
        if (trap.action === 'reset') {
          seen.handled = 'reset';
          req.socket.resetAndDestroy();
          return;
        }
        seen.handled = 'answered';
        const body = JSON.stringify(trap.action.body ?? { error: { type: 'test_unavailable', reason: 'the counting proxy answered' }, status: trap.action.status });
        res.writeHead(trap.action.status, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
        res.end(body);
      });
      return;
    }
    const out = http.request(
      { host: upstream.hostname, port: upstream.port, method, path, headers: { ...req.headers, host: upstream.host } },
      (up) => {
        up.on('end', () => (seen.ms = performance.now() - t0));
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => req.socket.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    changing: () => requests.filter((r) => r.changing),
    trap: (t) => traps.push(t),
    clearTraps: () => {
      traps = [];
    },
    reset: () => {
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
