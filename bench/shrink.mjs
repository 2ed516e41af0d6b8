// npm run bench:shrink (issue 42): the time to right-size a project index of about 100 MB and of
// about 1 GB (6 shards -> 1) with the built CLI on a real node started here, and how long writes to
// the project were refused (from its write block to its lift, read from the journal the run kept).
// Each size is measured BENCH_SHRINK_RUNS times (a fresh index each time); writes
// bench/shrink-results.json. SHARDECK_CLI runs another build; the node is stopped at the end.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from '../dev/lib/es-node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = process.env.SHARDECK_CLI ?? path.join(root, 'dist/cli.js');
const RUNS = Number(process.env.BENCH_SHRINK_RUNS ?? 3);
const SIZES_MB = (process.env.BENCH_SHRINK_SIZES_MB ?? '100,1024').split(',').map(Number);
const log = (msg) => process.stderr.write(`bench:shrink: ${msg}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

async function call(url, method, p, body, type = 'application/json') {
  const res = await fetch(url + p, { method, headers: { 'content-type': type }, body });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** A 6-shard project index of about `mb` MB of primaries (~1 KB documents), flushed. */
async function makeIndex(url, name, mb) {
  await call(
    url,
    'PUT',
    `/${name}`,
    JSON.stringify({
      settings: { number_of_shards: 6, number_of_replicas: 0, refresh_interval: '-1' },
      mappings: { properties: { title: { type: 'text' }, body: { type: 'text' }, n: { type: 'long' }, modified_at: { type: 'date' } } },
      aliases: { [`${name}_alias`]: {} },
    }),
  );
  const words = 'storage node shard index project platform document query merge segment replica primary'.split(' ');
  const batch = async (from, count) => {
    const lines = [];
    for (let n = from; n < from + count; n++) {
      let body = '';
      for (let w = 0; body.length < 900; w++) body += words[(n * 7 + w * 13) % words.length] + ' ' + ((n * 31 + w) % 100000) + ' ';
      lines.push(JSON.stringify({ index: {} }), JSON.stringify({ title: `document ${n}`, body, n, modified_at: '2026-01-01T00:00:00Z' }));
    }
    const r = await call(url, 'POST', `/${name}/_bulk`, lines.join('\n') + '\n', 'application/x-ndjson');
    if (r.errors) throw new Error('bulk errors');
  };
  // The bytes a document takes, from a first 50,000 (store sizes are cached 10 s after a change), then the rest.
  const first = 50_000;
  for (let n = 0; n < first; n += 5000) await batch(n, 5000);
  await call(url, 'POST', `/${name}/_flush`);
  await new Promise((r) => setTimeout(r, 11_000));
  const [probe] = await call(url, 'GET', `/_cat/indices/${name}?format=json&bytes=b&h=pri.store.size`);
  const total = Math.max(first, Math.round((mb * 1024 * 1024) / (Number(probe['pri.store.size']) / first)));
  for (let n = first; n < total; n += 5000) await batch(n, Math.min(5000, total - n));
  await call(url, 'POST', `/${name}/_refresh`);
  await call(url, 'POST', `/${name}/_flush`);
  await new Promise((r) => setTimeout(r, 11_000));
  const [row] = await call(url, 'GET', `/_cat/indices/${name}?format=json&bytes=b&h=docs.count,pri.store.size`);
  return { docs: Number(row['docs.count']), bytes: Number(row['pri.store.size']) };
}

async function main() {
  if (!process.env.SHARDECK_CLI) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-bench-shrink-'));
  const node = await startNode({ name: 'bench-shrink', heap: '1g' });
  const rows = [];
  try {
    for (const mb of SIZES_MB) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const name = `service_v9_bench_${mb}_${i}`;
        log(`${name}: indexing about ${mb} MB...`);
        const made = await makeIndex(node.url, name, mb);
        const cfg = path.join(dir, `cfg-${mb}-${i}`);
        const t0 = performance.now();
        const r = spawnSync(
          process.execPath,
          [CLI, 'shrink', name, '--url', node.url, '--shards', '1', '--yes', '--accept-data-loss', name, '--json'],
          {
            env: { ...process.env, SHARDECK_CONFIG_DIR: cfg, NO_COLOR: '1' },
            encoding: 'utf8',
            maxBuffer: 64 * 1024 * 1024,
          },
        );
        const wallMs = performance.now() - t0;
        if (r.status !== 0) throw new Error(`shrink of ${name} exited ${r.status}: ${r.stderr}`);
        const report = JSON.parse(r.stdout).report;
        // The journal the run kept: each step's time; writes were refused from the block to its lift.
        const journal = JSON.parse(fs.readFileSync(path.join(cfg, 'shrinks', fs.readdirSync(path.join(cfg, 'shrinks'))[0]), 'utf8'));
        const done = journal.runs[0].done;
        const ids = Object.keys(done);
        const refused = ids.slice(ids.indexOf('block'), ids.indexOf('unblock') + 1).reduce((s, id) => s + done[id].ms, 0);
        const stepMs = Object.fromEntries(ids.map((id) => [id, done[id].ms]));
        log(
          `${name}: ${made.docs} documents, ${(made.bytes / 2 ** 20).toFixed(0)} MB: ${Math.round(wallMs)} ms (writes refused ${refused} ms)`,
        );
        runs.push({
          docs: made.docs,
          bytes: made.bytes,
          wallMs: Math.round(wallMs),
          tookMs: report.tookMs,
          writesRefusedMs: refused,
          stepMs,
          ok: report.ok,
        });
        await call(node.url, 'DELETE', `/${name}`);
      }
      rows.push({
        sizeMb: mb,
        runs,
        median: { wallMs: median(runs.map((x) => x.wallMs)), writesRefusedMs: median(runs.map((x) => x.writesRefusedMs)) },
      });
    }
  } finally {
    await node.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const load = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const out = { measuredAt: new Date().toISOString(), node: node.version, nproc: os.availableParallelism(), loadAfter: load, rows };
  fs.writeFileSync(path.join(root, 'bench/shrink-results.json'), JSON.stringify(out, null, 2) + '\n');
  for (const r of rows)
    process.stdout.write(
      `${r.sizeMb} MB (${r.runs[0].docs} documents): right-sized in ${r.median.wallMs} ms (median of ${r.runs.length}), writes refused ${r.median.writesRefusedMs} ms\n`,
    );
}

main().catch((e) => {
  process.stderr.write(`bench:shrink: ${e.stack ?? e}\n`);
  process.exit(1);
});
