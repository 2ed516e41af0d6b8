// A minimal Elasticsearch plugin for the plugin tests and demos: plugin-descriptor.properties and
// a jar with one class extending org.elasticsearch.plugins.Plugin, compiled with the JDK against
// the distribution's lib/*.jar. Built once per version into <cache>/plugins/. And a private copy
// of the distribution for a node whose plugins a test changes (the shared one serves every node).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDistribution, ES_VERSION, jdkTool } from './lib/es-dist.mjs';
import { ES_USER, ensureEsUser } from './lib/es-node.mjs';
import { cacheRoot, ensureDir, isRoot } from './lib/paths.mjs';

export const TEST_PLUGIN = 'shardeck-test-plugin';

/** The zip's path (readable by everyone: the engine's user reads it when it installs). */
export function buildTestPlugin(version = ES_VERSION) {
  const zip = path.join(ensureDir(path.join(cacheRoot, 'plugins')), `${TEST_PLUGIN}-${version}.zip`);
  if (fs.existsSync(zip)) return zip;
  const home = ensureDistribution(version);
  const work = fs.mkdtempSync(path.join(cacheRoot, 'plugin-build-'));
  try {
    const src = path.join(work, 'src', 'org', 'shardeck', 'test');
    fs.mkdirSync(src, { recursive: true });
    fs.writeFileSync(
      path.join(src, 'ShardeckTestPlugin.java'),
      'package org.shardeck.test;\n\nimport org.elasticsearch.plugins.Plugin;\n\n/** Does nothing: it exists to be installed, listed and removed. */\npublic class ShardeckTestPlugin extends Plugin {}\n',
    );
    const classes = path.join(work, 'classes');
    execFileSync(
      jdkTool('javac'),
      ['-nowarn', '--release', '17', '-d', classes, '-cp', `${path.join(home, 'lib')}/*`, path.join(src, 'ShardeckTestPlugin.java')],
      { stdio: 'inherit' },
    );
    const staged = path.join(work, 'zip');
    fs.mkdirSync(staged);
    execFileSync(jdkTool('jar'), ['cf', path.join(staged, `${TEST_PLUGIN}-${version}.jar`), '-C', classes, '.'], { stdio: 'inherit' });
    fs.writeFileSync(
      path.join(staged, 'plugin-descriptor.properties'),
      [
        'description=shardeck test plugin (does nothing)',
        `version=${version}`,
        `name=${TEST_PLUGIN}`,
        'classname=org.shardeck.test.ShardeckTestPlugin',
        'java.version=17',
        `elasticsearch.version=${version}`,
        '',
      ].join('\n'),
    );
    // The zip tool of the JDK (jar -M writes a plain zip without a manifest).
    const tmp = `${zip}.${process.pid}.tmp`;
    execFileSync(jdkTool('jar'), ['cfM', tmp, '-C', staged, '.'], { stdio: 'inherit' });
    fs.chmodSync(tmp, 0o644);
    fs.renameSync(tmp, zip);
    return zip;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A copy of the distribution in `dir` whose plugins/ belongs to the engine's user (as a tarball
 * install's would): a test installs plugins there without touching the nodes of other tests.
 */
export function privateHome(dir, version = ES_VERSION) {
  const home = ensureDistribution(version);
  const copy = path.join(dir, `elasticsearch-${version}`);
  execFileSync('cp', ['-a', home, copy]);
  fs.chmodSync(dir, 0o755);
  if (isRoot) {
    ensureEsUser();
    execFileSync('chown', ['-R', ES_USER, path.join(copy, 'plugins')]);
  }
  return copy;
}
