// Starts and stops real Elasticsearch 8 nodes on loopback for the demo and the test suite.
// Elasticsearch refuses to run as root, so under root the node runs as a system user made for it.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { ensureDistribution, javaHome, ES_VERSION } from './es-dist.mjs';
import { ensureDir, ES_USER, isRoot, nodesRoot } from './paths.mjs';
import { sleep, waitUntil } from './wait.mjs';

export { ES_USER };

/**
 * A loopback port free right now. The listener is closed before the node binds it, so another
 * process may take it meanwhile: startNode retries with new ports when the node fails to bind.
 */
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

/** Creates the system user the nodes run as (root only; ours otherwise). Idempotent. */
export function ensureEsUser() {
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
    .filter(([k]) => k.startsWith('ES_') || k === 'CLI_JAVA_OPTS' || k === 'PATH' || k === 'LANG')
    .map(([k, v]) => `${k}=${v}`);
  return { cmd: 'runuser', args: ['-u', ES_USER, '--', 'env', ...envArgs, ...argv], env: process.env };
}

function chownToEsUser(p) {
  if (isRoot) execFileSync('chown', ['-R', `${ES_USER}:`, p]);
}

/**
 * Whether `pid` is still the process we think it is: its command line contains `marker` (a node's
 * base folder, a server's script path). A bare pid from a state file may since belong to anyone.
 * Without /proc (not Linux) the best we can do is that the pid is alive.
 */
export function isProcessOf(pid, marker) {
  if (!pid || !isAlive(pid)) return false;
  try {
    return fs
      .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .some((arg) => arg.includes(marker));
  } catch {
    return !fs.existsSync('/proc/self');
  }
}

/** The node's JVM pid from its pid file, if that pid is still this node's JVM. */
export function nodePid(baseDir) {
  try {
    const pid = Number(fs.readFileSync(path.join(baseDir, 'es.pid'), 'utf8'));
    return isProcessOf(pid, baseDir) ? pid : 0;
  } catch {
    return 0;
  }
}

/**
 * Makes a self-signed CA and a server certificate for 127.0.0.1/localhost with openssl, so the
 * secured node is tested over real TLS with a custom CA, as storage nodes from 3.7.4 run.
 */
export function makeTlsMaterial(dir) {
  ensureDir(dir);
  const run = (args) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '30',
    '-subj',
    '/CN=shardeck test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
  ]);
  run(['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', 'node.key', '-out', 'node.csr']);
  fs.writeFileSync(path.join(dir, 'ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run([
    'x509',
    '-req',
    '-in',
    'node.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '30',
    '-extfile',
    'ext.cnf',
    '-out',
    'node.crt',
  ]);
  return { ca: path.join(dir, 'ca.crt'), cert: path.join(dir, 'node.crt'), key: path.join(dir, 'node.key') };
}

/** Thrown when a node did not come up; `bindFailed` when its log says a port was taken. */
class NodeStartError extends Error {
  constructor(message, bindFailed) {
    super(message);
    this.bindFailed = bindFailed;
  }
}

const BIND_FAILURE = /BindException|BindHttpException|BindTransportException|Address already in use|Failed to bind/i;

function logTail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Whether any log of the node (stdout and the server logs) says it could not bind its ports. */
function bindFailedIn(baseDir) {
  const files = [path.join(baseDir, 'stdout.log')];
  try {
    for (const f of fs.readdirSync(path.join(baseDir, 'logs'))) if (f.endsWith('.log')) files.push(path.join(baseDir, 'logs', f));
  } catch {
    /* no logs yet */
  }
  return files.some((f) => BIND_FAILURE.test(logTail(f, 400)));
}

/**
 * Waits for the node's health endpoint; gives up early when the process is gone, and at the
 * deadline or when `signal` is aborted (a caller giving up: the same way out as the deadline).
 */
