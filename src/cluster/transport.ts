// shardeck's own HTTP transport to Elasticsearch: what it used of @elastic/elasticsearch's client
// (one node, no retry, JSON in and out, the 8.x compatible media type, the product check, errors
// as the client's error classes), over node:http/https. Why not the client: loading it cost every
// command ~1 MB of JavaScript before its first request, and its undici connection compiled an
// HTTP parser to WebAssembly whose optimising compile, still running on a background thread
// after the last output, held a one-shot command's exit back by 70-400 ms (Node waits for it).
// node:http's parser is native: nothing is left to wait for once the sockets are closed.
// The error classes come from the client's own transport package (a small file), so errors stay
// `errors.ResponseError` & co. for classifyError and the tests.
import http from 'node:http';
import https from 'node:https';
import { stringify } from 'node:querystring';
import type { Duplex } from 'node:stream';
import {
  ConnectionError,
  DeserializationError,
  ProductNotSupportedError,
  RequestAbortedError,
  ResponseError,
  TimeoutError,
} from '@elastic/transport/errors';
import { readCapped } from '../boundary/files';
import { AnswerMeter, answerCapBytes, hangUp, inflateCapped, RedirectRefusedError } from './answer-cap';

/** What Elasticsearch 8 is asked to speak (the client's "compatible-with=8" media type). */
export const ES_JSON = 'application/vnd.elasticsearch+json; compatible-with=8';

export interface TransportRequest {
  method: string;
  path: string;
  querystring?: Record<string, unknown>;
  /** An object is sent as JSON; a string as it is. */
  body?: unknown;
}

export interface TransportOptions {
  signal?: AbortSignal;
  meta?: boolean;
  /** The answer's body as a stream (the caller reads it within the cap). */
  asStream?: boolean;
  /** Statuses that are an answer, not an error (a health wait that ran out: 408). */
  ignore?: number[];
}

export interface TransportResult {
  body: any;
  statusCode: number | null;
  headers: Record<string, any>;
  warnings: string[] | null;
  meta: { request: { params: TransportRequest }; aborted: boolean; attempts: number };
}

/** One request on the wire: the status, headers and body (a string, a Buffer for binary types, or the stream when asked). */
export interface Sent {
  statusCode: number;
  headers: Record<string, any>;
  body: any;
}

export interface SendParams {
  method: string;
  /** Path and query, ready for the wire. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface SendOptions {
  signal?: AbortSignal;
  asStream?: boolean;
  timeoutMs: number;
}

/** Sends one request and answers its raw result: node:http here, the node's search_curl wrapper with --via. */
export interface Sender {
  send(params: SendParams, options: SendOptions): Promise<Sent>;
  close(): void;
}

const BINARY = /application\/(vnd\.elasticsearch\+)?(cbor|smile|mapbox-vector-tile|vnd\.apache\.arrow|arrow)/;

export function isBinaryType(type: string): boolean {
  return BINARY.test(type);
}

/** The query string of a request: undefined values dropped, arrays comma-joined (as Elasticsearch takes them). */
export function queryString(q: Record<string, unknown> | undefined): string {
  if (!q) return '';
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    flat[k] = Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : JSON.stringify(v);
  }
  return stringify(flat);
}

function warningsOf(headers: Record<string, any>): string[] | null {
  const w = headers.warning;
  if (w == null) return null;
  return (Array.isArray(w) ? w : String(w).split(/(?!\B"[^"]*),(?![^"]*"\B)/)).map((s: string) => s.trim());
}

/**
 * The transport: serialises, sends once (never retried: a change must never be resent), checks
 * that a success came from Elasticsearch, parses JSON, and throws the client's ResponseError for
 * an error status.
 */
export class EsTransportClient {
  constructor(
    private readonly sender: Sender,
    private readonly requestTimeoutMs: number,
  ) {}

