// npm run package: the files an operator copies to a storage node (issue 16).
//   dist/shardeck-linux-x64          one executable, Node's runtime inside (a single executable application)
//   dist/shardeck_<version>_amd64.deb  that executable as /usr/bin/shardeck, the man page, bash and zsh completions
// Why Node's SEA and not Bun: see the README's dependency notes.
// The SEA runs one CommonJS script, so the CLI is bundled again as CJS (no chunks); two ESM-only
// constructs are bridged: yoga-layout's top-level await (dev/sea/yoga.mjs) and Ink's dev-only
// package.json read (a top-level await that is always false in production).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');
const work = path.join(dist, 'sea');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
export const EXE = path.join(dist, 'shardeck-linux-x64');
export const DEB = path.join(dist, `shardeck_${pkg.version}_amd64.deb`);
const log = (m) => process.stderr.write(`package: ${m}\n`);

const seaBridges = {
  name: 'sea-bridges',
  setup(b) {
    b.onResolve({ filter: /^yoga-layout$/ }, () => ({ path: path.join(root, 'dev/sea/yoga.mjs') }));
    b.onLoad({ filter: /ink[\\/]build[\\/]reconciler\.js$/ }, (args) => {
      // Both top-level awaits sit behind isDev() (DEV=true, React devtools), never in production.
      let text = fs.readFileSync(args.path, 'utf8');
      const devtools = /await import\('\.\/devtools\.js'\)/;
      const packageJson = /const packageJson = isDev\(\)\s*\?\s*await loadPackageJson\(\)\s*:/;
      if (!devtools.test(text) || !packageJson.test(text)) throw new Error("Ink's dev-only top-level awaits changed: update dev/package.mjs");
      text = text.replace(devtools, 'void 0').replace(packageJson, 'const packageJson = false ? undefined :');
      return { contents: text, loader: 'js' };
    });
  },
};

async function bundleCjs() {
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  await build({
    entryPoints: [path.join(root, 'dev/sea/main.mjs')],
    outfile: path.join(work, 'shardeck.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifySyntax: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"', 'process.env.SHARDECK_VERSION': JSON.stringify(pkg.version) },
    alias: {
      'react-devtools-core': path.join(root, 'dev/stubs/react-devtools-core.mjs'),
      'supports-color': path.join(root, 'dev/sea/supports-color.cjs'),
    },
    plugins: [seaBridges],
    logLevel: 'error',
  });
}

function executable() {
  const config = path.join(work, 'sea-config.json');
  const blob = path.join(work, 'shardeck.blob');
  fs.writeFileSync(
    config,
    JSON.stringify({ main: path.join(work, 'shardeck.cjs'), output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  fs.rmSync(EXE, { force: true });
  fs.copyFileSync(process.execPath, EXE);
  fs.chmodSync(EXE, 0o755);
  try {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules/postject/dist/cli.js'), EXE, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'],
      // postject's LIEF warns about note sections it does not name: shown only when it fails.
      { stdio: 'pipe' },
    );
  } catch (e) {
    process.stderr.write(String(e.stderr ?? ''));
    throw e;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  await bundleCjs();
  executable();
  log(`${path.relative(root, EXE)} ${(fs.statSync(EXE).size / 2 ** 20).toFixed(1)} MiB in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
}
