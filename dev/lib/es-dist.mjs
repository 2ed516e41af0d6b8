// Downloads (once) and unpacks the Elasticsearch 8 distribution the harness runs.
// Source: Maven Central's integ-test-zip, fetched with mvn, the registry client these machines have.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
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
  const marker = path.join(home, '.shardeck-ready');
  if (fs.existsSync(marker)) return home;

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

/** Modules the integ-test zip lacks that shardeck's features need (see dev/README.md). */
function installExtraModules(_home, _version) {
  // filled in by the reindex-module step, see dev/README.md
}
