// npm run bench:package: the packaged executable (issue 16), a scenario of its own.
//   - size of dist/shardeck-linux-x64 and of the .deb
//   - first data frame: the executable vs `node dist/cli.js` vs the bare-node floor (target: the
//     executable within 1.2x of the bundle), same pty method as npm run bench (bench/run.mjs)
//   - `status --json`, the whole process: the executable, the bundle, and curl doing the same reads
// Against a real node with the demo data (yellow), started here and stopped at the end.
// Writes bench/results-package.json.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNode } from '../dev/lib/es-node.mjs';
import { loadDemoData } from '../dev/demo-data.mjs';
import { bundle, timeMarkers } from './run.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXE = path.join(root, 'dist/shardeck-linux-x64');
const CLI = path.join(root, 'dist/cli.js');
const FLOOR = path.join(root, 'bench/out/floor.mjs');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 7);
const log = (m) => process.stderr.write(`bench:package: ${m}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** The requests `status` sends, as a recording proxy saw them (so curl repeats exactly those). */
async function statusRequests(url) {
  const seen = [];
  const target = new URL(url);
  const proxy = http.createServer((req, res) => {
    seen.push({ method: req.method, path: req.url });
    const up = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
  // Asynchronously: the proxy answers from this process's event loop.
  await new Promise((r) =>
    execFile(
      process.execPath,
      [CLI, 'status', '--json', '--url', `http://127.0.0.1:${proxy.address().port}`],
      { env: { ...process.env, SHARDECK_CONFIG_DIR: tmpConf } },
      r,
    ),
  );
  await new Promise((r) => proxy.close(r));
  return seen;
}

function timeProcess(argv) {
  const t0 = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SHARDECK_CONFIG_DIR: tmpConf } });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${argv.join(' ')}: exit ${r.status} ${r.stderr}`);
  return ms;
}

const tmpConf = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-package-'));
fs.chmodSync(tmpConf, 0o700);

log('npm run package, and the floor script');
// BENCH_KEEP_PACKAGE=1: measure the dist/ files as they are (a re-run of the same build).
if (!(process.env.BENCH_KEEP_PACKAGE && fs.existsSync(EXE)))
  execFileSync('npm', ['run', '-s', 'package'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
await bundle();
const results = { date: new Date().toISOString(), node: process.version, loadavg_start: os.loadavg().map((x) => round(x, 2)) };
const debFile = fs.readdirSync(path.join(root, 'dist')).find((f) => f.endsWith('_amd64.deb'));
results.size = {
  executable_mib: round(fs.statSync(EXE).size / 2 ** 20),
  deb_mib: round(fs.statSync(path.join(root, 'dist', debFile)).size / 2 ** 20),
  bundle_kib: round(
    fs
      .readdirSync(path.join(root, 'dist'))
      .filter((f) => f.endsWith('.js'))
      .reduce((n, f) => n + fs.statSync(path.join(root, 'dist', f)).size, 0) / 1024,
  ),
};

log('starting a real node with the demo data');
const node = await startNode({ name: 'bench-package' });
try {
  await loadDemoData(node.url);
  log('first data frame: executable vs bundle vs floor');
  const first = { exe: [], bundle: [], floor: [] };
  const cmd = { exe: `${EXE} --url ${node.url}`, bundle: `node ${CLI} --url ${node.url}` };
  for (const k of ['exe', 'bundle']) await timeMarkers(`env SHARDECK_CONFIG_DIR=${tmpConf} ${cmd[k]}`, { first: /YELLOW/ });
  for (let i = 0; i < RUNS; i++) {
    for (const k of ['exe', 'bundle'])
      first[k].push((await timeMarkers(`env SHARDECK_CONFIG_DIR=${tmpConf} ${cmd[k]}`, { first: /YELLOW/ })).first);
    first.floor.push((await timeMarkers(`node ${FLOOR} ${node.url}`, { done: /FLOOR-DONE/ })).done);
  }
  results.first_frame = {
    exe_ms: round(median(first.exe)),
    bundle_ms: round(median(first.bundle)),
    floor_ms: round(median(first.floor)),
    exe_vs_bundle: round(median(first.exe) / median(first.bundle), 2),
    runs: RUNS,
    runs_ms: Object.fromEntries(Object.entries(first).map(([k, v]) => [k, v.map((x) => round(x))])),
  };
  log(`  ${JSON.stringify(results.first_frame)}`);

  log('status --json, whole process: executable vs bundle vs curl doing the same reads');
  const reqs = await statusRequests(node.url);
  const curlScript = reqs.map((r) => `curl -sS -X ${r.method} '${node.url}${r.path}' -o /dev/null`).join(' && ');
  const status = { exe: [], bundle: [], curl: [] };
  for (let i = 0; i < RUNS + 1; i++) {
    const e = timeProcess([EXE, 'status', '--json', '--url', node.url]);
    const b = timeProcess([process.execPath, CLI, 'status', '--json', '--url', node.url]);
    const c = timeProcess(['sh', '-c', curlScript]);
    if (i === 0) continue; // warm-up
    status.exe.push(e);
    status.bundle.push(b);
    status.curl.push(c);
  }
  results.status_json = {
    exe_ms: round(median(status.exe)),
    bundle_ms: round(median(status.bundle)),
    curl_ms: round(median(status.curl)),
    requests: reqs.length,
    exe_vs_curl: round(median(status.exe) / median(status.curl), 2),
    method: `${reqs.length} requests; curl: one process per request, sequential (sh -c "curl ... && curl ..."), bodies discarded`,
  };
  log(`  ${JSON.stringify(results.status_json)}`);
} finally {
  await node.stop();
  fs.rmSync(tmpConf, { recursive: true, force: true });
}
results.loadavg_end = os.loadavg().map((x) => round(x, 2));
fs.writeFileSync(path.join(root, 'bench/results-package.json'), JSON.stringify(results, null, 2) + '\n');
const f = results.first_frame;
const s = results.status_json;
const rows = [
  [
    'executable size',
    `${results.size.executable_mib} MiB (.deb ${results.size.deb_mib} MiB; the bundle it replaces ${results.size.bundle_kib} KiB + Node)`,
    '',
    'n/a',
  ],
  [
    'first data frame: executable / bundle / floor',
    `${f.exe_ms} / ${f.bundle_ms} / ${f.floor_ms} ms (${f.exe_vs_bundle}x the bundle)`,
    '<= 1.2x the bundle',
    f.exe_vs_bundle <= 1.2 ? 'PASS' : 'MISS',
  ],
  [
    'status --json, whole process: executable / bundle / curl',
    `${s.exe_ms} / ${s.bundle_ms} / ${s.curl_ms} ms (${s.exe_vs_curl}x curl, ${s.requests} requests)`,
    '',
    'n/a',
  ],
];
process.stdout.write(
  `shardeck package benchmark, ${results.date}, load ${results.loadavg_start.join(' ')} -> ${results.loadavg_end.join(' ')}\n`,
);
for (const r of rows) process.stdout.write(`${r[0].padEnd(58)} ${r[1]}  ${r[2]}  ${r[3]}\n`);
process.stdout.write('written: bench/results-package.json\n');
