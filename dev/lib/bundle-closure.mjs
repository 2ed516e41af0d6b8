// What a command's chunk loads before it runs: its static import closure in the bundle dev/build.mjs
// makes (split into chunks, one entry a command), from esbuild's metafile. Built in memory, nothing
// written. For dev/bundle-report.mjs and the tests that keep a read-only command's start small.
import { build } from 'esbuild';
import path from 'node:path';
import os from 'node:os';
import { cliBundleOptions } from './bundle-options.mjs';

/** The bundle's outputs (esbuild's metafile), as dev/build.mjs splits it. */
export async function bundleOutputs(root) {
  const r = await build({
    ...cliBundleOptions(root),
    outdir: path.join(os.tmpdir(), 'shardeck-bundle-report'),
    metafile: true,
    logLevel: 'error',
    write: false,
  });
  return r.metafile.outputs;
}

/**
 * The outputs that load before `entrySrc` (e.g. src/commands/status.ts) runs: its chunk, what it
 * imports statically, and the cli's own; with the source files (and their bytes) in them.
 */
export function staticClosure(outs, entrySrc) {
  const seen = new Set();
  const walk = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const i of outs[name].imports) if (i.kind === 'import-statement' && outs[i.path]) walk(i.path);
  };
  const entry = Object.entries(outs).find(([, o]) => o.entryPoint === entrySrc)?.[0];
  if (!entry) throw new Error(`${entrySrc} is not an entry of the bundle`);
  walk(entry);
  walk(Object.keys(outs).find((k) => k.endsWith('/cli.js')));
  const sources = {};
  for (const f of seen) for (const [src, v] of Object.entries(outs[f].inputs)) sources[src] = (sources[src] ?? 0) + v.bytesInOutput;
  return { files: [...seen], bytes: [...seen].reduce((s, f) => s + outs[f].bytes, 0), sources };
}
