// npm run package: the files an operator copies to a storage node (issue 16).
//   dist/shardeck-linux-x64          one executable, Node's runtime inside (a single executable application)
//   dist/shardeck_<version>_amd64.deb  that executable as /usr/bin/shardeck, the man page, bash and zsh completions
// Why Node's SEA and not Bun: see the dependency notes of docs/DEVELOPMENT.md.
// The SEA runs one CommonJS script, so the CLI is bundled again as CJS (no chunks); two ESM-only
// constructs are bridged: yoga-layout's top-level await (dev/sea/yoga.mjs) and Ink's dev-only
// package.json read (a top-level await that is always false in production).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { bundleAliases } from './lib/bundle-aliases.mjs';

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
      if (!devtools.test(text) || !packageJson.test(text))
        throw new Error("Ink's dev-only top-level awaits changed: update dev/package.mjs");
      text = text.replace(devtools, 'void 0').replace(packageJson, 'const packageJson = false ? undefined :');
      return { contents: text, loader: 'js' };
    });
  },
};

/** The aliases but yoga-layout's: the executable's own stand-in (dev/sea/yoga.mjs) replaces it, by the plugin. */
function withoutYoga(aliases) {
  const { 'yoga-layout': _yoga, ...rest } = aliases;
  return rest;
}

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
    // The same stubs as the bundle (dev/lib/bundle-aliases.mjs), and supports-color for the SEA.
    alias: { ...withoutYoga(bundleAliases(root)), 'supports-color': path.join(root, 'dev/sea/supports-color.cjs') },
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
  stripSymbols(EXE);
  try {
    execFileSync(
      process.execPath,
      [
        path.join(root, 'node_modules/postject/dist/cli.js'),
        EXE,
        'NODE_SEA_BLOB',
        blob,
        '--sentinel-fuse',
        'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
      ],
      // postject's LIEF warns about note sections it does not name: shown only when it fails.
      { stdio: 'pipe' },
    );
  } catch (e) {
    process.stderr.write(String(e.stderr ?? ''));
    throw e;
  }
}

/**
 * Node's own binary carries its symbol table and debug info (~12 MiB of the ~99): nothing the
 * executable runs reads them (no native addons; .dynsym, which those would need, stays). Without
 * binutils' strip the copy is kept whole.
 */
function stripSymbols(file) {
  try {
    execFileSync('strip', [file], { stdio: 'pipe' });
  } catch (e) {
    log(
      `not stripped (${e.code === 'ENOENT' ? 'no strip command' : String(e.stderr ?? e.message).trim()}): the executable keeps Node's symbols`,
    );
  }
}

/** The executable's own output (its man page, its completions): generated from its command table. */
function fromExe(...args) {
  return execFileSync(EXE, args, { env: { PATH: '/usr/bin:/bin', HOME: work }, maxBuffer: 16 << 20 });
}

function deb() {
  const stage = path.join(work, 'deb');
  fs.rmSync(stage, { recursive: true, force: true });
  // Every mode set explicitly: under umask 077 mkdir's mode gives 0700, and dpkg-deb refuses a
  // control folder that is not 0755..0775 (and the installed folders must be readable by all).
  const folder = (dir) => {
    if (dir.length <= work.length || fs.existsSync(dir)) return;
    folder(path.dirname(dir));
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
  };
  const put = (rel, content, mode = 0o644) => {
    const file = path.join(stage, rel);
    folder(path.dirname(file));
    fs.writeFileSync(file, content, { mode });
    fs.chmodSync(file, mode);
  };
  put('usr/bin/shardeck', fs.readFileSync(EXE), 0o755);
  put('usr/share/man/man1/shardeck.1.gz', gzipSync(fromExe('help', '--man'), { level: 9 }));
  put('usr/share/bash-completion/completions/shardeck', fromExe('help', '--completion', 'bash'));
  put('usr/share/zsh/vendor-completions/_shardeck', fromExe('help', '--completion', 'zsh'));
  put('usr/share/doc/shardeck/copyright', `shardeck ${pkg.version}\nLicense: ${pkg.license}\n`);
  const sizeKb = Math.ceil(fs.statSync(EXE).size / 1024) + 64;
  put(
    'DEBIAN/control',
    [
      'Package: shardeck',
      `Version: ${pkg.version}`,
      'Architecture: amd64',
      'Maintainer: shardeck maintainers <shardeck@localhost>',
      // The executable carries Node; it needs only the C and C++ runtimes every Debian has.
      'Depends: libc6 (>= 2.28), libstdc++6',
      'Section: admin',
      'Priority: optional',
      `Installed-Size: ${sizeKb}`,
      `Description: ${pkg.description.replace(/\.$/, '')}`,
      ' One executable with its runtime inside (no Node.js needed), a man page and bash/zsh completions.',
      " The operator's config (~/.config/shardeck) is never part of the package: removing it leaves it alone.",
      '',
    ].join('\n'),
  );
  fs.rmSync(DEB, { force: true });
  // -Zgzip: every dpkg reads it; --root-owner-group: root:root files whoever builds it.
  execFileSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '--build', stage, DEB], { stdio: ['ignore', 'ignore', 'inherit'] });
  fs.rmSync(stage, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  await bundleCjs();
  executable();
  deb();
  log(`${path.relative(root, DEB)} ${(fs.statSync(DEB).size / 2 ** 20).toFixed(1)} MiB`);
  log(`${path.relative(root, EXE)} ${(fs.statSync(EXE).size / 2 ** 20).toFixed(1)} MiB in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
}
