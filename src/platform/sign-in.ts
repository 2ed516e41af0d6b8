// Signing in to the platform (seed: "Authentication", "Create access token", "Errors"; OPERATIONS.md
// "Platform API"). A long-lived refresh token is exchanged for a short-lived access token, which
// lives in memory only and is sent as a bearer token.
//
// - Refresh shortly before expiry, computed from the local (monotonic) time the record arrived:
//   the record carries no expiry, so the lifetime is the documented 10 minutes unless told otherwise.
// - On a 401, refresh once and retry the request once.
// - However many requests wait, one exchange is in flight (a shared promise).
// - A refresh token the server rotates is stored (atomically, by the caller's store) before it is used.
// - 404/410 from the token operation are final: no request goes out until a new token appears
//   (shardeck login, possibly in another terminal), so a revoked token causes no retry storm.
// - Network errors on reads are retried with backoff; the state says so meanwhile.
// Tokens live in #private fields, so even util.inspect of a PlatformSignIn cannot print them.
// ("Session" in this code base means one wizard run; the platform's own session record, with its
// session_id, is SignInInfo here.)

import { urlForMessage, urlHasCredentials } from '../domain/urls';

export const TOKEN_PATH = '/api/user/oauth2/token';
/** Seed, "Limits": access token lifetime, 10 minutes by default. */
export const DEFAULT_ACCESS_TOKEN_LIFETIME_MS = 10 * 60_000;

export type PlatformErrorKind =
  | 'invalid-token' // 404 from the token operation
  | 'expired-token' // 410 from the token operation
  | 'unauthorized' // 401 even with a fresh access token
  | 'forbidden'
  | 'unreachable'
  | 'timeout'
  | 'bad-response'
  | 'storage' // the rotated refresh token could not be stored
  | 'http';

/** One sentence with the fix; never carries a token or a response body. */
export class PlatformError extends Error {
  constructor(
    readonly kind: PlatformErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PlatformError';
  }

  /** Only a person can fix it (shardeck login with a new token): retrying cannot help. */
  get final(): boolean {
    return this.kind === 'invalid-token' || this.kind === 'expired-token';
  }
}

/** The platform's session record (its word) without its tokens: what whoami and the header may show. */
export interface SignInInfo {
  user_id: string;
  session_id: string;
  role: string;
  role_permissions: string[];
  project_permissions: string[];
  tenant: string;
}

export type SignInState = 'signed-out' | 'signing-in' | 'signed-in' | 'refreshing' | 'error';

export interface SignInStatus {
  state: SignInState;
  message?: string;
}

/** Where the refresh token is kept between runs (config/secrets.ts in the product). */
export interface RefreshTokenStore {
  /** The stored token now (another shardeck may have rotated it, or a new login replaced it). */
  load?(): string | undefined;
  /** Must be atomic and durable before it returns. */
  save(token: string): void;
  /** Runs an exchange (load, send, save) so that no other process exchanges at the same time. */
  exclusive?<T>(fn: () => Promise<T>): Promise<T>;
}

export interface PlatformSignInOptions {
  baseUrl: string;
  refreshToken: string;
  tokens: RefreshTokenStore;
  /** Whether `refreshToken` is already in the store (false at login: store it after the first exchange). */
  stored: boolean;
  lifetimeMs?: number;
  /** How long before expiry to refresh; default a tenth of the lifetime, at most a minute. */
  refreshMarginMs?: number;
  requestTimeoutMs?: number;
  /** Extra attempts of a read after a network error, with doubling delays from retryDelayMs. */
  readRetries?: number;
  retryDelayMs?: number;
  /** How the operator signs in again, for messages ("shardeck login --profile x"). */
  loginCommand?: string;
  /** Plain http to another machine was accepted (login/profiles save --insecure-http); else refused. */
  insecureHttp?: boolean;
}

