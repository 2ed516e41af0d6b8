// The one place that builds the Elasticsearch client. Never retries by itself: a mutation must
// never be resent automatically, and the poller does its own backoff for reads.
import { forbiddenSentence, parseUnauthorized } from '../domain/privileges';
import { blockSentence, blocksOfReason, refusalKind } from '../domain/refusal';
import { isIP } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import * as errors from '@elastic/transport/errors';
import { urlForMessage } from '../domain/urls';
import { NotRegularFileError, readCapped } from '../boundary/files';
import type { SearchCurl } from '../domain/mutation/preview';
import { AnswerMeter, AnswerTooBigError, answerCapBytes, hangUp, inflateCapped, RedirectRefusedError } from './answer-cap';
import { searchCurlSender } from './search-curl';
import { BODY_STALLED, CA_FILE_CAP, esClient, httpSender, TLS_TRUST_CODES, type EsClient } from './transport';

export type { EsClient } from './transport';
import type { RowsParser } from '../domain/parse';

export interface ConnectionOptions {
  url: string;
  user?: string;
  password?: string;
  /** PEM file of the CA that signed the node's certificate. */
  caFile?: string;
  /** Turns TLS verification off. Shown as a warning wherever shardeck runs. */
  insecure?: boolean;
  requestTimeoutMs?: number;
  /** Idle connections kept for the next request (a fleet of hundreds keeps one per cluster). */
  maxIdleSockets?: number;
  /** Send every request through the node's search_curl wrapper (it brings the credentials). */
  via?: SearchCurl;
}

export type ConnErrorKind =
  | 'unreachable'
  | 'timeout'
  | 'unauthorized'
  | 'forbidden'
  /** 403 cluster_block_exception: a cluster or index block refused it (domain/refusal.ts), not a privilege. */
  | 'blocked'
  | 'tls'
  | 'tls-name'
  | 'tls-mismatch'
  | 'not-elasticsearch'
  | 'not-found'
  | 'bad-request'
  /** 429: the node refused for now (a full queue, a circuit breaker); a read is retried per Retry-After (domain/retry.ts), a change never. */
  | 'busy'
  | 'server'
  | 'aborted'
  /** The answer passed shardeck's size cap (SHARDECK_MAX_ANSWER_MB). */
  | 'too-big'
  /** The node's version lacks it (domain/capabilities.ts): never retried. */
  | 'unsupported'
  | 'unknown';

/** A failure explained in one sentence with the likely fix. Never carries a secret. */
export class ConnError extends Error {
  constructor(
    readonly kind: ConnErrorKind,
    message: string,
    readonly status?: number,
    readonly esType?: string,
    readonly esReason?: string,
    /** The Retry-After the node (or a proxy) sent with its refusal (429). */
    readonly retryAfter?: string,
  ) {
    super(message);
    this.name = 'ConnError';
  }
}

/** The kinds that mean "cannot talk to the node at all" (exit 3, like status's unreachable). */
export function isConnectionFailure(e: unknown): e is ConnError {
  return (
    e instanceof ConnError &&
    ['unreachable', 'timeout', 'unauthorized', 'tls', 'tls-name', 'tls-mismatch', 'not-elasticsearch'].includes(e.kind)
  );
}

/**
 * The names a certificate was issued for, from Node's host-name check ("... is not in the cert's
 * list: 127.0.0.1" / "... altnames: DNS:localhost, IP Address:127.0.0.1") or the certificate itself.
 */
function certificateNames(e: unknown, text: string): string[] {
  let cur: any = e;
  for (let i = 0; cur && i < 5; i++) {
    const san: unknown = cur.cert?.subjectaltname;
    if (typeof san === 'string' && san) return san.split(/,\s*/).map((n) => n.replace(/^(DNS|IP Address):/, ''));
    cur = cur.cause;
  }
  const listed = /is not in the cert's (?:list|altnames): ([^/]+?)(?:\s+\/|$)/.exec(text)?.[1];
  if (listed)
    return listed
      .split(/,\s*/)
      .map((n) => n.trim().replace(/^(DNS|IP Address):/, ''))
      .filter(Boolean);
  return [];
}

