#!/usr/bin/env node
// npm run test:versions [-- 8.0.0 8.6.2 ...] [-- --url URL] [-- --docs]
// The smoke suite of every Elasticsearch 8.x minor (issue 24): on each version, ONE real node at a
// time (the machine is shared), the built CLI runs status, doctor, every pane of the console at
// 80x24 in tmux, each inspect command, each change's dry run, one real change (replicas),
// delete-by-query on a small index, forcemerge and tasks. Each feature is Y, sub (the node lacks
// it and shardeck shows its substitute) or N with the reason. Results accumulate in
// dev/versions-results.json (one entry per version, with its duration); --docs writes the table
// into docs/VERSIONS.md between <!-- versions:start --> and <!-- versions:end --> (so does npm run docs,
// from the same results: dev/docs-sections.ts).
// --url URL runs the checks against a node already running (no download, no start).
// Exit 1 when any feature is N for a reason that is shardeck's (not the test node's).
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureDistribution, reindexMissing } from './lib/es-dist.mjs';
import { addFileRealmUser, startNode, disposeStartedNodes } from './lib/es-node.mjs';
import { waitUntil } from './lib/wait.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(root, 'dist', 'cli.js');
const RESULTS = path.join(root, 'dev', 'versions-results.json');

/**
 * The newest integ-test-zip of each 8.x minor on Maven Central (its maven-metadata.xml, 2026-11-25).
 * Minors with no artifact there: 8.2, 8.3, 8.4, 8.8, 8.12, 8.16.
 */
export const MINORS = [
  '8.0.0',
  '8.1.1',
  '8.5.0',
  '8.6.2',
  '8.7.1',
  '8.9.0',
  '8.10.2',
  '8.11.3',
  '8.13.4',
  '8.14.3',
  '8.15.0',
  '8.17.4',
  '8.18.0',
  '8.19.21',
];

const INDEX = 'smoke_v';
const TEMPLATE = 'smoke_v_tpl';
const OLD_DOCS = 10;

/** The features of the table, in its order. */
export const FEATURES = [
  'status',
  'doctor',
  'pane health',
  'pane indices',
  'pane shards',
  'pane disk',
  'pane nodes',
  'pane templates',
  'pane doctor',
  'pane timeline',
  'explain',
  'tasks',
  'templates',
  'nodes',
  'mappings',
  'settings',
  'stats',
  'cat',
  'get',
  'search',
  'audit',
  'dry-run replicas',
  'dry-run unblock',
  'dry-run scroll-limit',
  'dry-run delete-by-query',
  'dry-run forcemerge',
  'dry-run component-template',
  'dry-run reroute',
  'replicas set (real)',
  'delete-by-query (real)',
  'forcemerge (real)',
  'tasks after',
];

function log(msg) {
  process.stderr.write(`[versions] ${msg}\n`);
}

/** The node's superuser for the set-up (a secured node: elastic over TLS with the node's CA). */
let admin = { headers: {}, ca: undefined };

