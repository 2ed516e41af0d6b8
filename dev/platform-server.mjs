// Reference platform server for tests and the demo: plain node:http, exactly the seed's documented
// contract ("Authentication", "Create access token", "Errors"), plus test hooks that exist only here.
//
//   POST /api/user/oauth2/token   application/x-www-form-urlencoded: grant_type=refresh_token&refresh_token=...
//        200 -> the session record, exactly the eight documented fields
//             {user_id, access_token, refresh_token, session_id, role, role_permissions[], project_permissions[], tenant}
//        400 -> grant_type is not refresh_token, refresh_token missing, or the body is not form-encoded
//        404 -> unknown refresh token            410 -> refresh token expired (revoked for a security reason)
//   GET  /api/topic/v0/{tenant}/projects   Authorization: Bearer <access_token> (or Basic with a user token)
//        401 -> no credentials, an unknown or an expired access token
//
// OUR ASSUMPTIONS where the seed says "not shown" (a real platform may differ):
//   - The projects body is a JSON array [{"id":"Alpha","name":"Alpha Logistics"}, ...]; id is the
//     project id whose lowercase form ends the index name service_<version>_<id>.
//   - Basic credentials are base64("<anything>:<user token>"): the password part is the user token.
//   - A tenant other than the caller's gets 403. Error bodies are {"error": "<sentence>"}.
//   - The session record carries no expiry field; the access token lives tokenTtlSeconds (600 default).
//   - With rotation on, an exchange issues a new refresh token and the old one becomes unknown (404).
//   - Revoking a refresh token (410 from then on) also ends the access tokens issued from it.
import http from 'node:http';
import crypto from 'node:crypto';
import { DEMO_PROJECTS } from './demo-data.mjs';

const TOKEN_PATH = '/api/user/oauth2/token';
const PROJECTS_PATH = /^\/api\/topic\/v0\/([^/]+)\/projects$/;

export const DEMO_USER = {
  user_id: 'alice',
  tenant: 'acme',
  role: 'admin',
  role_permissions: ['tenant.read', 'tenant.admin', 'project.read'],
  project_permissions: ['*', 'frontend.user'],
};