/** SHARDECK_REQUEST_TIMEOUT_MS: how long a request may go unanswered (tests of a node that never answers). */
function requestTimeoutFromEnv(): number | undefined {
  const ms = Number(process.env.SHARDECK_REQUEST_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

export function createClient(opts: ConnectionOptions): EsClient {
  let ca: string | undefined;
  if (opts.caFile) {
    try {
      // Non-blocking, a regular file only, capped: a FIFO or a device given as the CA never hangs the start (issue 40 N3).
      const r = readCapped(opts.caFile, CA_FILE_CAP);
      if (r.truncated) throw Object.assign(new Error('too large'), { code: `over ${CA_FILE_CAP} bytes` });
      ca = r.text;
    } catch (e) {
      const why = e instanceof NotRegularFileError ? `it is ${e.what}` : ((e as NodeJS.ErrnoException).code ?? 'error');
      throw new ConnError('tls', `cannot read the CA file ${opts.caFile} (${why}): check the path given to --ca`);
    }
  }
  let node: URL;
  try {
    node = new URL(opts.url);
  } catch {
    throw new ConnError('bad-request', `"${urlForMessage(opts.url)}" is not a URL: give --url like https://127.0.0.1:9200`);
  }
  const auth = opts.user !== undefined ? { username: opts.user, password: opts.password ?? '' } : undefined;
  const timeoutMs = opts.requestTimeoutMs ?? requestTimeoutFromEnv() ?? 15_000;
  // Every answer is read within the size cap (cluster/answer-cap.ts), through search_curl too; never retried.
  const sender = opts.via
    ? searchCurlSender(opts.via, node.toString())
    : httpSender({ url: node, auth, ca, caFile: opts.caFile, rejectUnauthorized: !opts.insecure, maxIdleSockets: opts.maxIdleSockets });
  return esClient(sender, timeoutMs);
}

/**
 * Closes a client without hanging the command: after a failed TLS handshake (seen with a host-name
 * mismatch) the client's close() may never settle, and once nothing else is pending Node exits
 * with code 0, hiding the failure. The timer keeps the process alive until close() ends or gives up.
 */
export async function closeClient(client: EsClient, waitMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([client.close().catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
  clearTimeout(timer);
}

/** The --ca file the transport read again after this error (transport.ts), when one was given. */
function caFileOf(e: unknown): string | undefined {
  let cur: any = e;
  for (let i = 0; cur && i < 5; i++) {
    if (typeof cur.caFile === 'string') return cur.caFile;
    cur = cur.cause;
  }
  return undefined;
}

function causeCode(e: unknown): string | undefined {
  let cur: any = e;
  for (let i = 0; cur && i < 5; i++) {
    if (typeof cur.code === 'string' && cur.code !== 'UND_ERR_SOCKET') return cur.code;
    cur = cur.cause;
  }
  return undefined;
}

/** The codes and messages of an error and its causes, for matching what went wrong. */
export function errorText(e: unknown): string {
  let cur: any = e;
  const parts: string[] = [];
  for (let i = 0; cur && i < 5; i++) {
    const part = [cur.code, cur.message].filter((x) => typeof x === 'string' && x).join(' ');
    if (part) parts.push(part);
    cur = cur.cause;
  }
  return parts.join(' / ');
}

/** Maps anything the client throws to one clear sentence. `url` is shown without credentials. */
export function classifyError(e: unknown, url: string): ConnError {
  if (e instanceof ConnError) return e;
  if (e instanceof AnswerTooBigError) return new ConnError('too-big', e.message);
  const where = urlForMessage(url);
  if (e instanceof RedirectRefusedError) return new ConnError('not-elasticsearch', `${where} ${e.message}`, e.status);
  if (e instanceof errors.RequestAbortedError || (e as Error)?.name === 'AbortError') {
    return new ConnError('aborted', 'request cancelled');
  }
  if (e instanceof errors.DeserializationError) {
    // Never the parser's words ("Unexpected token <"): they quote someone else's bytes and say nothing.
    return new ConnError(
      'server',
      // Short: with the URL and the poller's "(retrying every ...)" it must fit a pane's two error lines.
      `${where} sent an answer that is not JSON (cut short, or a proxy's page): check what answers on that port`,
    );
  }
  // Headers, then a body that stops coming (a stalled node or link): said as such (transport.ts).
  if (e instanceof errors.TimeoutError && e.message === BODY_STALLED) {
    return new ConnError(
      'timeout',
      `${where} stopped answering half way (headers, then nothing): the node may be overloaded or stuck in GC; check its log`,
    );
  }
  if (e instanceof errors.TimeoutError) {
    return new ConnError('timeout', `${where} did not answer in time: the node may be overloaded or stuck in GC; check its log`);
  }
  if (e instanceof errors.ProductNotSupportedError) {
    return new ConnError(
      'not-elasticsearch',
      `${where} answered, but it is not Elasticsearch: check --url (port 9200 is Elasticsearch's default)`,
    );
  }
  if (e instanceof errors.ResponseError) {
    const status = e.statusCode ?? 0;
    const body: any = e.body;
    const esType: string | undefined = body?.error?.type ?? body?.error?.root_cause?.[0]?.type;
    const esReason: string | undefined = typeof body?.error === 'string' ? body.error : body?.error?.reason;
    if (status === 401)
      return new ConnError(
        'unauthorized',
        `${where} refused the credentials (401): check --user and the password (--password-env / --password-file)`,
        status,
        esType,
      );
    // Elasticsearch marks every answer past authentication; a 4xx/5xx without the mark is another server.
    const headers = (e.meta?.headers ?? {}) as Record<string, string>;
    if (status !== 403 && !headers['x-elastic-product'])
      return new ConnError(
        'not-elasticsearch',
        `${where} answered ${status}, but it is not Elasticsearch: check --url (Elasticsearch listens on 9200 by default)`,
        status,
      );
    // A block is not a missing privilege (issue 41): which block, and the request that lifts it.
    if (refusalKind(status, esType) === 'block')
      return new ConnError('blocked', blockSentence(blocksOfReason(esReason ?? '')), status, esType, esReason);
    if (status === 403) {
      // Which privilege is missing, in one sentence (domain/privileges.ts), not the raw 403 text.
      const u = parseUnauthorized(esReason);
      return new ConnError(
        'forbidden',
        u ? forbiddenSentence(u) : `the user is not allowed to do this on ${where} (403): ${esReason ?? 'missing privilege'}`,
        status,
        esType,
        esReason,
      );
    }
    if (status === 404) return new ConnError('not-found', esReason ?? `not found (404)`, status, esType, esReason);
    if (status === 429)
      return new ConnError(
        'busy',
        `${where} is too busy to answer (429${
          headers['retry-after']
            ? `, Retry-After: ${String(headers['retry-after'])
                .replace(/[^\x20-\x7e]/g, '?')
                .slice(0, 40)}`
            : ''
        }): ${esReason ?? 'too many requests'}`,
        status,
        esType,
        esReason,
        headers['retry-after'],
      );
    if (status >= 400 && status < 500)
      return new ConnError('bad-request', esReason ?? `request rejected (${status})`, status, esType, esReason);
    // A server that does not speak Elasticsearch's error format is likely something else.
    return new ConnError('server', `${where} failed (${status}): ${esReason ?? 'server error'}`, status, esType, esReason);
  }
  const code = causeCode(e);
  const text = errorText(e);
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || /Hostname\/IP does not match/i.test(text)) {
    // The certificate is trusted, but issued for another name: --ca would change nothing.
    const names = certificateNames(e, text);
    const host = (() => {
      try {
        return new URL(url).hostname;
      } catch {
        return 'this host';
      }
    })();
    // The example is a name of the host's kind (an IP for an IP) when the certificate has one.
    const example = names.find((n) => !n.includes('*') && isIP(n) === isIP(host)) ?? names.find((n) => !n.includes('*')) ?? names[0];
    return new ConnError(
      'tls-name',
      `the certificate of ${where} is valid but was issued for ${names.length ? names.join(', ') : 'another name'}, not ${host}: connect with ${names.length ? 'one of those names' : 'the name or IP the certificate was issued for'} in --url (e.g. ${names.length ? where.replace(host, example) : where}), or have the certificate reissued to include ${host}`,
    );
  }
  if ((code && TLS_TRUST_CODES.has(code)) || /unable to verify|self[- ]signed certificate|certificate has expired/i.test(text)) {
    const caFile = caFileOf(e);
    // It worked with this CA, or never did: either way the cure is the CA that signed the node's
    // certificate now, in that file (read again at the next request). Short: the pane shows two lines.
    if (caFile && code !== 'CERT_HAS_EXPIRED')
      return new ConnError('tls', `certificate of ${where} not signed by the --ca file's CA: if rotated, put the new CA in ${caFile}`);
    return new ConnError(
      'tls',
      `the certificate of ${where} is not trusted (${code ?? text.split(' / ').pop()}): give the CA that signed it with --ca FILE (or, knowingly, --insecure)`,
    );
  }
  if (
    /wrong version number|EPROTO|packet length too long|ssl3_get_record/i.test(text) ||
    code === 'EPROTO' ||
    code === 'ERR_SSL_WRONG_VERSION_NUMBER'
  ) {
    return new ConnError('tls-mismatch', `TLS handshake with ${where} failed: the node probably speaks plain http (use http:// in --url)`);
  }
  if (/other side closed|socket hang up|ECONNRESET|HPE_INVALID|Invalid response status/i.test(text) && where.startsWith('http://')) {
    return new ConnError('tls-mismatch', `${where} closed the connection: a node on 3.7.4+ speaks HTTPS (use https:// in --url)`);
  }
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(text))
    return new ConnError('unreachable', `nothing listens at ${where} (connection refused): is Elasticsearch running? check --url`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || /ENOTFOUND|EAI_AGAIN/.test(text))
    return new ConnError('unreachable', `the host of ${where} is unknown (DNS): check --url`);
  const netCode = /EHOSTUNREACH|ENETUNREACH|ETIMEDOUT/.exec(`${code ?? ''} ${text}`)?.[0];
  if (netCode) return new ConnError('unreachable', `${where} cannot be reached (${netCode}): check the network and --url`);
  if (e instanceof errors.ConnectionError)
    return new ConnError('unreachable', `cannot talk to ${where}: ${text.replace(/(https?:\/\/)[^@\s/]*@/g, '$1')}`);
  return new ConnError('unknown', `unexpected error talking to ${where}: ${text.replace(/(https?:\/\/)[^@\s/]*@/g, '$1')}`);
}

/** One read request: the paths of src/cluster/ only. */
export interface ReadRequest {
  method: 'GET';
  path: string;
  querystring: Record<string, string>;
}

/** The client and the URL it talks to (the URL only for messages): what every request of cluster/ needs. */
export interface EsTransport {
  client: EsClient;
  url: string;
}

export interface ReadResult<T> {
  body: T;
  bytes: number;
}

/**
 * Sends one read request. Resolves with the parsed body and the size of the payload received
 * (for the benchmark); rejects with a ConnError.
 */
export async function read<T = unknown>({ client, url }: EsTransport, req: ReadRequest, signal?: AbortSignal): Promise<ReadResult<T>> {
  try {
    const res = await client.transport.request(
      { method: req.method, path: req.path, querystring: req.querystring },
      { signal, meta: true, asStream: false },
    );
    const len = Number(res.headers?.['content-length'] ?? 0) || JSON.stringify(res.body ?? '').length;
    return { body: res.body as T, bytes: len };
  } catch (e) {
    throw classifyError(e, url);
  }
}

/**
 * Sends one read of a big `_cat` table (an array of flat rows) and hands its rows to `parser` as
 * they arrive, a slice of the answer at a time: at 100,000 indices the answer is ~20 MB of JSON.
 * Parsed whole it made 100,000 raw objects that outlived several young-generation collections
 * (the heap grew to several times what the console keeps); kept until its last byte, its chunks
 * were 20 MB held at the peak of every poll. Streamed, only the chunk in hand and one slice of raw
 * rows are alive. Errors are those of read().
 */
export async function readRows<T>(
  { client, url }: EsTransport,
  req: ReadRequest,
  parser: RowsParser<T>,
  signal?: AbortSignal,
): Promise<ReadResult<T>> {
  try {
    const res = await client.transport.request(
      { method: req.method, path: req.path, querystring: req.querystring },
      { signal, meta: true, asStream: true },
    );
    const encoding = String(res.headers?.['content-encoding'] ?? '').toLowerCase();
    // A plain answer is parsed as it streams; a compressed one (a proxy may do it) or a refusal whole.
    const whole = encoding.includes('gzip') || encoding.includes('deflate') || (res.statusCode !== null && res.statusCode >= 400);
    const decoder = new JsonRowsDecoder();
    const chunks: Buffer[] = [];
    let received = 0;
    const cap = answerCapBytes();
    const what = `${req.method} ${req.path}`;
    const meter = new AnswerMeter(cap, what);
    const stream = res.body as AsyncIterable<Buffer> & { destroy(): void; on?: (ev: string, f: () => void) => void };
    try {
      for await (const chunk of stream) {
        received += chunk.length;
        meter.add(chunk.length);
        if (whole) chunks.push(chunk);
        else for (const r of decoder.push(chunk)) parser.add(r);
      }
    } catch (e) {
      hangUp(stream); // a table that never ends is not read on
      throw e;
    }
    const bytes = Number(res.headers?.['content-length'] ?? 0) || received;
    if (!whole) {
      for (const r of decoder.end()) parser.add(r);
      return { body: parser.done(), bytes };
    }
    let body: Buffer = Buffer.concat(chunks);
    if (encoding.includes('gzip') || encoding.includes('deflate')) body = inflateCapped(body, encoding, cap, what);
    if (res.statusCode !== null && res.statusCode >= 400) {
      // As the client would have thrown it (asStream leaves the status to the caller).
      const text = body.toString('utf8');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: a proxy's page; classifyError names it
      }
      throw new errors.ResponseError({ ...res, body: parsed, warnings: res.warnings ?? null });
    }
    return { body: rowsFrom(parser, body), bytes };
  } catch (e) {
    // The rows' decoder met an answer that is not JSON (cut short, a proxy's page): said as the client's own parse failure is.
    throw classifyError(e instanceof SyntaxError ? new errors.DeserializationError(e.message, '') : e, url);
  }
}

/** Characters of JSON decoded at once: big enough that JSON.parse dominates, small enough to die young. */
const SLICE_CHARS = 256 * 1024;

/**
 * Decodes a JSON array of objects pushed in chunks (cut anywhere, a UTF-8 character included),
 * giving its rows a slice at a time. A slice ends at a `},{` between two rows; one found inside a
 * string value leaves that slice an unterminated string, which fails to parse, and then the rest
 * of the answer is parsed in one piece at the end (slower, never wrong). Not an array: `end`
 * throws the parser's own error.
 */
export class JsonRowsDecoder {
  /** `sliceChars`: smaller only in tests, so that a small recorded answer is cut into slices too. */
  constructor(private readonly sliceChars = SLICE_CHARS) {}
  private readonly utf8 = new StringDecoder('utf8');
  private pending = '';
  private opened = false;
  /** Slicing stopped (a separator inside a string, or not an array): everything waits for end(). */
  private whole = false;

  push(chunk: Buffer): Record<string, unknown>[] {
    this.pending += this.utf8.write(chunk);
    if (this.whole) return [];
    if (!this.opened) {
      const open = this.pending.search(/\S/);
      if (open < 0) return [];
      if (this.pending[open] !== '[') {
        this.whole = true;
        return [];
      }
      this.pending = this.pending.slice(open + 1);
      this.opened = true;
    }
    if (this.pending.length < this.sliceChars) return [];
    const sep = this.pending.lastIndexOf('},{');
    if (sep < 0) return [];
    let rows: Record<string, unknown>[];
    try {
      rows = JSON.parse(`[${this.pending.slice(0, sep + 1)}]`);
    } catch {
      this.whole = true; // a separator inside a string: the rest in one piece
      return [];
    }
    this.pending = this.pending.slice(sep + 2); // past the ',' between the rows
    return rows;
  }

  end(): Record<string, unknown>[] {
    const text = this.pending + this.utf8.end();
    this.pending = '';
    const rows: unknown = JSON.parse(this.opened ? `[${text}` : text);
    if (!Array.isArray(rows)) throw new SyntaxError('the answer is not a JSON array of rows');
    return rows as Record<string, unknown>[];
  }
}

/**
 * The rows of a JSON array of objects, decoded a slice at a time (JsonRowsDecoder). `body`: the
 * whole answer, or the chunks it arrived in (taken over: each is dropped once decoded).
 */
export function* jsonRows(body: Buffer | Buffer[], sliceChars = SLICE_CHARS): Generator<Record<string, unknown>> {
  const chunks: (Buffer | undefined)[] = Array.isArray(body) ? body : [body];
  const decoder = new JsonRowsDecoder(sliceChars);
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    chunks[i] = undefined;
    yield* decoder.push(chunk);
  }
  yield* decoder.end();
}

/** A big table's rows (an answer whole, or the chunks it arrived in) through its row parser, as readRows hands them. */
export function rowsFrom<T>(parser: RowsParser<T>, body: Buffer | Buffer[], sliceChars = SLICE_CHARS): T {
  for (const r of jsonRows(body, sliceChars)) parser.add(r);
  return parser.done();
}

export async function getJson<T = any>(
  es: EsTransport,
  path: string,
  querystring: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<T> {
  return (await read<T>(es, { method: 'GET', path, querystring }, signal)).body;
}

/**
 * A read that carries a query body (_count, _search, allocation explain): POST, because a GET body
 * is dropped by some proxies. It changes nothing, so it does not go through the guard.
 */
export async function postJson<T = any>(
  { client, url }: EsTransport,
  path: string,
  body: unknown,
  querystring: Record<string, string> = {},
): Promise<T> {
  try {
    const res = await client.transport.request({ method: 'POST', path, querystring, body: body }, { meta: true });
    return res.body as T;
  } catch (e) {
    throw classifyError(e, url);
  }
}
