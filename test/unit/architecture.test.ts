// The layering rule of docs/ARCHITECTURE.md, checked on the real imports of src/: a layer may
// import only layers below it, and ui/ never reaches cluster/, platform/ or config/ directly.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');

/** Top to bottom: each layer may import itself and any layer after it. Keep in step with docs/ARCHITECTURE.md. */
const LAYERS = ['cli', 'commands', 'ui', 'services', 'store', 'platform', 'config', 'cluster', 'keys', 'domain'] as const;

/** Imports that are forbidden even though they point down the list. */
const FORBIDDEN: Record<string, string[]> = { ui: ['cluster', 'platform', 'config'] };

interface ImportEdge {
  file: string;
  from: string;
  to: string;
}

function layerOf(file: string): string {
  const rel = path.relative(SRC, file);
  return rel.includes(path.sep) ? rel.split(path.sep)[0] : rel.replace(/\.tsx?$/, '');
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

/** Every relative import (static, re-export, dynamic) that crosses from one layer to another. */
function crossLayerImports(): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
      const target = path.resolve(path.dirname(file), m[1] ?? m[2]);
      if (!target.startsWith(SRC + path.sep)) {
        edges.push({ file: path.relative(SRC, file), from: layerOf(file), to: `outside src (${path.relative(path.dirname(SRC), target)})` });
        continue;
      }
      const from = layerOf(file);
      const to = layerOf(target);
      if (from !== to) edges.push({ file: path.relative(SRC, file), from, to });
    }
  }
  return edges;
}

/** The edges that break the rule, each as one readable line. */
function violations(edges: ImportEdge[]): string[] {
  const rank = (l: string) => (LAYERS as readonly string[]).indexOf(l);
  return edges
    .filter((e) => rank(e.from) < 0 || rank(e.to) < 0 || rank(e.to) < rank(e.from) || FORBIDDEN[e.from]?.includes(e.to))
    .map((e) => `${e.file}: ${e.from}/ imports ${e.to}/`);
}

describe('layering (docs/ARCHITECTURE.md)', () => {
  it('src/ imports only downward, and ui/ never imports cluster/, platform/ or config/', () => {
    const edges = crossLayerImports();
    expect(edges.length).toBeGreaterThan(20); // the scan really found the imports
    expect(violations(edges)).toEqual([]);
  });

  it('the checker catches an upward import, a forbidden one, an unknown layer and an escape from src/', () => {
    expect(
      violations([
        { file: 'domain/x.ts', from: 'domain', to: 'services' },
        { file: 'ui/x.tsx', from: 'ui', to: 'cluster' },
        { file: 'ui/y.tsx', from: 'ui', to: 'config' },
        { file: 'newlayer/x.ts', from: 'newlayer', to: 'domain' },
        { file: 'services/x.ts', from: 'services', to: 'outside src (dev/lib/es-node.mjs)' },
        { file: 'commands/x.ts', from: 'commands', to: 'services' },
      ]),
    ).toEqual([
      'domain/x.ts: domain/ imports services/',
      'ui/x.tsx: ui/ imports cluster/',
      'ui/y.tsx: ui/ imports config/',
      'newlayer/x.ts: newlayer/ imports domain/',
      'services/x.ts: services/ imports outside src (dev/lib/es-node.mjs)/',
    ]);
  });

  it('docs/ARCHITECTURE.md lists the same layers in the same order', () => {
    const doc = fs.readFileSync(path.resolve('docs/ARCHITECTURE.md'), 'utf8');
    const block = /<!-- layers:start -->([\s\S]*?)<!-- layers:end -->/.exec(doc)?.[1] ?? '';
    const listed = [...block.matchAll(/^\s*(?:src\/)?([a-z]+)(?:\/|\.tsx)/gm)].map((m) => m[1]);
    expect(listed).toEqual([...LAYERS]);
  });
});
