// npm run bench:documents: the Documents rows of the benchmark (issue 14), runnable alone.
//  - the Documents view: ms per frame scrolling 10,000 hits, and opening and scrolling a 5 MB
//    document in the JSON viewer (bench/documents-render.tsx, bundled like the product);
//  - `shardeck get` as a whole process against the same curl (medians of BENCH_GET_RUNS).
// Against BENCH_ES_URL when given, else a node started here (and stopped). Prints a table and
// writes bench/documents-results.json.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from '../dev/lib/es-node.mjs';
import { loadDemoData } from '../dev/demo-data.mjs';
import { bundle } from './run.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'bench/out');
const CLI = path.join(root, 'dist/cli.js');
const RUNS = Number(process.env.BENCH_GET_RUNS ?? 15);
const INDEX = 'service_v9_alpha';
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const log = (m) => process.stderr.write(`bench: ${m}\n`);

async function frames() {
  await bundle({ 'documents-render': 'bench/documents-render.tsx' });
  const text = execFileSync(process.execPath, [path.join(out, 'documents-render.mjs'), '30'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return JSON.parse(text.trim().split('\n').at(-1));
}

function timed(cmd, args) {
  const t0 = performance.now();
  execFileSync(cmd, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NO_COLOR: '1', SHARDECK_CONFIG_DIR: path.join(out, 'cfg') },
  });
  return performance.now() - t0;
}

async function getVsCurl() {
  let node;
  let url = process.env.BENCH_ES_URL;
  if (!url) {
    log('starting a node');
    node = await startNode({ name: 'bench-documents' });
    url = node.url;
  }
  try {
    await loadDemoData(url, { docsPerIndex: 1000, indices: [INDEX], yellowIndex: '' });
    fs.mkdirSync(path.join(out, 'cfg'), { recursive: true, mode: 0o700 });
    const id = `${INDEX}-1`;
    const shardeck = [];
    const curl = [];
    // The floor under any Node command: a bare `node -e 0`.
    const bare = [];
    // Alternating, after one warm-up of each, so both see the same machine load.
    timed(process.execPath, [CLI, 'get', INDEX, id, '--url', url]);
    timed('curl', ['-sf', `${url}/${INDEX}/_doc/${id}?pretty`]);
    for (let i = 0; i < RUNS; i++) {
      shardeck.push(timed(process.execPath, [CLI, 'get', INDEX, id, '--url', url]));
      curl.push(timed('curl', ['-sf', `${url}/${INDEX}/_doc/${id}?pretty`]));
      bare.push(timed(process.execPath, ['-e', '0']));
    }
    return {
      runs: RUNS,
      shardeck_get_ms: round(median(shardeck)),
      curl_ms: round(median(curl)),
      ratio: round(median(shardeck) / median(curl), 2),
      bare_node_ms: round(median(bare)),
      bare_node_ratio: round(median(bare) / median(curl), 2),
    };
  } finally {
    await node?.stop();
  }
}

const f = await frames();
const g = await getVsCurl();
const result = { measured_at: new Date().toISOString(), frames: f, get: g };
fs.writeFileSync(path.join(root, 'bench/documents-results.json'), JSON.stringify(result, null, 2) + '\n');
const rows = [
  ['yardstick: Indices pane, 10,000 indices, page down (median)', `${round(f.indices_pane_page_frame_ms)}`, 'same load'],
  ['10,000 hits: page down (median / max ms per frame)', `${round(f.hits_page_frame_ms)} / ${round(f.hits_page_frame_max_ms)}`, '< 16'],
  ['10,000 hits: line down (median / max ms per frame)', `${round(f.hits_line_frame_ms)} / ${round(f.hits_line_frame_max_ms)}`, '< 16'],
  [
    `${(f.doc_bytes / 2 ** 20).toFixed(1)} MB document (${f.doc_lines} lines): page down (median / max)`,
    `${round(f.doc_page_frame_ms)} / ${round(f.doc_page_frame_max_ms)}`,
    '< 16',
  ],
  ['  line down (median / max)', `${round(f.doc_line_frame_ms)} / ${round(f.doc_line_frame_max_ms)}`, '< 16'],
  ['  open (flatten + first frame) / unfold all', `${round(f.doc_open_ms)} / ${round(f.doc_unfold_all_ms)}`, 'once'],
  ['shardeck get vs curl (median ms of whole processes)', `${g.shardeck_get_ms} vs ${g.curl_ms} = ${g.ratio}x`, '<= 1.5x'],
  ['  floor: a bare `node -e 0` vs the same curl', `${g.bare_node_ms} vs ${g.curl_ms} = ${g.bare_node_ratio}x`, ''],
];
for (const [what, value, goal] of rows) process.stdout.write(`${what.padEnd(62)} ${String(value).padEnd(22)} ${goal}\n`);