function newToken(prefix) {
  return `${prefix}_${crypto.randomBytes(18).toString('base64url')}`;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export { DEMO_PROJECTS };

/**
 * Starts the server on a free loopback port. By default it serves the demo tenant's projects
 * (dev/demo-data.mjs), so the demo's indices show project names. Returns a handle with the URL, the demo user's refresh
 * token and the test hooks. `tokenTtlSeconds` is the access-token lifetime; `rotate` makes every
 * exchange issue a new refresh token.
 */
export async function startPlatformServer({ tokenTtlSeconds = 600, rotate = false, port = 0, projects = DEMO_PROJECTS } = {}) {
  /** refresh token -> { user, expired } */
  const refreshTokens = new Map();
  /** Every refresh token ever issued (the leak test looks for each in shardeck's output). */
  const everIssued = new Set();
  /** access token -> { refreshToken, expiresAt } */
  const accessTokens = new Map();
  const projectsByTenant = new Map([[DEMO_USER.tenant, projects]]);
  const counters = { exchanges: 0, projectRequests: 0, unauthorized: 0 };
  let ttlMs = tokenTtlSeconds * 1000;
  let rotating = rotate;

  function addUser(user = DEMO_USER) {
    const token = newToken('rt');
    everIssued.add(token);
    refreshTokens.set(token, { user: { ...user }, expired: false });
    return token;
  }
  const demoRefreshToken = addUser();

  function exchange(form) {
    counters.exchanges++;
    if (form.get('grant_type') !== 'refresh_token') return [400, { error: 'grant_type must be refresh_token' }];
    const given = form.get('refresh_token');
    if (!given) return [400, { error: 'refresh_token is required' }];
    const entry = refreshTokens.get(given);
    if (!entry) return [404, { error: 'invalid refresh token' }];
    if (entry.expired) return [410, { error: 'refresh token expired' }];
    let refreshToken = given;
    if (rotating) {
      refreshToken = newToken('rt');
      everIssued.add(refreshToken);
      refreshTokens.delete(given);
      refreshTokens.set(refreshToken, entry);
      for (const a of accessTokens.values()) if (a.refreshToken === given) a.refreshToken = refreshToken;
    }
    const accessToken = newToken('at');
    accessTokens.set(accessToken, { refreshToken, expiresAt: Date.now() + ttlMs });
    const u = entry.user;
    return [
      200,
      {
        user_id: u.user_id,
        access_token: accessToken,
        refresh_token: refreshToken,
        session_id: crypto.randomUUID(),
        role: u.role,
        role_permissions: [...u.role_permissions],
        project_permissions: [...u.project_permissions],
        tenant: u.tenant,
      },
    ];
  }

  /** The user behind the Authorization header, or null (401). */
  function authenticate(header) {
    const [scheme, value] = String(header ?? '').split(' ', 2);
    if (scheme === 'Bearer' && value) {
      const a = accessTokens.get(value);
      if (!a || a.expiresAt <= Date.now()) return null;
      const entry = refreshTokens.get(a.refreshToken);
      return entry && !entry.expired ? entry.user : null;
    }
    if (scheme === 'Basic' && value) {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const entry = refreshTokens.get(decoded.slice(decoded.indexOf(':') + 1));
      return entry && !entry.expired ? entry.user : null;
    }
    return null;
  }

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === TOKEN_PATH) {
        if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
        const body = await readBody(req);
        if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
          return send(res, 400, { error: 'the token operation takes form parameters (application/x-www-form-urlencoded)' });
        }
        const [status, out] = exchange(new URLSearchParams(body));
        return send(res, status, out);
      }
      const m = PROJECTS_PATH.exec(url.pathname);
      if (m && req.method === 'GET') {
        counters.projectRequests++;
        const user = authenticate(req.headers.authorization);
        if (!user) {
          counters.unauthorized++;
          res.setHeader('www-authenticate', 'Bearer');
          return send(res, 401, { error: 'unauthorized' });
        }
        const tenant = decodeURIComponent(m[1]);
        if (tenant !== user.tenant) return send(res, 403, { error: `no access to tenant ${tenant}` });
        return send(res, 200, projectsByTenant.get(tenant) ?? []);
      }
      // Every API resource is protected: unknown paths answer 401 without credentials, 404 with.
      if (!authenticate(req.headers.authorization)) return send(res, 401, { error: 'unauthorized' });
      return send(res, 404, { error: 'not found' });
    } catch (e) {
      send(res, 500, { error: String(e?.message ?? e) });
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${server.address().port}`;

  return {
    url,
    refreshToken: demoRefreshToken,
    tenant: DEMO_USER.tenant,
    counters,
    get exchanges() {
      return counters.exchanges;
    },
    /** Test hook: a new user (another refresh token). */
    addUser,
    /** Test hook: the platform expires a refresh token for a security reason (410 from now on). */
    revoke(token) {
      const entry = refreshTokens.get(token);
      if (entry) entry.expired = true;
    },
    /** Test hook: every access token issued so far stops working (401), as if its lifetime ran out. */
    expireAccessTokens() {
      for (const a of accessTokens.values()) a.expiresAt = 0;
    },
    setRotate(on) {
      rotating = Boolean(on);
    },
    setTokenTtl(seconds) {
      ttlMs = seconds * 1000;
    },
    setProjects(list, tenant = DEMO_USER.tenant) {
      projectsByTenant.set(tenant, list);
    },
    /** The refresh tokens the server would accept now (tests check the client stored the right one). */
    validRefreshTokens() {
      return [...refreshTokens].filter(([, e]) => !e.expired).map(([t]) => t);
    },
    /** Every refresh and access token this server ever issued. */
    issuedTokens() {
      return [...everIssued, ...accessTokens.keys()];
    },
    close() {
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// Run as a process by dev/platform.mjs: serve until killed, report where through a state file.
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const opt = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const ttl = Number(opt('--token-ttl') ?? 600);
  if (!Number.isFinite(ttl) || ttl <= 0) {
    console.error('--token-ttl takes a number of seconds greater than 0');
    process.exit(64);
  }
  const srv = await startPlatformServer({ tokenTtlSeconds: ttl, rotate: args.includes('--rotate') });
  const stateFile = opt('--state-file');
  if (stateFile) {
    const fs = await import('node:fs');
    const tmp = `${stateFile}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ pid: process.pid, url: srv.url, refreshToken: srv.refreshToken, ttl }), { mode: 0o600 });
    fs.renameSync(tmp, stateFile);
  } else {
    console.log(`PLATFORM_URL=${srv.url}\nREFRESH_TOKEN=${srv.refreshToken}`);
  }
  const stop = () => srv.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
