// cluster/ is the only door to Elasticsearch: no code outside it sends a request or builds a
// request path. Services read through the facade (cluster/api.ts) and change through the Guard.
// domain/ is left out on purpose: a MutationPlan (method, path, body, its read-back) is pure data
// built there so the guard can preview it; only cluster/mutations.ts sends it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');
const EXEMPT = ['cluster', 'domain'];

/** What sends a request or builds an Elasticsearch path, each with why it is refused. */
const REQUEST_BUILDING: [RegExp, string][] = [
  [/\btransport\s*\.\s*request\b/, 'sends a request with the client itself'],
  [/\bpath\s*:\s*['"`]\/_/, 'builds a request path'],
  [/`\/_[a-z]/i, 'builds an API path (template string starting with /_)'],
  [/`\/\$\{[^}]*\}\/_/, 'builds an index API path (template string /${index}/_...)'],
  [
    /['"]\/_(cluster|cat|tasks|snapshot|nodes|health_report|index_template|all|count|search|refresh|stats|settings|flush|forcemerge|delete_by_query)\b/,
    'names an API path',
  ],
  [/^import\s+(?!type\b)[^;]*from\s+['"]@elastic\/elasticsearch['"]/m, 'uses the Elasticsearch client beyond its type'],
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

/** Every line outside cluster/ (and domain/) that builds or sends a request, as "file:line: why: text". */
export function requestBuildingOutsideCluster(root = SRC): string[] {
  const hits: string[] = [];
  for (const file of sourceFiles(root)) {
    const rel = path.relative(root, file);
    if (EXEMPT.includes(rel.split(path.sep)[0])) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const [re, why] of REQUEST_BUILDING) {
      const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
      for (const m of text.matchAll(global)) {
        const line = text.slice(0, m.index).split('\n').length;
        hits.push(`${rel}:${line}: ${why}: ${text.split('\n')[line - 1].trim()}`);
      }
    }
  }
  return hits;
}

describe('one door to Elasticsearch', () => {
  it('no request is built or sent outside src/cluster/', () => {
    expect(requestBuildingOutsideCluster()).toEqual([]);
  });

  it('the check finds what it looks for', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-one-door-'));
    try {
      fs.mkdirSync(path.join(dir, 'services'));
      fs.writeFileSync(
        path.join(dir, 'services', 'bad.ts'),
        [
          "import { Client } from '@elastic/elasticsearch';",
          "const a = await client.transport.request({ method: 'GET', path: '/_cluster/health' });",
          'const b = await getJson(es, `/${encodeURIComponent(index)}/_count`);',
          "const c = await getJson(es, '/_tasks');",
          'const d = `/_snapshot/${repo}`;',
          'const ok = `/${filter}█  (Enter keep)`;',
        ].join('\n'),
      );
      fs.mkdirSync(path.join(dir, 'cluster'));
      fs.writeFileSync(
        path.join(dir, 'cluster', 'fine.ts'),
        "const a = await client.transport.request({ method: 'GET', path: '/_cluster/health' });\n",
      );
      const hits = requestBuildingOutsideCluster(dir);
      expect(hits.every((h) => h.startsWith(path.join('services', 'bad.ts')))).toBe(true);
      expect(new Set(hits.map((h) => h.split(':')[1]))).toEqual(new Set(['1', '2', '3', '4', '5']));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
