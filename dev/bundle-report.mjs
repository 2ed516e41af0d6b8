// node dev/bundle-report.mjs [src/commands/tui/index.tsx]: what a command's chunk loads before it runs (its
// static import closure in the bundle dev/build.mjs makes, from esbuild's metafile), by package or
// source folder; BY_FILE=1 lists files. Nothing is written (the bundle is built in memory).
import { build } from 'esbuild';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { bundleAliases } from './lib/bundle-aliases.mjs';
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const r = await build({
  entryPoints: { cli: path.join(root, 'src/cli.tsx') },
  outdir: path.join(os.tmpdir(), 'shardeck-bundle-report'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifySyntax: true,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  alias: bundleAliases(root),
  metafile: true,
  logLevel: 'error',
  write: false,
});
const outs = r.metafile.outputs;
// The static import closure of an output (what loads before it runs).
const closure = (name, seen = new Set()) => {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const i of outs[name].imports) if (i.kind === 'import-statement' && outs[i.path]) closure(i.path, seen);
  return seen;
};
const entryOf = (src) => Object.entries(outs).find(([, o]) => o.entryPoint === src)?.[0];
for (const which of [process.argv[2] ?? 'src/commands/tui/index.tsx']) {
  const out = entryOf(which);
  const files = closure(out);
  files.add(Object.keys(outs).find((k) => k.endsWith('/cli.js')));
  let total = 0;
  const bySrc = {};
  for (const f of files) {
    total += outs[f].bytes;
    for (const [src, v] of Object.entries(outs[f].inputs)) {
      const key = process.env.BY_FILE
        ? src
        : src.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1').replace(/^src\/([^/]+\/)?.*/, 'src/$1');
      bySrc[key] = (bySrc[key] ?? 0) + v.bytesInOutput;
    }
  }
  console.log(which, 'static closure', files.size, 'files', Math.round(total / 1024), 'KB');
  console.log(
    Object.entries(bySrc)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([k, v]) => `${k} ${Math.round(v / 1024)}KB`)
      .join('\n'),
  );
}
