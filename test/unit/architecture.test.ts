// The layering rule of docs/ARCHITECTURE.md, checked on the real imports of src/: a layer may
// import only layers below it, ui/ never reaches cluster/, platform/ or config/ directly,
// commands/support/ never imports a command, and no file reaches itself again through its
// imports (an import cycle).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');

/** Top to bottom: each layer may import itself and any layer after it. Keep in step with docs/ARCHITECTURE.md. */
const LAYERS = ['cli', 'commands', 'ui', 'services', 'store', 'platform', 'config', 'cluster', 'keys', 'boundary', 'domain'] as const;

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

/** The targets of every relative import of a file (static, type-only, re-export, dynamic), as absolute paths without extension. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\s*\(?\s*['"](\.[^'"]+)['"]/g)].map((m) =>
    path.resolve(path.dirname(file), m[1] ?? m[2]),
  );
}

/** The source file an import names: `x` is `x.ts`, `x.tsx` or `x/index.ts(x)`. */
function resolveSource(target: string): string | undefined {
  return [`${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts'), path.join(target, 'index.tsx'), target].find(
    (f) => fs.existsSync(f) && fs.statSync(f).isFile(),
  );
}

/** Every relative import (static, re-export, dynamic) that crosses from one layer to another. */
function crossLayerImports(): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(SRC)) {
    for (const target of importsOf(file)) {
      if (!target.startsWith(SRC + path.sep)) {
        edges.push({
          file: path.relative(SRC, file),
          from: layerOf(file),
          to: `outside src (${path.relative(path.dirname(SRC), target)})`,
        });
        continue;
      }
      const from = layerOf(file);
      const to = layerOf(target);
      if (from !== to) edges.push({ file: path.relative(SRC, file), from, to });
    }
  }
  return edges;
}

/** The import graph of src/: each file (relative to src/) and the files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = importsOf(file)
      .map(resolveSource)
      .filter((t): t is string => t !== undefined && t.startsWith(SRC + path.sep));
    graph.set(path.relative(SRC, file), [...new Set(targets.map((t) => path.relative(SRC, t)))]);
  }
  return graph;
}

/** Every import cycle (Tarjan's strongly connected components with more than one file, or a file importing itself), each as `a -> b -> a`. */
function cycles(graph: Map<string, string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(pathThrough(graph, component.sort()));
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort();
}

/** One readable loop through a cycle's files, from its first file back to it. */
function pathThrough(graph: Map<string, string[]>, component: string[]): string {
  const inside = new Set(component);
  const start = component[0];
  // Breadth-first from start's successors back to start, inside the component: the shortest loop.
  const from = new Map<string, string>();
  const queue = (graph.get(start) ?? []).filter((w) => inside.has(w));
  for (const w of queue) from.set(w, start);
  while (queue.length && !from.has(start) && !queue.includes(start)) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w) || from.has(w)) continue;
      from.set(w, v);
      queue.push(w);
    }
  }
  const loop = [start];
  for (let v = from.get(start)!; v !== start; v = from.get(v)!) loop.unshift(v);
  return [start, ...loop].join(' -> ');
}

/** Inside commands/, support/ sits below the commands: what they share never imports a command (nor the table). */
function supportViolations(graph: Map<string, string[]>): string[] {
  const isSupport = (f: string) => f.startsWith('commands/support/');
  return [...graph]
    .filter(([file]) => isSupport(file))
    .flatMap(([file, targets]) =>
      targets.filter((t) => t.startsWith('commands/') && !isSupport(t)).map((t) => `${file} imports the command file ${t}`),
    );
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

  it('no file of src/ imports itself again through other files (static, type-only or dynamic imports)', () => {
    const graph = importGraph();
    expect([...graph.values()].flat().length).toBeGreaterThan(200); // the scan really resolved the imports
    expect(cycles(graph)).toEqual([]);
  });

  it('the cycle finder catches a planted cycle, a longer one and a self-import, and passes a diamond', () => {
    const graph = new Map<string, string[]>([
      ['commands/help.ts', ['commands/table.ts', 'commands/output.ts']],
      ['commands/table.ts', ['commands/help.ts']],
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
      ['self.ts', ['self.ts']],
      ['top.ts', ['left.ts', 'right.ts']],
      ['left.ts', ['bottom.ts']],
      ['right.ts', ['bottom.ts']],
      ['bottom.ts', []],
    ]);
    expect(cycles(graph)).toEqual([
      'a.ts -> b.ts -> c.ts -> a.ts',
      'commands/help.ts -> commands/table.ts -> commands/help.ts',
      'self.ts -> self.ts',
    ]);
  });

  it('commands/ holds commands; what they share is in commands/support/, which imports no command', () => {
    const graph = importGraph();
    expect([...graph.keys()].filter((f) => f.startsWith('commands/support/')).length).toBeGreaterThan(5);
    expect(supportViolations(graph)).toEqual([]);
  });

  it('the support check catches a support module that imports a command or the table', () => {
    const graph = new Map<string, string[]>([
      ['commands/support/guarded.ts', ['commands/support/output.ts', 'commands/replicas.ts', 'domain/x.ts']],
      ['commands/support/common.ts', ['commands/index.ts']],
      ['commands/replicas.ts', ['commands/support/guarded.ts']],
    ]);
    expect(supportViolations(graph)).toEqual([
      'commands/support/guarded.ts imports the command file commands/replicas.ts',
      'commands/support/common.ts imports the command file commands/index.ts',
    ]);
  });

  it('docs/ARCHITECTURE.md lists the same layers in the same order', () => {
    const doc = fs.readFileSync(path.resolve('docs/ARCHITECTURE.md'), 'utf8');
    const block = /<!-- layers:start -->([\s\S]*?)<!-- layers:end -->/.exec(doc)?.[1] ?? '';
    const listed = [...block.matchAll(/^\s*(?:src\/)?([a-z]+)(?:\/|\.tsx)/gm)].map((m) => m[1]);
    expect(listed).toEqual([...LAYERS]);
  });

  it('domain/ keeps at its top only the files docs/ARCHITECTURE.md names, and every folder is in its table', () => {
    const doc = fs.readFileSync(path.resolve('docs/ARCHITECTURE.md'), 'utf8');
    const section = /## Inside `domain\/`[\s\S]*?(?=\n## )/.exec(doc)?.[0] ?? '';
    const [intro, table] = section.split('| folder |');
    const named = [...intro.matchAll(/`([a-z-]+\.ts)`/g)].map((m) => m[1]).sort();
    const rows = (table ?? '').split('\n').filter((l) => l.startsWith('| `'));
    const folders = rows.flatMap((l) => [...l.split('|')[1].matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1])).sort();
    const entries = fs.readdirSync(path.join(SRC, 'domain'), { withFileTypes: true });
    expect(named.length).toBeGreaterThan(5);
    expect(
      entries
        .filter((e) => e.isFile())
        .map((e) => e.name)
        .sort(),
    ).toEqual(named);
    expect(
      entries
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort(),
    ).toEqual(folders);
  });
});