async function waitForHttp(url, { timeoutMs, ca, auth, exited, baseDir, logFile, anyStatus, signal }) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline && !signal?.aborted) {
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
    if (exited?.()) {
      last = 'the node process exited';
      break;
    }
    await sleep(250);
  }
  // The caller's reason first: the last probe may predate what made the caller give up.
  if (signal?.aborted) last = `given up by the caller; last probe: ${last || 'none'}`;
  const bindFailed = baseDir ? bindFailedIn(baseDir) : false;
  throw new NodeStartError(
    `Elasticsearch at ${url} did not become ready (${last}${bindFailed ? '; a port was taken' : ''})\n${logFile ? logTail(logFile) : ''}`,
    bindFailed,
  );
}

/** Whether `pid` runs (a zombie, exited but not yet reaped by its parent, does not). */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc: kill(0) is all we know
  }
}

/** Nodes this process started, by base folder: disposeStartedNodes() stops them and removes what we made. */
const started = new Map();

/**
 * Stops every node this process started that still runs and removes the folders startNode made
 * (a caller's own dataDir/baseDir is left alone). The integration project runs it after each
 * file (test/setup/nodes.ts), so a file whose set-up failed halfway leaves nothing behind.
 */
export async function disposeStartedNodes() {
  const all = [...started.entries()];
  started.clear();
  await Promise.all(
    all.map(([baseDir, { owned }]) => stopNodeIn(baseDir).then(() => owned && fs.rmSync(baseDir, { recursive: true, force: true }))),
  );
}

/** Stops the node whose folder is `baseDir`, if its JVM (checked by pid AND command line) still runs. */
export async function stopNodeIn(baseDir) {
  await stopPid(nodePid(baseDir));
}

/** Kills a start-up that failed: the whole process group (runuser, launcher, JVM), then the JVM by pid file. */
function killStartup(child, baseDir) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  const pid = nodePid(baseDir);
  if (pid)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
}

/**
 * Starts one node. Options:
 *   name, clusterName, dataDir (kept across restarts when given), httpPort, transportPort,
 *   seedHosts (transport addresses of other nodes), initialMasters (names), secure (TLS + password),
 *   settings (extra -E settings), heap ('512m'), anyStatus (ready once health answers, even red),
 *   timeoutMs (start-up deadline, 120 s), signal (an AbortSignal: gives up as the deadline does), pickPort (how free ports are found; tests of the retry),
 *   javaOpts (ES_JAVA_OPTS instead of -Xms/-Xmx of `heap`; '' leaves heap to the config files),
 *   configFiles ({ 'jvm.options.d/x.options': text, ... } written into the node's config dir;
 *   a key ending in '+' appends to that file instead), tmpDir (the temp folder; ES_TMPDIR is
 *   <baseDir>/tmp, a symlink to it, so the node can still be told apart and stopped).
 * When it picked the ports itself and the node could not bind one, it tries again with new ports
 * (up to 3 times). When the node does not come up it is killed (and its new folder removed) before
 * the error is thrown.
 * Every node gets path.repo = <baseDir>/repo (handle.repoDir) unless settings['path.repo'] is given.
 * Returns a handle: { url, name, pid, home, baseDir, dataDir, repoDir, logFile, ca?, user?, password?, stop(), restart() }.
 */
export async function startNode(opts = {}) {
  const ownPorts = !opts.httpPort && !opts.transportPort;
  for (let attempt = 1; ; attempt++) {
    try {
      return await startNodeOnce(opts);
    } catch (e) {
      if (!(ownPorts && e.bindFailed && attempt < 3)) throw e;
      process.stderr.write(`[es-node] ${opts.name || 'node-1'}: a port was taken before the node bound it; trying again with new ports\n`);
    }
  }
}

