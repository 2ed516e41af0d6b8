#!/usr/bin/env node
// npm run demo: the product on a real local node with demo data. Starts (or reuses) an
// Elasticsearch 8 node, loads platform-shaped demo data, starts the reference platform server and
// signs a demo profile in to it, then opens the console. The demo keeps its own config directory,
// so it never touches the operator's profiles. Stop the servers with npm run es:stop / platform:stop.
import path from 'node:path';
import { spawnSync, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { esStart } from './es.mjs';
import { loadDemoData } from './demo-data.mjs';
import { demoSnapshot } from './demo-snapshot.mjs';
import { platformSignIn } from './platform.mjs';
import { cacheRoot, ensureDir } from './lib/paths.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cli = path.join(root, 'dist/cli.js');
const configDir = process.env.SHARDECK_CONFIG_DIR || ensureDir(path.join(cacheRoot, 'demo-config'), 0o700);
const env = { ...process.env, SHARDECK_CONFIG_DIR: configDir };

const say = (m) => process.stderr.write(`[demo] ${m}\n`);

say('building shardeck');
execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
say('starting Elasticsearch (first run downloads it)');
const es = await esStart({ quiet: true });
say(`loading demo data into ${es.url}`);
await loadDemoData(es.url);
await demoSnapshot(es, say);
const saved = spawnSync(process.execPath, [cli, 'profiles', 'save', 'demo', '--url', es.url], { env, encoding: 'utf8' });
if (saved.status !== 0) throw new Error(`saving the demo profile failed: ${saved.stderr}`);
say('starting the reference platform server and signing in');
await platformSignIn({ cli, configDir, profile: 'demo' });

if (process.argv.includes('--no-tui') || !process.stdout.isTTY) {
  say(`ready: SHARDECK_CONFIG_DIR=${configDir} node dist/cli.js --profile demo`);
  console.log(`ES_URL=${es.url}`);
} else {
  const r = spawnSync(process.execPath, [cli, '--profile', 'demo'], { env, stdio: 'inherit' });
  process.exitCode = r.status ?? 0;
}