  async request(params: TransportRequest, options: TransportOptions = {}): Promise<any> {
    const result: TransportResult = {
      body: undefined,
      statusCode: null,
      headers: {},
      warnings: null,
      meta: { request: { params }, aborted: false, attempts: 0 },
    };
    const headers: Record<string, string> = { accept: ES_JSON, 'x-opaque-id': OPAQUE_ID };
    let body: string | undefined;
    if (params.body !== undefined && params.body !== null) {
      if (typeof params.body === 'string') {
        body = params.body;
        if (body !== '') headers['content-type'] = 'text/plain';
      } else {
        try {
          body = JSON.stringify(params.body);
        } catch (e) {
          throw new ConnectionError(`the request body is not JSON: ${(e as Error).message}`);
        }
        headers['content-type'] = ES_JSON;
      }
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const qs = queryString(params.querystring);
    const path = params.path + (qs ? `?${qs}` : '');
    if (options.signal?.aborted) throw new RequestAbortedError('Request has been aborted by the user', result as never);
    let sent: Sent;
    try {
      sent = await this.sender.send(
        { method: params.method, path, headers, body },
        { signal: options.signal, asStream: options.asStream, timeoutMs: this.requestTimeoutMs },
      );
    } catch (e) {
      if (e instanceof RequestAbortedError) result.meta.aborted = true;
      throw e;
    }
    result.statusCode = sent.statusCode;
    result.headers = sent.headers;
    result.warnings = warningsOf(sent.headers);
    const ok = sent.statusCode >= 200 && sent.statusCode < 300;
    if (ok && sent.headers['x-elastic-product'] !== 'Elasticsearch') {
      if (options.asStream) hangUp(sent.body);
      throw new ProductNotSupportedError('Elasticsearch', result as never);
    }
    if (options.asStream) {
      result.body = sent.body;
      return options.meta ? result : sent.body;
    }
    const type = String(sent.headers['content-type'] ?? '');
    if (
      (type.includes('application/json') || type.includes('application/vnd.elasticsearch+json')) &&
      params.method !== 'HEAD' &&
      sent.body !== ''
    ) {
      try {
        result.body = JSON.parse(sent.body);
      } catch (e) {
        throw new DeserializationError((e as Error).message, sent.body);
      }
    } else {
      result.body = sent.body;
    }
    if (sent.statusCode >= 400 && !options.ignore?.includes(sent.statusCode)) throw new ResponseError(result as never);
    return options.meta ? result : result.body;
  }
}

/**
 * Every request says it is shardeck's (issue 47): the node shows it with the task (GET _tasks), in
 * its slow logs and deprecation log, so what shardeck does is never blamed on someone else.
 */
export const OPAQUE_ID = `shardeck/${process.env.SHARDECK_VERSION ?? 'dev'}`;

/** What createClient builds: the transport and how to end its connections. */
export interface EsClient {
  transport: EsTransportClient;
  close(): Promise<void>;
}

/** A timeout after the answer's head came: the node (or the link) stopped half way. */
export const BODY_STALLED = 'Body timed out: the head came, then nothing';

export function esClient(sender: Sender, requestTimeoutMs: number): EsClient {
  return {
    transport: new EsTransportClient(sender, requestTimeoutMs),
    close() {
      sender.close();
      return Promise.resolve();
    },
  };
}

export interface HttpSenderOptions {
  url: URL;
  /** Idle sockets kept for the next request (Node's default, 256, unless said). */
  maxIdleSockets?: number;
  /** Basic auth, sent on every request (never put in the URL). */
  auth?: { username: string; password: string };
  ca?: string;
  /**
   * The file ca was read from (--ca): read again when a certificate is not trusted, and the
   * connections renewed when it changed, so a console outlives a certificate rotation once the
   * operator puts the new CA there.
   */
  caFile?: string;
  rejectUnauthorized?: boolean;
}

/** The certificate errors a (new) CA can cure. */
export const TLS_TRUST_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_UNTRUSTED',
]);

/** A CA bundle larger than this is not read again (the first read at start is the command's own). */
export const CA_FILE_CAP = 1 << 20;

/**
 * How long one kept-alive socket is used. Elasticsearch reloads its certificate files by itself
 * (no restart), and a socket polled every second is never idle, so without an age it would go on
 * with the old certificate forever and a rotation to an untrusted CA would go unseen. Past it, the
 * next request connects again and checks the certificate then.
 */
export const SOCKET_MAX_AGE_MS = 30_000;

/** `agent` keeps a socket alive for the next request only while it is younger than SOCKET_MAX_AGE_MS. */
function withSocketMaxAge<A extends http.Agent>(agent: A): A {
  const born = new WeakMap<object, number>();
  const keep = agent.keepSocketAlive.bind(agent);
  // Called each time a request leaves its socket: false closes it (Node's documented hook).
  (agent as unknown as { keepSocketAlive: (s: Duplex) => boolean }).keepSocketAlive = (socket: Duplex) => {
    if (!born.has(socket)) born.set(socket, Date.now());
    if (Date.now() - born.get(socket)! > SOCKET_MAX_AGE_MS) return false;
    return (keep as unknown as (s: Duplex) => boolean)(socket);
  };
  return agent;
}

/**
 * node:http(s) with one keep-alive agent (the console's polls reuse their sockets; close() ends
 * them, so a one-shot command exits as soon as it has printed). Every answer within the size cap,
 * no redirect followed or read as an answer.
 */