async function startNodeOnce(opts) {
  // opts.home: a private copy of the distribution (a test that installs plugins), else the shared one.
  const home = opts.home || ensureDistribution();
  ensureEsUser();
  const name = opts.name || 'node-1';
  const owned = !opts.baseDir;
  const baseDir = opts.baseDir || fs.mkdtempSync(path.join(ensureDir(nodesRoot()), `${name}-`));
  if (!started.has(baseDir)) started.set(baseDir, { owned });
  let child;
  try {
    const confDir = path.join(baseDir, 'config');
    const dataDir = opts.dataDir || path.join(baseDir, 'data');
    const logsDir = path.join(baseDir, 'logs');
    // The node's JVM is told from others by its folder in its command line (-Djava.io.tmpdir), so a
    // temp folder elsewhere (opts.tmpDir) is reached through <baseDir>/tmp, a symlink to it.
    const tmpDir = path.join(baseDir, 'tmp');
    // Every node may hold fs snapshot repositories (path.repo is read at start only): a folder of its
    // own, owned by the node's user like the rest of baseDir. A test's own settings['path.repo'] wins.
    const repoDir = opts.settings?.['path.repo'] ?? path.join(baseDir, 'repo');
    // The launcher's own temp folder: it leaves a `final-flags*` folder (a gc.log) in it at every
    // start, thousands a day in /tmp otherwise; here they go with the node's folder.
    const launcherTmp = path.join(baseDir, 'launcher-tmp');
    for (const d of [dataDir, logsDir, launcherTmp]) ensureDir(d);
    if (!opts.settings?.['path.repo']) ensureDir(repoDir);
    if (opts.tmpDir) {
      fs.rmSync(tmpDir, { recursive: true, force: true });
      fs.symlinkSync(opts.tmpDir, tmpDir);
    } else ensureDir(tmpDir);
    const pickPort = opts.pickPort || freePort;
    const httpPort = opts.httpPort || (await pickPort());
    const transportPort = opts.transportPort || (await pickPort());
    const clusterName = opts.clusterName || `shardeck-${name}-${httpPort}`;

    // Each node gets its own config dir: ES writes a keystore and (secured) certificates there.
    const freshConf = !fs.existsSync(confDir);
    if (freshConf) {
      fs.cpSync(path.join(home, 'config'), confDir, { recursive: true });
      // Before 8.7 (seen on 8.0-8.6) jvm.options logs GC to logs/gc.log relative to the distribution,
      // which the node's user may not write: the JVM then refuses to start. This node's own logs folder.
      const jvmOptions = path.join(confDir, 'jvm.options');
      const text = fs.readFileSync(jvmOptions, 'utf8');
      if (text.includes('file=logs/gc.log'))
        fs.writeFileSync(jvmOptions, text.replaceAll('file=logs/gc.log', `file=${path.join(logsDir, 'gc.log')}`));
    }
    // Once, with the config dir (a restart keeps what was written).
    for (const [rel, text] of Object.entries(freshConf ? opts.configFiles || {} : {})) {
      const file = path.join(confDir, rel.replace(/\+$/, ''));
      ensureDir(path.dirname(file));
      if (rel.endsWith('+')) fs.appendFileSync(file, text);
      else fs.writeFileSync(file, text);
    }
    const settings = {
      'cluster.name': clusterName,
      'node.name': name,
      'path.data': dataDir,
      'path.logs': logsDir,
      'network.host': '127.0.0.1',
      'http.port': String(httpPort),
      'transport.port': String(transportPort),
      'xpack.security.enabled': opts.secure ? 'true' : 'false',
      'path.repo': repoDir,
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
    const yml =
      Object.entries(settings)
        .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
        .join('\n') + '\n';
    fs.writeFileSync(path.join(confDir, 'elasticsearch.yml'), yml);
    // Handed to the node's user whole (whatever the umask made of the modes): it owns its folders.
    chownToEsUser(baseDir);
    if (opts.dataDir) chownToEsUser(dataDir);

    const env = {
      ...process.env,
      ES_JAVA_HOME: javaHome(),
      ES_PATH_CONF: confDir,
      ES_TMPDIR: tmpDir,
      // C1 only (no C2 compiles competing with start-up on 2 cores): measured 11.1-11.7 s to ready
      // against 12.7-15.1 s (three starts each, alternating); a test node lives for seconds.
      ES_JAVA_OPTS: opts.javaOpts ?? `-Xms${opts.heap || '512m'} -Xmx${opts.heap || '512m'} -XX:TieredStopAtLevel=1`,
      // The launcher JVM (it reads the keystore and options, starts the server and waits) compiles
      // C1 only too: its own CPU 1.6-2.0 s against 2.6-3.6 s a start, machine CPU to ready 9.2 s
      // against 9.8 s (12.6 against 14.1 secured; three alternating starts each, as root, 2026-11-26);
      // a test run starts ~45. Passed through runuser with the ES_* variables (asEsUser).
      CLI_JAVA_OPTS: `${process.env.CLI_JAVA_OPTS ?? '-XX:TieredStopAtLevel=1'} -Djava.io.tmpdir=${launcherTmp}`,
    };
    if (env.ES_JAVA_OPTS === '') delete env.ES_JAVA_OPTS;
    if (opts.secure) {
      // The elastic user's password comes from the keystore's bootstrap.password (read from stdin).
      const ks = asEsUser([path.join(home, 'bin', 'elasticsearch-keystore'), 'add', '-x', '-f', 'bootstrap.password'], env);
      execFileSync(ks.cmd, ks.args, { env: ks.env, input: password, stdio: ['pipe', 'ignore', 'inherit'] });
    }
    // What es-service.mjs needs to start this node again like a system service would (no secrets).
    if (!opts.secure)
      fs.writeFileSync(
        path.join(baseDir, 'node.json'),
        JSON.stringify({
          name,
          home: opts.home,
          dataDir,
          httpPort,
          transportPort,
          clusterName,
          settings: opts.settings,
          heap: opts.heap,
          seedHosts: opts.seedHosts,
          initialMasters: opts.initialMasters,
        }),
      );
    const pidFile = path.join(baseDir, 'es.pid');
    fs.rmSync(pidFile, { force: true });
    const logFile = path.join(baseDir, 'stdout.log');
    const out = fs.openSync(logFile, 'a');
    const { cmd, args, env: runEnv } = asEsUser([path.join(home, 'bin', 'elasticsearch'), '-p', pidFile], env);
    // SHARDECK_NODE_STARTS: a file that gets a line per node start (to count a test run's starts).
    if (process.env.SHARDECK_NODE_STARTS) fs.appendFileSync(process.env.SHARDECK_NODE_STARTS, `${new Date().toISOString()} ${name}\n`);
    // Its own process group, so a failed start-up can be killed whole.
    child = spawn(cmd, args, { env: runEnv, detached: true, stdio: ['ignore', out, out] });
    child.unref();
    fs.closeSync(out);
    const exited = () => child.exitCode !== null || child.signalCode !== null;

    const scheme = opts.secure ? 'https' : 'http';
    const url = `${scheme}://127.0.0.1:${httpPort}`;
    const handle = {
      url,
      name,
      home,
      version: ES_VERSION,
      baseDir,
      dataDir,
      /** The node's path.repo: where fs snapshot repositories may live. */
      repoDir,
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
      /** Stops this node's JVM if it still runs (the pid is checked to still be this node's). */
      stop: () => stopNodeIn(baseDir),
      restart: () => startNode({ ...opts, name, baseDir, dataDir, httpPort, transportPort, clusterName, password }),
      /** For startCluster: kills a node that never became ready. */
      abort: async () => {
        killStartup(child, baseDir);
        await stopNodeIn(baseDir);
      },
    };
    if (!opts.noWait) {
      await waitForHttp(url, {
        timeoutMs: opts.timeoutMs || 120_000,
        ca: tls?.ca,
        auth: opts.secure ? `elastic:${password}` : undefined,
        exited,
        baseDir,
        logFile,
        anyStatus: opts.anyStatus,
        signal: opts.signal,
      });
    }
    return handle;
  } catch (e) {
    // Never leave a half-started JVM (it would hold its ports and memory for the rest of the run)
    // nor the folder made for it.
    if (child) killStartup(child, baseDir);
    await stopNodeIn(baseDir);
    if (owned) {
      started.delete(baseDir);
      fs.rmSync(baseDir, { recursive: true, force: true });
    }
    throw e;
  }
}

/** Stops a process and waits for it to exit (SIGTERM, then SIGKILL after 30 s). */
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
    const killDeadline = Date.now() + 10_000;
    while (isAlive(pid) && Date.now() < killDeadline) await sleep(50);
  }
}

