// What the right-sizing tests share (issue 42): a project index made the platform's way (6 shards,
// documents, an alias and a custom setting), everything that must survive a shrink read back in
// one object, and the built CLI run as a child the test can watch line by line (and SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { esCall } from './real-node';
import { CLI } from './run-cli';

export const MAPPINGS = {
  properties: { title: { type: 'text' }, modified_at: { type: 'date' }, n: { type: 'long' }, 'assoc:sources': { type: 'keyword' } },
};

/** A project index: `shards` shards, `docs` documents, the alias <name>_alias, refresh_interval 7s and max_result_window 12345 of its own. */
export async function projectIndex(
  url: string,
  name: string,
  docs: number,
  opts: { shards?: number; replicas?: number; settings?: Record<string, unknown>; aliases?: Record<string, unknown> } = {},
): Promise<void> {
  const made = await esCall(url, 'PUT', `/${encodeURIComponent(name)}`, {
    settings: {
      number_of_shards: opts.shards ?? 6,
      number_of_replicas: opts.replicas ?? 0,
      refresh_interval: '7s',
      'index.max_result_window': 12345,
      ...opts.settings,
    },
    mappings: MAPPINGS,
    aliases: opts.aliases ?? { [`${name}_alias`]: {}, [`${name}_filtered`]: { filter: { term: { 'assoc:sources': 'src-a' } } } },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  for (let from = 0; from < docs; from += 5000) {
    const lines: string[] = [];
    for (let i = from; i < Math.min(docs, from + 5000); i++)
      lines.push(
        JSON.stringify({ index: { _id: `d${i}` } }),
        JSON.stringify({ title: `document ${i}`, n: i, modified_at: '2026-01-01T00:00:00Z', 'assoc:sources': i % 2 ? 'src-a' : 'src-b' }),
      );
    const res = await fetch(`${url}/${encodeURIComponent(name)}/_bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines.join('\n') + '\n',
    });
    const body = (await res.json()) as { errors: boolean };
    expect(body.errors).toBe(false);
  }
  // Some documents only refreshed by the shrink itself (refresh_interval 7s): the count must hold them all.
  await esCall(url, 'POST', `/${encodeURIComponent(name)}/_refresh`);
}

/** What must be the same before and after: the documents, the mapping, the aliases, the settings of its own; and what changes. */
export async function indexState(url: string, name: string) {
  const seg = encodeURIComponent(name);
  await esCall(url, 'POST', `/${seg}/_refresh`);
  const [count, mapping, aliases, settings, sum] = await Promise.all([
    esCall(url, 'GET', `/${seg}/_count`),
    esCall(url, 'GET', `/${seg}/_mapping`),
    esCall(url, 'GET', `/${seg}/_alias`),
    esCall(url, 'GET', `/${seg}/_settings?flat_settings=true`),
    esCall(url, 'POST', `/${seg}/_search`, { size: 0, aggs: { n: { sum: { field: 'n' } } } }),
  ]);
  const s = settings.body[name]?.settings ?? {};
  return {
    docs: count.body.count as number,
    sumOfN: sum.body.aggregations?.n?.value as number,
    mapping: mapping.body[name]?.mappings,
    aliases: aliases.body[name]?.aliases,
    shards: Number(s['index.number_of_shards']),
    uuid: s['index.uuid'] as string,
    own: {
      refresh: s['index.refresh_interval'],
      maxResultWindow: s['index.max_result_window'],
      replicas: s['index.number_of_replicas'],
    },
    blocked: s['index.blocks.write'] ?? null,
    routing: s['index.routing.allocation.require._name'] ?? null,
  };
}

/** Every index name (hidden ones too). */
export async function indexNames(url: string): Promise<string[]> {
  return ((await esCall(url, 'GET', '/_cat/indices?format=json&h=index&expand_wildcards=all')).body as { index: string }[]).map(
    (r) => r.index,
  );
}

export async function autoCreateIndex(url: string): Promise<{ persistent: unknown; transient: unknown }> {
  const b = (await esCall(url, 'GET', '/_cluster/settings?flat_settings=true')).body;
  return { persistent: b.persistent['action.auto_create_index'] ?? null, transient: b.transient['action.auto_create_index'] ?? null };
}

export interface Watched {
  child: ChildProcess;
  /** stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code (null when killed) and the output. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
  /** Resolves once a line matches (rejects when the process ends first). */
  line: (re: RegExp) => Promise<string>;
}

/** The built CLI as a child, watched line by line. */
export function watchCli(args: string[], env: NodeJS.ProcessEnv): Watched {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  let closed = false;
  const waiters: { re: RegExp; resolve: (l: string) => void; reject: (e: Error) => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      const m = text.split('\n').find((l) => w.re.test(l));
      if (m !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  child.stdout.on('data', (d) => {
    text += d;
    check();
  });
  child.stderr.on('data', (d) => {
    text += d;
    check();
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) =>
    child.on('close', (code, signal) => {
      closed = true;
      for (const w of waiters.splice(0)) w.reject(new Error(`the CLI ended before a line matched ${w.re}:\n${text}`));
      resolve({ code, signal, output: text });
    }),
  );
  return {
    child,
    output: () => text,
    done,
    line: (re) =>
      new Promise((resolve, reject) => {
        waiters.push({ re, resolve, reject });
        check();
        if (closed && waiters.some((w) => w.re === re)) reject(new Error(`the CLI ended before a line matched ${re}:\n${text}`));
      }),
  };
}
