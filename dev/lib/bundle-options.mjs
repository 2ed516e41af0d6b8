// How the CLI is bundled (dev/build.mjs writes it; dev/lib/bundle-closure.mjs builds it in memory
// to see what each command loads): split into chunks, one entry a command, production React.
import path from 'node:path';
import { bundleAliases } from './bundle-aliases.mjs';

export function cliBundleOptions(root) {
  return {
    entryPoints: { cli: path.join(root, 'src/cli.tsx') },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minifySyntax: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    // Stubs and narrower entry points for what the console never runs (dev/lib/bundle-aliases.mjs).
    alias: bundleAliases(root),
  };
}