export function httpSender({ url, auth, ca, caFile, rejectUnauthorized = true, maxIdleSockets }: HttpSenderOptions): Sender {
  const secure = url.protocol === 'https:';
  const idle = maxIdleSockets === undefined ? {} : { maxFreeSockets: maxIdleSockets };
  const newAgent = () => {
    // No TLS session kept for resuming: a resumed session skips the certificate check.
    const a = secure
      ? new https.Agent({ keepAlive: true, ca, rejectUnauthorized, scheduling: 'lifo', maxCachedSessions: 0, ...idle })
      : new http.Agent({ keepAlive: true, scheduling: 'lifo', ...idle });
    return withSocketMaxAge(a);
  };
  let agent = newAgent();
  /** The CA file read again after a certificate was not trusted: when it changed, new connections use it. */
  const renewCa = (): void => {
    try {
      if (!caFile) return;
      // Non-blocking and a regular file only: a FIFO put in its place never hangs a request (issue 40 N3).
      const r = readCapped(caFile, CA_FILE_CAP);
      if (r.truncated) return;
      const now = r.text;
      if (now === ca) return;
      ca = now;
      const old = agent;
      agent = newAgent();
      old.destroy();
    } catch {
      // unreadable now: the CA read at start stays
    }
  };
  const base = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const authorization = auth ? `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` : undefined;
  return {
    send(params, { signal, asStream, timeoutMs }) {
      const what = `${params.method} ${params.path.split('?')[0]}`;
      return new Promise<Sent>((resolve, reject) => {
        let settled = false;
        let answer: http.IncomingMessage | undefined;
        const finish = (f: () => void) => {
          if (settled) return;
          settled = true;
          f();
        };
        const req = (secure ? https : http).request({
          agent,
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || (secure ? 443 : 80),
          method: params.method,
          path: base + params.path,
          headers: authorization ? { ...params.headers, authorization } : params.headers,
        });
        // A timeout or an abort is that error, before the head or while a body streams to its reader.
        const stop = (e: Error) => {
          finish(() => reject(e));
          answer?.destroy(e);
          req.destroy(e);
        };
        const abort = () => stop(new RequestAbortedError('Request aborted'));
        signal?.addEventListener('abort', abort, { once: true });
        const done = () => signal?.removeEventListener('abort', abort);
        // Idle time on the socket, before the head or between two chunks of the body.
        req.setTimeout(timeoutMs, () => stop(new TimeoutError(answer ? BODY_STALLED : 'Request timed out')));
        const connectionError = (e: Error) => Object.assign(new ConnectionError(e.message), { cause: e });
        req.on('error', (e) => {
          done();
          const err = connectionError(e);
          // A certificate not trusted by the CA given: rotated, maybe. The file is read again for the next request.
          if (caFile && TLS_TRUST_CODES.has((e as NodeJS.ErrnoException).code ?? '')) {
            renewCa();
            Object.assign(err, { caFile });
          }
          finish(() => reject(err));
        });
        req.on('response', (res) => {
          answer = res;
          res.on('close', done);
          const statusCode = res.statusCode ?? 0;
          const headers = res.headers as Record<string, any>;
          if (statusCode >= 300 && statusCode < 400) {
            // Never followed (the credentials would go along), and never read as an empty answer either.
            hangUp(res);
            return finish(() => reject(new RedirectRefusedError(statusCode, String(headers.location ?? ''), what)));
          }
          // Streamed: the reader meters it.
          if (asStream) return finish(() => resolve({ statusCode, headers, body: res }));
          const cap = answerCapBytes();
          const meter = new AnswerMeter(cap, what);
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => {
            try {
              meter.add(chunk.length);
              chunks.push(chunk);
            } catch (e) {
              stop(e as Error);
            }
          });
          res.on('error', (e) => finish(() => reject(connectionError(e))));
          res.on('end', () =>
            finish(() => {
              try {
                let body: Buffer = Buffer.concat(chunks);
                const encoding = String(headers['content-encoding'] ?? '').toLowerCase();
                const out = { ...headers };
                if (encoding.includes('gzip') || encoding.includes('deflate')) {
                  body = inflateCapped(body, encoding, cap, what);
                  // Inflated here: the transport must not inflate it again.
                  delete out['content-encoding'];
                }
                resolve({ statusCode, headers: out, body: isBinaryType(String(out['content-type'] ?? '')) ? body : body.toString('utf8') });
              } catch (e) {
                reject(e instanceof Error ? e : new Error(String(e)));
              }
            }),
          );
        });
        req.end(params.body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
