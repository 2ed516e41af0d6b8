// Downloads (once) and unpacks the Elasticsearch 8 distribution the harness runs.
// Source: Maven Central's integ-test-zip, fetched with mvn, the registry client these machines have.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cacheRoot, ensureDir, isRoot, makeTraversable } from './paths.mjs';

/** The newest 8.x integ-test-zip on Maven Central when this was written (2026-11). */
export const DEFAULT_ES_VERSION = '8.19.21';
export const ES_VERSION = process.env.SHARDECK_ES_VERSION || DEFAULT_ES_VERSION;

/** Elasticsearch 8 runs on Java 17 or newer. */
export const MIN_JAVA = 17;

/** The major version of `<home>/bin/java` (`1.8.0_x` is 8), or 0 when it does not run. */
export function javaMajor(home) {
  // `java -version` writes to stderr.
  const r = spawnSync(path.join(home, 'bin', 'java'), ['-version'], { encoding: 'utf8' });
  return r.status === 0 ? parseJavaMajor(`${r.stderr}${r.stdout}`) : 0;
}

function parseJavaMajor(text) {
  const m = /version "(\d+)(?:\.(\d+))?/.exec(text);
  if (!m) return 0;
  return m[1] === '1' ? Number(m[2] || 0) : Number(m[1]);
}

/**
 * Java homes worth trying, best first: ES_JAVA_HOME / JAVA_HOME as given, the java on PATH, then
 * every JVM under /usr/lib/jvm (Debian's packages land there even when PATH points elsewhere).
 */
function javaCandidates() {
  const out = [];
  for (const v of [process.env.ES_JAVA_HOME, process.env.JAVA_HOME]) if (v) out.push(v);
  try {
    const java = execFileSync('sh', ['-c', 'readlink -f "$(command -v java)"'], { encoding: 'utf8' }).trim();
    if (java) out.push(path.dirname(path.dirname(java)));
  } catch {
    /* no java on PATH */
  }
  try {
    for (const d of fs.readdirSync('/usr/lib/jvm').sort().reverse()) out.push(path.join('/usr/lib/jvm', d));
  } catch {
    /* no /usr/lib/jvm */
  }
  return [...new Set(out)];
}

/**
 * A Java home of version 17 or newer (checked by running it, not by its name), with javac when
 * `jdk` is asked for; undefined when there is none.
 */
export function findJava({ jdk = false } = {}) {
  const ok = (h) => javaMajor(h) >= MIN_JAVA && (!jdk || fs.existsSync(path.join(h, 'bin', 'javac')));
  // An explicit ES_JAVA_HOME is the operator's choice: used if good enough, never silently replaced.
  if (process.env.ES_JAVA_HOME) return ok(process.env.ES_JAVA_HOME) ? process.env.ES_JAVA_HOME : undefined;
  return javaCandidates().find(ok);
}

export function javaHome() {
  const home = findJava();
  if (!home)
    throw new Error(
      `no Java ${MIN_JAVA} or newer found (ES_JAVA_HOME, JAVA_HOME, PATH, /usr/lib/jvm): Elasticsearch 8 needs it; run npm run setup, or apt-get install openjdk-17-jdk-headless`,
    );
  return home;
}

function log(msg) {
  process.stderr.write(`[es-dist] ${msg}\n`);
}

