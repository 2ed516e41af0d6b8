// Starts and stops real Elasticsearch 8 nodes on loopback for the demo and the test suite.
// Elasticsearch refuses to run as root, so under root the node runs as a system user made for it.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { ensureDistribution, javaHome, ES_VERSION } from './es-dist.mjs';
import { cacheRoot, ensureDir, isRoot } from './paths.mjs';

export const ES_USER = 'shardeck-es';

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function ensureEsUser() {
  if (!isRoot) return;
  try {
    execFileSync('id', ['-u', ES_USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', ES_USER], { stdio: 'inherit' });
  }
}

/** Runs argv as the Elasticsearch user (or as ourselves when we are not root). */
function asEsUser(argv, env) {
  if (!isRoot) return { cmd: argv[0], args: argv.slice(1), env };
  const envArgs = Object.entries(env)
    .filter(([k]) => k.startsWith('ES_') || k === 'PATH' || k === 'LANG')
    .map(([k, v]) => `${k}=${v}`);
  return { cmd: 'runuser', args: ['-u', ES_USER, '--', 'env', ...envArgs, ...argv], env: process.env };
}

function chownToEsUser(p) {
  if (isRoot) execFileSync('chown', ['-R', `${ES_USER}:`, p]);
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Makes a self-signed CA and a server certificate for 127.0.0.1/localhost with openssl, so the
 * secured node is tested over real TLS with a custom CA, as storage nodes from 3.7.4 run.
 */
export function makeTlsMaterial(dir) {
  ensureDir(dir);
  const run = (args) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', '/CN=shardeck test CA', '-keyout', 'ca.key', '-out', 'ca.crt']);
  run(['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', 'node.key', '-out', 'node.csr']);
  fs.writeFileSync(path.join(dir, 'ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run(['x509', '-req', '-in', 'node.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '30', '-extfile', 'ext.cnf', '-out', 'node.crt']);
  return { ca: path.join(dir, 'ca.crt'), cert: path.join(dir, 'node.crt'), key: path.join(dir, 'node.key') };
}

async function waitForHttp(url, { timeoutMs, ca, auth, pidFile, logFile, anyStatus }) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const args = ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-m', '2'];
      if (ca) args.push('--cacert', ca);
      if (auth) args.push('-u', auth); // test-only credential of a throwaway node
      const code = execFileSync('curl', [...args, `${url}/_cluster/health?wait_for_status=yellow&timeout=1s`], { encoding: 'utf8' });
      // 408: health answered but timed out waiting for yellow (a red cluster, when that is expected).
      if (code === '200' || (anyStatus && code === '408')) return;
      last = `HTTP ${code}`;
    } catch (e) {
      last = String(e.message).split('\n')[0];
    }
    if (pidFile && fs.existsSync(pidFile)) {
      const pid = Number(fs.readFileSync(pidFile, 'utf8'));
      if (pid && !isAlive(pid)) break;
    }
    await sleep(250);
  }
  const tail = logFile && fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n') : '';
  throw new Error(`Elasticsearch at ${url} did not become ready (${last})\n${tail}`);
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts one node. Options:
 *   name, clusterName, dataDir (kept across restarts when given), httpPort, transportPort,
 *   seedHosts (transport addresses of other nodes), initialMasters (names), secure (TLS + password),
 *   settings (extra -E settings), heap ('512m'), anyStatus (ready once health answers, even red).
 * Returns a handle: { url, name, pid, home, baseDir, dataDir, logFile, ca?, user?, password?, stop(), restart() }.
 */
export async function startNode(opts = {}) {
  const home = ensureDistribution();
  ensureEsUser();
  const name = opts.name || 'node-1';
  const baseDir = opts.baseDir || fs.mkdtempSync(path.join(ensureDir(path.join(cacheRoot, 'nodes')), `${name}-`));
  const confDir = path.join(baseDir, 'config');
  const dataDir = opts.dataDir || path.join(baseDir, 'data');
  const logsDir = path.join(baseDir, 'logs');
  const tmpDir = path.join(baseDir, 'tmp');
  for (const d of [dataDir, logsDir, tmpDir]) ensureDir(d);
  const httpPort = opts.httpPort || (await freePort());
  const transportPort = opts.transportPort || (await freePort());
  const clusterName = opts.clusterName || `shardeck-${name}-${httpPort}`;

  // Each node gets its own config dir: ES writes a keystore and (secured) certificates there.
  if (!fs.existsSync(confDir)) fs.cpSync(path.join(home, 'config'), confDir, { recursive: true });
  const settings = {
    'cluster.name': clusterName,
    'node.name': name,
    'path.data': dataDir,
    'path.logs': logsDir,
    'network.host': '127.0.0.1',
    'http.port': String(httpPort),
    'transport.port': String(transportPort),
    'xpack.security.enabled': opts.secure ? 'true' : 'false',
    ...(opts.seedHosts ? { 'discovery.seed_hosts': opts.seedHosts.join(',') } : { 'discovery.type': 'single-node' }),
    ...(opts.initialMasters ? { 'cluster.initial_master_nodes': opts.initialMasters.join(',') } : {}),
    ...(opts.settings || {}),
  };
  let tls;
  const password = opts.secure ? opts.password || 'changeme-' + Math.random().toString(36).slice(2, 10) : undefined;
  if (opts.secure) {
    tls = makeTlsMaterial(path.join(confDir, 'tls'));
    Object.assign(settings, {
      'xpack.security.http.ssl.enabled': 'true',
      'xpack.security.http.ssl.certificate': 'tls/node.crt',
      'xpack.security.http.ssl.key': 'tls/node.key',
      'xpack.security.http.ssl.certificate_authorities': 'tls/ca.crt',
      'xpack.security.transport.ssl.enabled': 'false',
    });
  }
  const yml = Object.entries(settings).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n') + '\n';
  fs.writeFileSync(path.join(confDir, 'elasticsearch.yml'), yml);
  chownToEsUser(baseDir);
  if (opts.dataDir) chownToEsUser(dataDir);

  const env = {
    ...process.env,
    ES_JAVA_HOME: javaHome(),
    ES_PATH_CONF: confDir,
    ES_TMPDIR: tmpDir,
    ES_JAVA_OPTS: `-Xms${opts.heap || '512m'} -Xmx${opts.heap || '512m'}`,
  };
  if (opts.secure) {
    // The elastic user's password comes from the keystore's bootstrap.password (read from stdin).
    const ks = asEsUser([path.join(home, 'bin', 'elasticsearch-keystore'), 'add', '-x', '-f', 'bootstrap.password'], env);
    execFileSync(ks.cmd, ks.args, { env: ks.env, input: password, stdio: ['pipe', 'ignore', 'inherit'] });
  }
  // What es-service.mjs needs to start this node again like a system service would (no secrets).
  if (!opts.secure)
    fs.writeFileSync(
      path.join(baseDir, 'node.json'),
      JSON.stringify({ name, dataDir, httpPort, transportPort, clusterName, settings: opts.settings, heap: opts.heap, seedHosts: opts.seedHosts, initialMasters: opts.initialMasters }),
    );
  const pidFile = path.join(baseDir, 'es.pid');
  fs.rmSync(pidFile, { force: true });
  const logFile = path.join(baseDir, 'stdout.log');
  const out = fs.openSync(logFile, 'a');
  const { cmd, args, env: runEnv } = asEsUser([path.join(home, 'bin', 'elasticsearch'), '-p', pidFile], env);
  const child = spawn(cmd, args, { env: runEnv, detached: true, stdio: ['ignore', out, out] });
  child.unref();
  fs.closeSync(out);

  const scheme = opts.secure ? 'https' : 'http';
  const url = `${scheme}://127.0.0.1:${httpPort}`;
  const handle = {
    url,
    name,
    home,
    version: ES_VERSION,
    baseDir,
    dataDir,
    logFile,
    logsDir,
    httpPort,
    transportPort,
    clusterName,
    ca: tls?.ca,
    user: opts.secure ? 'elastic' : undefined,
    password,
    get pid() {
      return fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : child.pid;
    },
    stop: () => stopPid(handle.pid),
    restart: () => startNode({ ...opts, name, baseDir, dataDir, httpPort, transportPort, clusterName, password }),
  };
  if (!opts.noWait) {
    await waitForHttp(url, {
      timeoutMs: opts.timeoutMs || 120_000,
      ca: tls?.ca,
      auth: opts.secure ? `elastic:${password}` : undefined,
      pidFile,
      logFile,
      anyStatus: opts.anyStatus,
    });
  }
  return handle;
}

/** Stops a node and waits for the process to exit (SIGTERM, then SIGKILL after 30 s). */
export async function stopPid(pid) {
  if (!pid || !isAlive(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 30_000;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/** Starts `count` nodes forming one cluster (for replica placement tests). */
export async function startCluster({ count = 2, ...opts } = {}) {
  const names = Array.from({ length: count }, (_, i) => `node-${i + 1}`);
  const transportPorts = await Promise.all(names.map(() => freePort()));
  const clusterName = `shardeck-cluster-${transportPorts[0]}`;
  const seedHosts = transportPorts.map((p) => `127.0.0.1:${p}`);
  const nodes = await Promise.all(
    names.map((name, i) =>
      startNode({ ...opts, name, clusterName, transportPort: transportPorts[i], seedHosts, initialMasters: names, noWait: true }),
    ),
  );
  await waitForHttp(nodes[0].url, { timeoutMs: 180_000, logFile: nodes[0].logFile });
  // Wait until every node has joined before handing the cluster out.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const out = execFileSync('curl', ['-s', '-m', '5', `${nodes[0].url}/_cluster/health?wait_for_nodes=${count}&timeout=2s`], { encoding: 'utf8' });
    if (JSON.parse(out).number_of_nodes === count) break;
  }
  return { url: nodes[0].url, nodes, stop: () => Promise.all(nodes.map((n) => n.stop())) };
}
