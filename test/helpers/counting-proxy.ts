// A small HTTP proxy on 127.0.0.1 in front of a real (plain http) test node: it forwards every
// request and records its method and path, so a test can assert what shardeck sent, above all
// that read-only mode sent nothing that changes the cluster. It can also be told to answer a
// matching request itself with a status (e.g. 503), or to reset the connection once the request
// has been received, to test that a failed mutation is reported and never resent.
//
// It is also the fault proxy: per-path rules (trap) for what an overloaded or half-broken cluster
// and the links in front of it do: added latency, a stall (nothing at all, or headers then
// nothing), a reset after N bytes of the node's real answer (0: the change was made, its answer
// lost), the node's answer withheld (the change made, its answer stalled), an answer cut short or not JSON, a chosen status (429 with Retry-After, 502, 503, 504),
// each for every match or only the first `times`; clearTraps() (heal) ends every fault at once,
// the stalls in flight included (their connections are closed, as a healed link would).
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  /** Path with its query string, as sent. */
  path: string;
  changing: boolean;
  /** What the proxy did with it. */
  handled: 'forwarded' | 'answered' | 'reset' | 'delayed' | 'stalled' | 'cut' | 'garbled';
  /** Forwarded: ms from its arrival to the node's last byte (what the read cost the node, plus loopback). */
  ms?: number;
  /** When it arrived (performance.now() of the proxy's process). */
  at: number;
  /** Forwarded as is: the bytes of the node's answer body (what the poll costs in traffic; bench/cluster-watch.ts). */
  bytes?: number;
}

/** POSTs that only read (a query or an explanation carried in a body). */
const READ_POSTS = [
  /\/_search(\/scroll)?$/,
  /\/_count$/,
  /^\/_cluster\/allocation\/explain$/,
  /\/_mget$/,
  /\/_msearch$/,
  /\/_field_caps$/,
  /^\/_index_template\/_simulate(_index)?\//,
  /^\/_security\/user(\/[^/]+)?\/_has_privileges$/,
];
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

/** What a trap does with a request it matches. */
export type Fault =
  /** Answered by the proxy (the node never sees it): a status, its body and headers (Retry-After). */
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** The request is read whole, then the connection reset; the node never sees it. */
  | 'reset'
  /** Forwarded after this many ms. */
  | { delayMs: number }
  /** Never answered: 'nothing' sends nothing at all, 'headers' a 200's headers and then nothing. */
  | { stall: 'nothing' | 'headers' }
  /** Forwarded; the node's answer is passed on up to this many bytes (status line and headers
   *  counted), then the connection reset. 0: the node did it, the answer is lost. */
  | { resetAfterBytes: number }
  /** Forwarded; the node's body is cut at this many bytes and the answer ends cleanly. */
  | { truncateBodyAt: number }
  /** Forwarded; a 200 whose body is not JSON comes back instead of the node's answer. */
  | { invalidJson: true }
  /** Forwarded, and the node's answer never passed on: the change was made, its answer stalls (until heal). */
  | { withhold: true };

export type Trap = {
  match: (method: string, path: string) => boolean;
  action: Fault;
  /** Only the first N matching requests; then the rule is spent and requests are forwarded. */
  times?: number;
};

/** A trap for requests of `method` (any when '*') whose path (without query) matches `path`. */
export function onPath(method: string, path: RegExp): Trap['match'] {
  return (m, p) => (method === '*' || m === method) && path.test(p.split('?')[0]);
}

