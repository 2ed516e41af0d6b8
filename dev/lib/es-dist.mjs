// Downloads (once) and unpacks the Elasticsearch 8 distribution the harness runs.
// Source: Maven Central's integ-test-zip, fetched with mvn, the registry client these machines have.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cacheRoot, ensureDir, isRoot } from './paths.mjs';

/** The newest 8.x integ-test-zip on Maven Central when this was written (2026-11). */
export const ES_VERSION = process.env.SHARDECK_ES_VERSION || '8.19.21';

export function javaHome() {
  if (process.env.ES_JAVA_HOME) return process.env.ES_JAVA_HOME;
  if (process.env.JAVA_HOME) return process.env.JAVA_HOME;
  const java = execFileSync('sh', ['-c', 'readlink -f "$(command -v java)"'], { encoding: 'utf8' }).trim();
  if (!java) throw new Error('no java on PATH: Elasticsearch 8 needs Java 17 or newer (apt-get install openjdk-17-jre-headless)');
  return path.dirname(path.dirname(java));
}

function log(msg) {
  process.stderr.write(`[es-dist] ${msg}\n`);
}

/** Returns the unpacked ES home, downloading and unpacking it on first use. */
export function ensureDistribution(version = ES_VERSION) {
  const home = path.join(cacheRoot, `elasticsearch-${version}`);
  // Bumped whenever what gets installed changes, so existing caches are completed (-2: reindex module).
  const marker = path.join(home, '.shardeck-ready-2');
  if (fs.existsSync(marker)) return home;
  if (fs.existsSync(path.join(home, '.shardeck-ready'))) {
    // Unpacked by an older harness: add what it lacks in place (nodes of others may be running from it).
    installExtraModules(home, version);
    if (isRoot) execFileSync('chmod', ['-R', 'a+rX', path.join(home, 'modules')]);
    fs.writeFileSync(marker, new Date().toISOString() + '\n');
    return home;
  }

  ensureDir(cacheRoot);
  const downloads = ensureDir(path.join(cacheRoot, 'downloads'));
  const zip = path.join(downloads, `elasticsearch-${version}.zip`);
  if (!fs.existsSync(zip)) {
    log(`downloading org.elasticsearch.distribution.integ-test-zip:elasticsearch:${version} with mvn (once)`);
    execFileSync(
      'mvn',
      ['-q', '-B', 'dependency:copy', `-Dartifact=org.elasticsearch.distribution.integ-test-zip:elasticsearch:${version}:zip`, `-DoutputDirectory=${downloads}`],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
  }
  const staging = fs.mkdtempSync(path.join(cacheRoot, 'unpack-'));
  log(`unpacking ${path.basename(zip)}`);
  execFileSync('unzip', ['-q', zip, '-d', staging], { stdio: 'inherit' });
  fs.rmSync(home, { recursive: true, force: true });
  fs.renameSync(path.join(staging, `elasticsearch-${version}`), home);
  fs.rmSync(staging, { recursive: true, force: true });
  installExtraModules(home, version);
  // The node runs as an unprivileged user; it only needs to read the distribution.
  if (isRoot) execFileSync('chmod', ['-R', 'a+rX', home]);
  fs.writeFileSync(marker, new Date().toISOString() + '\n');
  return home;
}

/** The 7.17.29 module files the port patches (dev/reindex/reindex-8.19-port.patch). */
const REINDEX_SOURCES = [
  'AbstractAsyncBulkByScrollAction', 'AbstractBaseReindexRestHandler', 'AbstractBulkByQueryRestHandler',
  'AsyncDeleteByQueryAction', 'BulkByScrollParallelizationHelper', 'BulkIndexByScrollResponseContentListener',
  'ReindexPlugin', 'RestDeleteByQueryAction', 'RestRethrottleAction', 'RethrottleAction', 'RethrottleRequest',
  'TransportDeleteByQueryAction', 'TransportRethrottleAction', 'package-info',
].map((f) => `org/elasticsearch/reindex/${f}.java`);

const REINDEX_PATCH = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'reindex', 'reindex-8.19-port.patch');

/** javac/jar of the JDK the node runs on, else of the PATH. */
function jdkTool(name) {
  const candidates = [process.env.ES_JAVA_HOME, process.env.JAVA_HOME].filter(Boolean).map((h) => path.join(h, 'bin', name));
  const found = candidates.find((c) => fs.existsSync(c));
  if (found) return found;
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return name;
  } catch {
    throw new Error(`no ${name}: building the test node's reindex module needs a JDK 17 (apt-get install openjdk-17-jdk-headless)`);
  }
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
      ['-q', '-B', 'dependency:copy', '-Dartifact=org.elasticsearch.plugin:reindex-client:7.17.29:jar:sources', `-DoutputDirectory=${downloads}`],
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
    execFileSync(jdkTool('javac'), ['-nowarn', '--release', '17', '-d', classes, '-cp', `${path.join(home, 'lib')}/*`, ...files], { stdio: 'inherit' });
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
