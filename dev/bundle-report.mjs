// node dev/bundle-report.mjs [src/commands/tui/index.tsx]: what a command's chunk loads before it runs (its
// static import closure in the bundle dev/build.mjs makes, from esbuild's metafile), by package or
// source folder; BY_FILE=1 lists files. Nothing is written (the bundle is built in memory).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleOutputs, staticClosure } from './lib/bundle-closure.mjs';
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outs = await bundleOutputs(root);
for (const which of [process.argv[2] ?? 'src/commands/tui/index.tsx']) {
  const { files, bytes, sources } = staticClosure(outs, which);
  const bySrc = {};
  for (const [src, v] of Object.entries(sources)) {
    const key = process.env.BY_FILE
      ? src
      : src.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1').replace(/^src\/([^/]+\/)?.*/, 'src/$1');
    bySrc[key] = (bySrc[key] ?? 0) + v;
  }
  console.log(which, 'static closure', files.length, 'files', Math.round(bytes / 1024), 'KB');
  console.log(
    Object.entries(bySrc)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([k, v]) => `${k} ${Math.round(v / 1024)}KB`)
      .join('\n'),
  );
}