export interface CountingProxy {
  url: string;
  requests: SeenRequest[];
  changing(): SeenRequest[];
  /** Apply `action` to the requests `match` selects (the first rule that matches wins). */
  trap(t: Trap): void;
  /** Heal: every rule removed, every stalled connection closed, every delayed request forwarded now. */
  clearTraps(): void;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  if (upstream.protocol !== 'http:') throw new Error('the counting proxy fronts a plain http node');
  const requests: SeenRequest[] = [];
  let traps: (Trap & { used: number })[] = [];
  const stalled = new Set<Socket>();
  /** Requests held by a delay rule: heal forwards them at once. */
  const delayed = new Set<() => void>();
  const forward = (req: http.IncomingMessage, method: string, path: string, onAnswer: (up: http.IncomingMessage) => void) => {
    const out = http.request(
      { host: upstream.hostname, port: upstream.port, method, path, headers: { ...req.headers, host: upstream.host } },
      onAnswer,
    );
    out.on('error', () => req.socket.destroy());
    req.pipe(out);
  };
  const server = http.createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const t0 = performance.now();
    const seen: SeenRequest = { method, path, changing: isChanging(method, path), handled: 'forwarded', at: t0 };
    requests.push(seen);
    const trap = traps.find((t) => (t.times === undefined || t.used < t.times) && t.match(method, path));
    if (trap) trap.used++;
    const fault = trap?.action;
    const plain = (up: http.IncomingMessage) => {
      up.on('data', (c: Buffer) => (seen.bytes = (seen.bytes ?? 0) + c.length));
      up.on('end', () => (seen.ms = performance.now() - t0));
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    };
    if (!fault) return forward(req, method, path, plain);
    if (fault === 'reset' || 'status' in fault || 'stall' in fault) {
      // Read the whole request first: the node "received" it, then fails.
      req.resume();
      req.on('end', () => {
        if (fault === 'reset') {
          seen.handled = 'reset';
          req.socket.resetAndDestroy();
          return;
        }
        if ('stall' in fault) {
          seen.handled = 'stalled';
          stalled.add(req.socket);
          req.socket.on('close', () => stalled.delete(req.socket));
          if (fault.stall === 'headers') {
            res.writeHead(200, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
            res.flushHeaders();
          }
          return;
        }
        seen.handled = 'answered';
        const body = JSON.stringify(
          fault.body ?? { error: { type: 'test_unavailable', reason: 'the counting proxy answered' }, status: fault.status },
        );
        res.writeHead(fault.status, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch', ...fault.headers });
        res.end(body);
      });
      return;
    }
    if ('delayMs' in fault) {
      seen.handled = 'delayed';
      const go = () => {
        clearTimeout(timer);
        delayed.delete(go);
        forward(req, method, path, plain);
      };
      const timer = setTimeout(go, fault.delayMs);
      delayed.add(go);
      req.socket.on('close', () => {
        clearTimeout(timer);
        delayed.delete(go);
      });
      return;
    }
    // The rest alter the node's real answer.
    forward(req, method, path, (up) => {
      if ('withhold' in fault) {
        seen.handled = 'stalled';
        up.resume();
        stalled.add(req.socket);
        req.socket.on('close', () => stalled.delete(req.socket));
        return;
      }
      if ('invalidJson' in fault) {
        seen.handled = 'garbled';
        up.resume();
        res.writeHead(200, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
        res.end('<html>502 Bad Gateway</html>');
        return;
      }
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        seen.ms = performance.now() - t0;
        const body = Buffer.concat(chunks);
        if ('truncateBodyAt' in fault) {
          seen.handled = 'cut';
          const headers = { ...up.headers };
          delete headers['content-length'];
          delete headers['content-encoding'];
          res.writeHead(up.statusCode ?? 502, headers);
          res.end(body.subarray(0, fault.truncateBodyAt));
          return;
        }
        seen.handled = 'reset';
        // Raw bytes on the socket, so the cut can fall anywhere (in the headers too).
        const head = `HTTP/1.1 ${up.statusCode} ${up.statusMessage}\r\ncontent-type: application/json\r\nx-elastic-product: Elasticsearch\r\ncontent-length: ${body.length}\r\n\r\n`;
        const all = Buffer.concat([Buffer.from(head), body]);
        const socket = req.socket;
        if (fault.resetAfterBytes > 0) socket.write(all.subarray(0, fault.resetAfterBytes), () => socket.resetAndDestroy());
        else socket.resetAndDestroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    changing: () => requests.filter((r) => r.changing),
    trap: (t) => traps.push({ ...t, used: 0 }),
    clearTraps: () => {
      traps = [];
      for (const socket of stalled) socket.destroy();
      stalled.clear();
      for (const go of [...delayed]) go();
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