/**
 * Starts `count` nodes forming one cluster (for replica placement tests). Fails (with every node
 * stopped) unless all of them have joined within the deadline; retries with new ports when a
 * node could not bind one.
 */
export async function startCluster({ count = 2, ...opts } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startClusterOnce(count, opts);
    } catch (e) {
      if (!(e.bindFailed && attempt < 3)) throw e;
      process.stderr.write('[es-node] cluster: a port was taken before a node bound it; trying again with new ports\n');
    }
  }
}

async function startClusterOnce(count, opts) {
  const names = Array.from({ length: count }, (_, i) => `node-${i + 1}`);
  const transportPorts = await Promise.all(names.map(() => freePort()));
  const clusterName = `shardeck-cluster-${transportPorts[0]}`;
  const seedHosts = transportPorts.map((p) => `127.0.0.1:${p}`);
  const nodes = await Promise.all(
    names.map((name, i) =>
      startNode({ ...opts, name, clusterName, transportPort: transportPorts[i], seedHosts, initialMasters: names, noWait: true }),
    ),
  );
  const fail = async (e) => {
    const bindFailed = e.bindFailed || nodes.some((n) => bindFailedIn(n.baseDir));
    await Promise.all(nodes.map((n) => n.abort()));
    for (const n of nodes) {
      started.delete(n.baseDir);
      fs.rmSync(n.baseDir, { recursive: true, force: true });
    }
    throw new NodeStartError(e.message, bindFailed);
  };
  try {
    await waitForHttp(nodes[0].url, { timeoutMs: 180_000, baseDir: nodes[0].baseDir, logFile: nodes[0].logFile });
    // Every node must have joined before the cluster is handed out; a half-joined one is an error.
    await waitUntil(
      `all ${count} nodes of ${clusterName} to join`,
      async () => {
        const res = await fetch(`${nodes[0].url}/_cluster/health?wait_for_nodes=${count}&timeout=2s`);
        return (await res.json()).number_of_nodes;
      },
      (n) => n === count,
      { timeoutMs: 120_000, intervalMs: 500 },
    );
  } catch (e) {
    await fail(e);
  }
  return { url: nodes[0].url, nodes, stop: () => Promise.all(nodes.map((n) => n.stop())) };
}