function describeNetworkError(e: unknown): string {
  let cur: any = e;
  for (let i = 0; cur && i < 5; i++) {
    if (typeof cur.code === 'string') return cur.code;
    cur = cur.cause;
  }
  return (e as Error)?.message ?? 'network error';
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function stringList(v: unknown): string[] | null {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null;
}

/** 127.0.0.0/8, ::1 and localhost: plain http there never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * What is wrong with a platform URL, or null: credentials in it (never echoed), not http(s), or
 * plain http to another machine without insecureHttp (the refresh token would cross the network
 * in clear text; loopback http stays allowed, the reference platform server runs there).
 */
export function platformUrlProblem(url: string, opts: { insecureHttp?: boolean } = {}): string | null {
  if (urlHasCredentials(url))
    return 'the platform URL holds credentials (a user or password before "@"): remove them; the refresh token is read from a prompt or stdin, never from a URL';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `the platform URL "${urlForMessage(url)}" is not a URL: give the platform address like https://platform.example.com`;
  }
  if (!/^https?:$/.test(u.protocol) || !u.hostname)
    return `the platform URL must start with http:// or https:// and name a host (got "${urlForMessage(url)}")`;
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname) && !opts.insecureHttp)
    return `the platform URL ${urlForMessage(url)} is plain http to another machine, so the refresh token would cross the network unencrypted: use https://, or add --insecure-http if you accept that`;
  return null;
}

export class PlatformSignIn {
  readonly baseUrl: string;
  #refreshToken: string;
  /** The refresh token known to be in the store. */
  #stored: string | undefined;
  #access: { token: string; refreshAt: number; expiresAt: number } | undefined;
  #inFlight: Promise<string> | undefined;
  #final: PlatformError | undefined;
  #info: SignInInfo | undefined;
  #status: SignInStatus = { state: 'signed-out' };
  readonly #listeners = new Set<(s: SignInStatus) => void>();
  readonly #opts: Required<
    Omit<PlatformSignInOptions, 'baseUrl' | 'refreshToken' | 'tokens' | 'stored' | 'refreshMarginMs' | 'insecureHttp'>
  > & {
    refreshMarginMs: number;
    tokens: RefreshTokenStore;
  };
  /** Exchanges this sign-in made (tests and the benchmark read it). */
  exchanges = 0;