/** One request of the set-up, with node:http(s) (a custom CA without any package). */
function es(url, method, p, body) {
  const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const u = new URL(`${url}${p}`);
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      u,
      {
        method,
        ca: admin.ca,
        headers: { 'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json', ...admin.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          res.statusCode >= 300
            ? reject(new Error(`${method} ${p}: HTTP ${res.statusCode} ${text.slice(0, 300)}`))
            : resolve(JSON.parse(text || '{}')),
        );
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/**
 * On the secured node: the documented role (docs/roles/<role>.json) and a user holding only it.
 * Returns the CLI's connection flags and environment (the password only in the environment).
 */
async function roleUser(node, role) {
  admin = {
    headers: { authorization: `Basic ${Buffer.from(`elastic:${node.password}`).toString('base64')}` },
    ca: fs.readFileSync(node.ca),
  };
  const password = `smoke-${Math.random().toString(36).slice(2, 12)}`;
  // The file realm (the test zip cannot hold native users: lib/es-node.mjs addFileRealmUser).
  addFileRealmUser(node, {
    user: `smoke_${role}`,
    password,
    roles: { [`shardeck_${role}`]: JSON.parse(fs.readFileSync(path.join(root, 'docs', 'roles', `${role}.json`), 'utf8')) },
  });
  const auth = {
    args: ['--user', `smoke_${role}`, '--password-env', 'SMOKE_ES_PW', '--ca', node.ca],
    env: { SMOKE_ES_PW: password },
  };
  // The node reads the realm's files again within seconds: wait until the user authenticates.
  await waitUntil(
    `user smoke_${role} known to the node`,
    () =>
      spawnSync(process.execPath, [CLI, 'status', '--json', '--url', node.url, ...auth.args], {
        env: { ...process.env, ...auth.env },
        encoding: 'utf8',
      }).stdout,
    (out) => !out.includes('"unauthorized"'),
    { timeoutMs: 30_000, intervalMs: 1000 },
  );
  return auth;
}

/** A small index with one replica (yellow on one node: the Health pane has something to explain), old and new documents. */
async function seed(url) {
  await es(url, 'PUT', `/_index_template/${TEMPLATE}`, {
    index_patterns: [`${INDEX}*`],
    template: { settings: { number_of_shards: 1, number_of_replicas: 1 } },
  });
  // A second run on the same node (the next role) starts from the same index again.
  await es(url, 'DELETE', `/${INDEX}?ignore_unavailable=true`);
  await es(url, 'PUT', `/${INDEX}`, {
    mappings: { properties: { modified_at: { type: 'date' }, source: { type: 'keyword' }, f: { type: 'keyword' } } },
  });
  const lines = [];
  for (let i = 0; i < 30; i++) {
    lines.push(JSON.stringify({ index: { _index: INDEX, _id: String(i) } }));
    lines.push(
      JSON.stringify({ modified_at: i < OLD_DOCS ? '2020-01-01T00:00:00Z' : new Date().toISOString(), source: `src-${i % 3}`, f: `v${i}` }),
    );
  }
  await es(url, 'POST', '/_bulk?refresh=true', lines.join('\n') + '\n');
}

/** The built CLI against the node, its own config folder (no profile of the operator is touched). */
function cli(url, env, args) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--url', url, ...connArgs], {
    env: { ...process.env, ...env, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The first line that says what went wrong, for the table's note. */
function reasonOf(out) {
  const lines = out.split('\n');
  // A missing privilege first (the roles' runs), then the first line that says what failed.
  const line =
    lines.find((l) => /lacks the (cluster|index) privilege/.test(l)) ??
    lines.find((l) => /error|cannot|unsupported|needs|failed|refus|exception|unrecognized/i.test(l) && !/started \(it cannot/.test(l)) ??
    lines.find(Boolean) ??
    '';
  return line.trim().slice(0, 160);
}

/** Runs one command; ok(code, out) decides Y; otherwise N with the command's own words. */
function check(results, feature, url, env, args, ok = (code) => code === 0) {
  const t0 = Date.now();
  const r = cli(url, env, args);
  const good = ok(r.code, r.out);
  results[feature] = good ? { v: 'Y' } : { v: 'N', why: `exit ${r.code}: ${reasonOf(r.out)}` };
  log(`${feature}: ${results[feature].v} (${Date.now() - t0} ms)${good ? '' : ` ${results[feature].why}`}`);
  return r;
}

const PANE_KEYS = {
  health: '1',
  indices: '2',
  shards: '3',
  disk: '4',
  nodes: '5',
  templates: '6',
  doctor: '7',
  timeline: '8',
  snapshots: '9',
  tasks: '0',
};
const PANE_TITLES = {
  health: 'Health',
  indices: 'Indices',
  shards: 'Shards',
  disk: 'Disk',
  nodes: 'Nodes',
  templates: 'Templates',
  doctor: 'Doctor',
  timeline: 'Timeline',
  snapshots: 'Snapshots',
  tasks: 'Tasks',
};

/** Every pane of the console at 80x24 in tmux: after its first poll, no error line, no STALE, nothing still loading. */
async function panes(results, url, env) {
  const socket = `shardeck-versions-${process.pid}`;
  const tmux = (...a) => execFileSync('tmux', ['-L', socket, ...a], { encoding: 'utf8' });
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const cmd = `env -u NO_COLOR -u CI ${envArgs.join(' ')} ${process.execPath} ${CLI} --url ${url} ${connArgs.join(' ')} --interval 1; echo EXIT=$?; sleep 300`;
  tmux('new-session', '-d', '-s', 'v', '-x', '80', '-y', '24', cmd);
  const screen = () => tmux('capture-pane', '-p', '-t', 'v');
  const bad = (s) => /STALE|retrying every|no data yet|loading…|polling paused/.exec(s)?.[0];
  try {
    for (const [pane, key] of Object.entries(PANE_KEYS)) {
      const feature = `pane ${pane}`;
      tmux('send-keys', '-t', 'v', key);
      let last = '';
      try {
        // Settled: the pane's title is drawn, and two looks a poll apart show nothing wrong.
        let calm = 0;
        await waitUntil(
          `the ${pane} pane`,
          () => {
            last = screen();
            const title = last.split('\n').some((l) => l.startsWith(PANE_TITLES[pane]));
            calm = title && !bad(last) ? calm + 1 : 0;
            return calm;
          },
          (n) => n >= 3,
          { timeoutMs: 20_000, intervalMs: 500 },
        );
        const own = pane === 'health' && last.includes("shardeck's diagnosis (no health report)");
        results[feature] = own
          ? { v: 'sub', why: 'no _health_report before 8.7: cluster health, unassigned shards by reason, disk watermarks' }
          : { v: 'Y' };
      } catch {
        const line = last.split('\n').find((l) => bad(l)) ?? '';
        results[feature] = { v: 'N', why: `${bad(last) ?? 'pane not drawn'}: ${line.trim().slice(0, 140)}` };
        fs.writeFileSync(path.join(os.tmpdir(), `shardeck-versions-${pane}.screen.txt`), last);
      }
      log(`${feature}: ${results[feature].v}${results[feature].why ? ` (${results[feature].why})` : ''}`);
    }
    tmux('send-keys', '-t', 'v', 'q');
  } finally {
    try {
      tmux('kill-server');
    } catch {
      /* gone */
    }
  }
}

/** Connection flags every CLI run gets (a role's user on the secured node); none on an open node. */
let connArgs = [];

/** The whole smoke on one running node. */
export async function smoke(url, { reindexWhy, auth } = {}) {
  const config = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-versions-'));
  const env = { SHARDECK_CONFIG_DIR: config, XDG_CONFIG_HOME: config, XDG_RUNTIME_DIR: config, ...(auth?.env ?? {}) };
  connArgs = auth?.args ?? [];
  const results = {};
  try {
    await seed(url);
    check(results, 'status', url, env, ['status'], (c) => c === 0 || c === 1);
    check(results, 'doctor', url, env, ['doctor'], (c) => c === 0 || c === 1);
    await panes(results, url, env);
    check(results, 'explain', url, env, ['explain']);
    check(results, 'tasks', url, env, ['tasks']);
    check(results, 'templates', url, env, ['templates']);
    check(results, 'nodes', url, env, ['nodes']);
    check(results, 'mappings', url, env, ['mappings', INDEX]);
    check(results, 'settings', url, env, ['settings', INDEX]);
    check(results, 'stats', url, env, ['stats', INDEX]);
    check(results, 'cat', url, env, ['cat', 'indices']);
    check(results, 'get', url, env, ['get', INDEX, '1']);
    check(results, 'search', url, env, ['search', INDEX, '--older-than', '365d']);
    check(results, 'dry-run replicas', url, env, ['replicas', 'set', INDEX, '0', '--template', TEMPLATE, '--dry-run']);
    check(results, 'dry-run unblock', url, env, ['unblock', '--dry-run']);
    check(results, 'dry-run scroll-limit', url, env, ['scroll-limit', '600', '--dry-run']);
    const dbq = check(
      results,
      'dry-run delete-by-query',
      url,
      env,
      ['delete-by-query', INDEX, '--older-than', '365d', '--dry-run'],
      (c, out) => c === 0 && out.includes(String(OLD_DOCS)),
    );
    check(results, 'dry-run forcemerge', url, env, ['forcemerge', INDEX, '--expunge-deletes', '--dry-run']);
    check(results, 'dry-run component-template', url, env, [
      'component-template',
      'put',
      'smoke_v_off',
      '--disable-field',
      'f',
      '--template',
      TEMPLATE,
      '--dry-run',
    ]);
    check(results, 'dry-run reroute', url, env, ['reroute', '--retry-failed', '--dry-run']);
    check(results, 'replicas set (real)', url, env, ['replicas', 'set', INDEX, '0', '--template', TEMPLATE, '--yes', '--timeout', '60']);
    if (reindexWhy) {
      results['delete-by-query (real)'] = { v: 'N', why: `test node only: ${reindexWhy}`, harness: true };
      log(`delete-by-query (real): N (${reindexWhy})`);
    } else {
      check(
        results,
        'delete-by-query (real)',
        url,
        env,
        ['delete-by-query', INDEX, '--older-than', '365d', '--expect', String(OLD_DOCS), '--yes'],
        (c) => c === 0,
      );
    }
    void dbq;
    check(results, 'forcemerge (real)', url, env, ['forcemerge', INDEX, '--expunge-deletes', '--yes']);
    check(results, 'tasks after', url, env, ['tasks']);
    // The audit holds the changes just made.
    check(results, 'audit', url, env, ['audit'], (c, out) => c === 0 && out.includes('replicas'));
  } finally {
    fs.rmSync(config, { recursive: true, force: true });
  }
  return results;
}

export function readResults() {
  try {
    return JSON.parse(fs.readFileSync(RESULTS, 'utf8'));
  } catch {
    return {};
  }
}

const cmpVersion = (a, b) => {
  const [va, ra = ''] = a.split(' ');
  const [vb, rb = ''] = b.split(' ');
  return (
    va
      .split('.')
      .map(Number)
      .reduce((d, x, i) => d || x - Number(vb.split('.')[i]), 0) || ra.localeCompare(rb)
  );
};

/** The docs/VERSIONS.md table: a row per feature, a column per version; N and sub explained under it. */
export function table(all) {
  const versions = Object.keys(all).sort(cmpVersion);
  const notes = [];
  const cell = (r) => {
    if (!r) return '-';
    if (r.v === 'Y') return 'Y';
    // One note for what differs only by the version it names (the test node's missing module).
    const why = r.why.replace(/against \d+\.\d+\.\d+/, 'against this minor');
    let i = notes.indexOf(why);
    if (i < 0) i = notes.push(why) - 1;
    return `${r.v} (${i + 1})`;
  };
  const out = [`| feature | ${versions.join(' | ')} |`, `| --- |${versions.map(() => ' --- |').join('')}`];
  for (const f of FEATURES) out.push(`| ${f} | ${versions.map((v) => cell(all[v].results[f])).join(' | ')} |`);
  out.push(`| smoke duration | ${versions.map((v) => `${Math.round(all[v].seconds)} s`).join(' | ')} |`);
  out.push('');
  notes.forEach((n, i) => out.push(`${i + 1}. ${n.replace(/\|/g, '\\|')}`));
  return out.join('\n');
}

function writeDoc(all) {
  const readme = path.join(root, 'docs', 'VERSIONS.md');
  const text = fs.readFileSync(readme, 'utf8');
  const start = '<!-- versions:start -->';
  const end = '<!-- versions:end -->';
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`docs/VERSIONS.md has no ${start} ... ${end} section`);
  fs.writeFileSync(readme, `${text.slice(0, i + start.length)}\n${table(all)}\n${text.slice(j)}`);
}

async function main(argv) {
  const readme = argv.includes('--docs');
  const urlAt = argv.indexOf('--url');
  const url = urlAt >= 0 ? argv[urlAt + 1] : undefined;
  const versions = argv.filter((a, i) => /^\d+\.\d+\.\d+$/.test(a) && argv[i - 1] !== '--url');
  // --roles: on ONE secured node (TLS + passwords) of each version, the smoke as a user holding
  // only the watcher role, then only the operator role (docs/roles/), recorded as "<version> watcher".
  // --roles=watcher runs only that one.
  const rolesArg = argv.find((a) => a === '--roles' || a.startsWith('--roles='));
  const roles = rolesArg ? (rolesArg.includes('=') ? rolesArg.split('=')[1].split(',') : ['watcher', 'operator']) : [null];
  if (!fs.existsSync(CLI)) execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  const all = readResults();
  let failed = false;
  const record = (version, results, seconds) => {
    all[version] = { results, seconds, at: new Date().toISOString() };
    fs.writeFileSync(RESULTS, JSON.stringify(all, null, 2) + '\n');
    failed ||= Object.values(results).some((r) => r.v === 'N' && !r.harness);
  };
  if (url) {
    const { version } = await es(url, 'GET', '/');
    const t0 = Date.now();
    record(version.number, await smoke(url), (Date.now() - t0) / 1000);
  } else {
    for (const version of versions.length ? versions : readme && !versions.length ? [] : MINORS) {
      const t0 = Date.now();
      let home;
      try {
        home = ensureDistribution(version);
      } catch (e) {
        log(`${version}: no distribution (${String(e.message).split('\n')[0]})`);
        continue;
      }
      log(`${version}: starting one ${roles[0] ? 'secured ' : ''}node`);
      let node;
      try {
        node = await startNode({ name: `versions-${version}`, home, secure: Boolean(roles[0]) });
        for (const role of roles) {
          const t1 = Date.now();
          const results = await smoke(node.url, { reindexWhy: reindexMissing(home), auth: role ? await roleUser(node, role) : undefined });
          // A role's run is timed from its own start (the node's start-up is counted in the first).
          record(role ? `${version} ${role}` : version, results, (Date.now() - (role === roles[0] ? t0 : t1)) / 1000);
        }
        log(`${version}: done in ${Math.round((Date.now() - t0) / 1000)} s`);
      } catch (e) {
        log(`${version}: ${e.message}`);
        failed = true;
      } finally {
        await disposeStartedNodes();
      }
    }
  }
  if (readme) writeDoc(all);
  process.stdout.write(table(all) + '\n');
  return failed ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
