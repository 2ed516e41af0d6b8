// Bundles src/cli.tsx into dist/ with esbuild. One bundle loads far faster than hundreds of ESM
// files (see ARCHITECTURE notes: ~220 ms vs ~480 ms to first frame); rarely used code is split
// into chunks loaded by dynamic import().
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliBundleOptions } from './lib/bundle-options.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
// SHARDECK_DIST: a build of one's own elsewhere (two sessions building at once empty each other's dist/).
const dist = process.env.SHARDECK_DIST ? path.resolve(process.env.SHARDECK_DIST) : path.join(root, 'dist');
// The bundle and its chunks go; what npm run package made (dist/shardeck*) stays until it rebuilds them.
fs.mkdirSync(dist, { recursive: true });
for (const f of fs.readdirSync(dist)) {
  if (!f.startsWith('shardeck') && f !== 'sea') fs.rmSync(path.join(dist, f), { recursive: true, force: true });
}
const options = cliBundleOptions(root);
await build({
  ...options,
  outdir: dist,
  define: { ...options.define, 'process.env.SHARDECK_VERSION': JSON.stringify(pkg.version) },
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
});
fs.chmodSync(path.join(dist, 'cli.js'), 0o755);