  constructor(opts: PlatformSignInOptions) {
    // Checked where the URL is used, not only where it was set: a config edited by hand is refused too.
    const bad = platformUrlProblem(opts.baseUrl, { insecureHttp: opts.insecureHttp });
    if (bad) throw new PlatformError('http', bad);
    const base = new URL(opts.baseUrl);
    this.baseUrl = base.toString().replace(/\/+$/, '');
    this.#refreshToken = opts.refreshToken;
    this.#stored = opts.stored ? opts.refreshToken : undefined;
    const lifetimeMs = opts.lifetimeMs ?? DEFAULT_ACCESS_TOKEN_LIFETIME_MS;
    this.#opts = {
      tokens: opts.tokens,
      lifetimeMs,
      refreshMarginMs: opts.refreshMarginMs ?? Math.min(60_000, lifetimeMs / 10),
      requestTimeoutMs: opts.requestTimeoutMs ?? 15_000,
      readRetries: opts.readRetries ?? 3,
      retryDelayMs: opts.retryDelayMs ?? 500,
      loginCommand: opts.loginCommand ?? 'shardeck login',
    };
  }

  get status(): SignInStatus {
    return this.#status;
  }

  /** Who is signed in (after the first exchange). */
  get info(): SignInInfo | undefined {
    return this.#info;
  }

  onStatus(listener: (s: SignInStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #setStatus(state: SignInState, message?: string): void {
    if (this.#status.state === state && this.#status.message === message) return;
    this.#status = message === undefined ? { state } : { state, message };
    for (const l of this.#listeners) l(this.#status);
  }

  /** Exchanges the refresh token now (sign-in, and the proof that a token works at login). */
  async signIn(): Promise<SignInInfo> {
    await this.#refresh(undefined, true);
    return this.#info!;
  }

  /** GET a JSON resource of the API, e.g. `/api/topic/v0/acme/projects`. */
  async getJson(path: string): Promise<unknown> {
    const token = await this.#accessToken();
    let res = await this.#sendRead(path, token);
    if (res.status === 401) {
      // Expired earlier than we computed, or ended by the platform: one refresh, one retry.
      const fresh = await this.#refresh(token);
      res = await this.#sendRead(path, fresh);
      if (res.status === 401) {
        throw new PlatformError(
          'unauthorized',
          `the platform refused a fresh access token for ${path} (401): check the platform URL, then run ${this.#opts.loginCommand}`,
          401,
        );
      }
    }
    if (res.status === 403)
      throw new PlatformError(
        'forbidden',
        `the platform user may not read ${path} (403): ask for the permission or use another profile`,
        403,
      );
    if (!res.ok) throw new PlatformError('http', `the platform answered ${res.status} to GET ${path}`, res.status);
    try {
      return await res.json();
    } catch {
      throw new PlatformError('bad-response', `the platform's answer to GET ${path} is not JSON`);
    }
  }

  /** A usable access token: the current one, or a refresh when it is due. */
  async #accessToken(): Promise<string> {
    this.#checkFinal();
    const a = this.#access;
    const now = performance.now();
    if (a && now < a.refreshAt) return a.token;
    try {
      return await this.#refresh(a?.token);
    } catch (e) {
      // A refresh ahead of time that could not reach the platform: the old token still works a while.
      if (a && !(e as PlatformError).final && performance.now() < a.expiresAt) return a.token;
      throw e;
    }
  }

  /** After a final error, only a new token in the store (a new login) lets requests go out again. */
  #checkFinal(): void {
    if (!this.#final) return;
    const onDisk = this.#opts.tokens.load?.();
    if (onDisk && onDisk !== this.#refreshToken) {
      this.#refreshToken = onDisk;
      this.#stored = onDisk;
      this.#final = undefined;
      return;
    }
    throw this.#final;
  }

  /**
   * Single flight: callers that saw `staleToken` fail share one exchange; a caller whose stale
   * token was already replaced gets the new one without another exchange.
   */
  #refresh(staleToken: string | undefined, force = false): Promise<string> {
    if (this.#inFlight) return this.#inFlight;
    this.#checkFinal();
    const a = this.#access;
    if (!force && a && a.token !== staleToken && performance.now() < a.refreshAt) return Promise.resolve(a.token);
    this.#inFlight = this.#exchange().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  #exchange(): Promise<string> {
    const tokens = this.#opts.tokens;
    return tokens.exclusive ? tokens.exclusive(() => this.#exchangeNow()) : this.#exchangeNow();
  }

  async #exchangeNow(): Promise<string> {
    // Another shardeck with this profile may have rotated the token since we read it.
    const onDisk = this.#opts.tokens.load?.();
    if (onDisk && onDisk !== this.#stored) {
      this.#refreshToken = onDisk;
      this.#stored = onDisk;
    }
    this.#setStatus(this.#info ? 'refreshing' : 'signing-in');
    this.exchanges++;
    let res: Response;
    try {
      res = await fetch(this.baseUrl + TOKEN_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: this.#refreshToken }).toString(),
        signal: AbortSignal.timeout(this.#opts.requestTimeoutMs),
        // A redirect would resend the token (307/308 keep the body) to wherever it points.
        redirect: 'manual',
      });
    } catch (e) {
      throw this.#fail(this.#networkError(e));
    }
    await this.#refuseRedirect(res, `POST ${TOKEN_PATH}`);
    if (res.status === 404 || res.status === 410) {
      await res.body?.cancel();
      this.#access = undefined;
      const why =
        res.status === 404
          ? 'the refresh token is invalid'
          : 'the refresh token has expired: the platform expired or revoked it, e.g. for a security reason';
      this.#final = new PlatformError(
        res.status === 404 ? 'invalid-token' : 'expired-token',
        `${why}: generate a new one under API Access in the platform settings, then run ${this.#opts.loginCommand}`,
        res.status,
      );
      throw this.#fail(this.#final);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw this.#fail(
        new PlatformError(
          'http',
          `the platform's token operation answered ${res.status}: check the platform URL (${this.baseUrl})`,
          res.status,
        ),
      );
    }
    let rec: Record<string, unknown>;
    try {
      rec = (await res.json()) as Record<string, unknown>;
    } catch {
      throw this.#fail(
        new PlatformError('bad-response', `the platform's token operation did not answer JSON: check the platform URL (${this.baseUrl})`),
      );
    }
    const receivedAt = performance.now();
    const info = this.#readRecord(rec);
    const accessToken = rec.access_token as string;
    const next = typeof rec.refresh_token === 'string' && rec.refresh_token !== '' ? rec.refresh_token : this.#refreshToken;
    // Keep the newest token in memory whatever happens: the server may have retired the old one.
    this.#refreshToken = next;
    if (next !== this.#stored) {
      try {
        this.#opts.tokens.save(next);
      } catch (e) {
        throw this.#fail(new PlatformError('storage', `cannot store the refresh token the platform issued: ${(e as Error).message}`));
      }
      this.#stored = next;
    }
    const lifetime = this.#opts.lifetimeMs;
    this.#access = { token: accessToken, expiresAt: receivedAt + lifetime, refreshAt: receivedAt + lifetime - this.#opts.refreshMarginMs };
    this.#info = info;
    this.#setStatus('signed-in');
    return accessToken;
  }

  #readRecord(rec: Record<string, unknown>): SignInInfo {
    const str = (k: string) => (typeof rec[k] === 'string' ? rec[k] : null);
    const fields = {
      user_id: str('user_id'),
      session_id: str('session_id'),
      role: str('role'),
      tenant: str('tenant'),
      role_permissions: stringList(rec.role_permissions),
      project_permissions: stringList(rec.project_permissions),
      access_token: str('access_token'),
    };
    const missing = Object.entries(fields)
      .filter(([, v]) => v === null || v === '')
      .map(([k]) => k);
    if (missing.length) {
      throw this.#fail(
        new PlatformError(
          'bad-response',
          `the platform's session record lacks ${missing.join(', ')}: check the platform URL (${this.baseUrl})`,
        ),
      );
    }
    const { access_token: _drop, ...info } = fields;
    return info as SignInInfo;
  }

  async #sendRead(path: string, token: string): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(this.baseUrl + path, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          signal: AbortSignal.timeout(this.#opts.requestTimeoutMs),
          redirect: 'manual',
        });
        await this.#refuseRedirect(res, `GET ${path}`);
        if (this.#status.state === 'error') this.#setStatus('signed-in');
        return res;
      } catch (e) {
        const err = this.#networkError(e);
        if (attempt >= this.#opts.readRetries) throw this.#fail(err);
        const delay = this.#opts.retryDelayMs * 2 ** attempt;
        this.#setStatus('error', `${err.message}; retrying in ${Math.ceil(delay / 1000)} s`);
        await sleep(delay);
      }
    }
  }

  /** A request carrying a token is never sent again elsewhere: a 3xx is an error naming its target. */
  async #refuseRedirect(res: Response, what: string): Promise<void> {
    if (res.status < 300 || res.status > 399) return;
    await res.body?.cancel();
    const to = res.headers.get('location');
    let target = 'no Location';
    try {
      if (to) target = urlForMessage(new URL(to, this.baseUrl).toString());
    } catch {
      target = 'an unreadable Location';
    }
    throw this.#fail(
      new PlatformError(
        'http',
        `the platform answered ${res.status} to ${what}, redirected to ${target}: shardeck never follows a redirect with a token; set the platform URL to the platform's real address`,
        res.status,
      ),
    );
  }

  #networkError(e: unknown): PlatformError {
    if ((e as Error)?.name === 'TimeoutError')
      return new PlatformError('timeout', `the platform at ${this.baseUrl} did not answer in time`);
    return new PlatformError(
      'unreachable',
      `cannot reach the platform at ${this.baseUrl} (${describeNetworkError(e)}): check the network and the platform URL`,
    );
  }

  #fail(e: PlatformError): PlatformError {
    this.#setStatus('error', e.message);
    return e;
  }
}