/**
 * Roles and a user of the secured node's file realm (config/roles.yml, config/users): the test
 * distribution cannot hold native users or roles (its .security index needs the analysis-common
 * module the integ-test zip lacks: "Unknown filter type [pattern_capture]"). `roles` are role
 * descriptors as PUT _security/role takes them (JSON is YAML, so roles.yml takes them as they are).
 * The node reloads both files within ~5 s: wait until the user authenticates before using it.
 */
export function addFileRealmUser(node, { user, password, roles }) {
  const confDir = path.join(node.baseDir, 'config');
  const rolesFile = path.join(confDir, 'roles.yml');
  const names = [];
  for (const [name, descriptor] of Object.entries(roles)) {
    fs.appendFileSync(rolesFile, `${name}: ${JSON.stringify(descriptor)}\n`);
    names.push(name);
  }
  chownToEsUser(rolesFile);
  const env = { ...process.env, ES_JAVA_HOME: javaHome(), ES_PATH_CONF: confDir };
  const run = asEsUser([path.join(node.home, 'bin', 'elasticsearch-users'), 'useradd', user, '-p', password, '-r', names.join(',')], env);
  // A test user's throwaway password on the tool's argv (the node's own CLI takes it no other way non-interactively).
  execFileSync(run.cmd, run.args, { env: run.env, stdio: ['ignore', 'ignore', 'inherit'] });
}