/** Returns the unpacked ES home, downloading and unpacking it on first use. */
export function ensureDistribution(version = ES_VERSION) {
  const home = path.join(cacheRoot, `elasticsearch-${version}`);
  // Bumped whenever what gets installed changes, so existing caches are completed (-2: reindex module).
  const marker = path.join(home, '.shardeck-ready-2');
  ensureDir(cacheRoot);
  // The node's user must get through the cache to the distribution and its folders, whatever
  // made the cache (a mkdtemp, a run under umask 077).
  if (isRoot) makeTraversable(cacheRoot);
  if (fs.existsSync(marker)) return home;
  if (fs.existsSync(path.join(home, '.shardeck-ready'))) {
    // Unpacked by an older harness: add what it lacks in place (nodes of others may be running from it).
    installReindexOrSay(home, version);
    if (isRoot) execFileSync('chmod', ['-R', 'a+rX', path.join(home, 'modules')]);
    fs.writeFileSync(marker, new Date().toISOString() + '\n');
    return home;
  }

  const downloads = ensureDir(path.join(cacheRoot, 'downloads'));
  const zip = path.join(downloads, `elasticsearch-${version}.zip`);
  if (!fs.existsSync(zip)) {
    log(`downloading org.elasticsearch.distribution.integ-test-zip:elasticsearch:${version} with mvn (once)`);
    execFileSync(
      'mvn',
      [
        '-q',
        '-B',
        'dependency:copy',
        `-Dartifact=org.elasticsearch.distribution.integ-test-zip:elasticsearch:${version}:zip`,
        `-DoutputDirectory=${downloads}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
  }
  const staging = fs.mkdtempSync(path.join(cacheRoot, 'unpack-'));
  log(`unpacking ${path.basename(zip)}`);
  execFileSync('unzip', ['-q', zip, '-d', staging], { stdio: 'inherit' });
  fs.rmSync(home, { recursive: true, force: true });
  fs.renameSync(path.join(staging, `elasticsearch-${version}`), home);
  fs.rmSync(staging, { recursive: true, force: true });
  installReindexOrSay(home, version);
  // The node runs as an unprivileged user; it only needs to read the distribution.
  if (isRoot) execFileSync('chmod', ['-R', 'a+rX', home]);
  fs.writeFileSync(marker, new Date().toISOString() + '\n');
  return home;
}

/** Written into a distribution whose reindex module could not be built: why (read by reindexMissing). */
const NO_REINDEX = '.shardeck-no-reindex';

/**
 * Why the distribution at `home` has no delete-by-query (the port did not build for its version),
 * or undefined when it has the module. The version smoke suite (dev/versions.mjs) reports it.
 */
export function reindexMissing(home) {
  try {
    return fs.readFileSync(path.join(home, NO_REINDEX), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * The port targets 8.19's internal API (NodeFeature from 8.12, injection.guice from 8.15...): on an
 * older minor the javac fails. The newest harness version must have it (npm test's delete-by-query
 * suites); any other version starts without it and says so, so the version matrix still runs.
 */
function installReindexOrSay(home, version) {
  try {
    installExtraModules(home, version);
    fs.rmSync(path.join(home, NO_REINDEX), { force: true });
  } catch (e) {
    if (version === DEFAULT_ES_VERSION) throw e;
    const why = `the reindex port (dev/reindex/reindex-8.19-port.patch) does not build against ${version}: no _delete_by_query on this test node`;
    log(why);
    fs.writeFileSync(path.join(home, NO_REINDEX), why + '\n');
  }
}

/** The 7.17.29 module files the port patches (dev/reindex/reindex-8.19-port.patch). */
const REINDEX_SOURCES = [
  'AbstractAsyncBulkByScrollAction',
  'AbstractBaseReindexRestHandler',
  'AbstractBulkByQueryRestHandler',
  'AsyncDeleteByQueryAction',
  'BulkByScrollParallelizationHelper',
  'BulkIndexByScrollResponseContentListener',
  'ReindexPlugin',
  'RestDeleteByQueryAction',
  'RestRethrottleAction',
  'RethrottleAction',
  'RethrottleRequest',
  'TransportDeleteByQueryAction',
  'TransportRethrottleAction',
  'package-info',
].map((f) => `org/elasticsearch/reindex/${f}.java`);

const REINDEX_PATCH = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'reindex', 'reindex-8.19-port.patch');

/** javac/jar of a JDK 17+ (the JDK the node runs on when it has them). */
export function jdkTool(name) {
  const home = findJava({ jdk: true });
  if (home && fs.existsSync(path.join(home, 'bin', name))) return path.join(home, 'bin', name);
  throw new Error(
    `no ${name} of a JDK ${MIN_JAVA}+: building the test node's reindex module needs one; run npm run setup, or apt-get install openjdk-17-jdk-headless`,
  );
}

/**
 * Modules the integ-test zip lacks that shardeck's features need (see dev/README.md):
 * reindex (delete-by-query + rethrottle only), built from the 7.17.29 sources and the port patch.
 */
function installExtraModules(home, version) {
  const downloads = ensureDir(path.join(cacheRoot, 'downloads'));
  const sources = path.join(downloads, 'reindex-client-7.17.29-sources.jar');
  if (!fs.existsSync(sources)) {
    log('downloading org.elasticsearch.plugin:reindex-client:7.17.29:jar:sources with mvn (once)');
    execFileSync(
      'mvn',
      [
        '-q',
        '-B',
        'dependency:copy',
        '-Dartifact=org.elasticsearch.plugin:reindex-client:7.17.29:jar:sources',
        `-DoutputDirectory=${downloads}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
  }
  const work = fs.mkdtempSync(path.join(cacheRoot, 'reindex-'));
  try {
    const src = ensureDir(path.join(work, 'src'));
    const classes = ensureDir(path.join(work, 'classes'));
    const staged = ensureDir(path.join(work, 'module'));
    log('building the reindex module (delete-by-query + rethrottle) from the 7.17.29 sources and the 8.19 port');
    execFileSync('unzip', ['-q', sources, ...REINDEX_SOURCES], { cwd: src, stdio: 'inherit' });
    execFileSync('patch', ['-s', '-p1', '-i', REINDEX_PATCH], { cwd: src, stdio: 'inherit' });
    const files = REINDEX_SOURCES.map((f) => path.join(src, f));
    execFileSync(jdkTool('javac'), ['-nowarn', '--release', '17', '-d', classes, '-cp', `${path.join(home, 'lib')}/*`, ...files], {
      stdio: 'inherit',
    });
    execFileSync(jdkTool('jar'), ['cf', path.join(staged, `reindex-${version}.jar`), '-C', classes, '.'], { stdio: 'inherit' });
    fs.writeFileSync(
      path.join(staged, 'plugin-descriptor.properties'),
      [
        `description=delete_by_query + rethrottle (7.17.29 reindex module ported to ${version}; test use only)`,
        `version=${version}`,
        'name=reindex',
        'java.version=17',
        `elasticsearch.version=${version}`,
        'classname=org.elasticsearch.reindex.ReindexPlugin',
        '',
      ].join('\n'),
    );
    // Moved in whole, so a node starting meanwhile sees the module complete or not at all.
    const target = path.join(home, 'modules', 'reindex');
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(staged, target);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
