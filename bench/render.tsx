// Render cost at one size, in its own process (so peak RSS belongs to that size alone):
//   tsx bench/render.tsx <rows> <repeats>   -> one JSON line on stdout.
// Synthetic `_cat/indices` and `_cat/shards` answers with the keys and value shapes of the recorded
// fixtures arrive as a poll's do (JSON text, parsed as the client does, then by the real parser
// with the previous snapshot), go into a real store, and the real App renders them to a fake
// 80x24 terminal (Ink in debug mode: every render is written at once, no frame-rate throttle, so a
// frame's time is its cost, not the throttle's wait). Nothing of an answer is kept by the
// benchmark after it is parsed: peak RSS is what the console itself holds.
import './v8-first';
import fs from 'node:fs';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import path from 'node:path';
import React from 'react';
import { App } from '../src/ui/app/App';
import { createUiStore } from '../src/ui/state';
import { createConsoleStore, setSnapshot, type PaneId, type ResourceName } from '../src/store/console';
import { RESOURCES } from '../src/cluster/resources';
import { JsonRowsDecoder } from '../src/cluster/connection';
import type { RowsParser } from '../src/domain/parse';
import { parsedAsPolled } from '../test/helpers/recorded';
import { mountOnFakeTerminal, tick } from './fake-screen';

// Run from the repository root (npm run bench); the bundle lives in bench/out/, so not from its own path.
const root = process.cwd();
const N = Number(process.argv[2] ?? 1000);
const REPEATS = Number(process.argv[3] ?? 15);

const fixture = (read: string) => JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/yellow', `${read}.json`), 'utf8'));

/** Index names like the platform's (service_v9_<project>) plus log-style ones and a few dot indices. */
function indexName(i: number): string {
  if (i % 97 === 0) return `.internal-${i}`;
  return i % 3 === 0 ? `logs-app-${String(i).padStart(6, '0')}` : `service_v9_project${i}`;
}

/**
 * The bytes of an answer as the client receives them: chunks of ~64 KB, made one row at a time
 * when asked for (as the socket delivers them), so no array of raw rows, whole JSON string or
 * whole answer is kept.
 */
function* answerBytes<T>(n: number, row: (i: number) => T): Generator<Buffer> {
  yield Buffer.from('[');
  let part: string[] = [];
  for (let i = 0; i < n; i++) {
    part.push(JSON.stringify(row(i)));
    if (part.length === 300 || i === n - 1) {
      yield Buffer.from((i + 1 > part.length ? ',' : '') + part.join(','));
      part = [];
    }
  }
  yield Buffer.from(']');
}

function catIndicesBytes(n: number, poll: number, changed: (i: number) => boolean): Generator<Buffer> {
  // The columns the poll asks for (cluster/resources.ts): the recorded row without its uuid.
  const { uuid: _uuid, ...template } = fixture('indices')[0];
  return answerBytes(n, (i) => ({
    ...template,
    health: i % 50 === 0 ? 'yellow' : 'green',
    status: 'open',
    index: indexName(i),
    pri: String(1 + (i % 6)),
    rep: String(i % 2),
    'docs.count': String(((i * 7919) % 5_000_000) + (changed(i) ? poll : 0)),
    'docs.deleted': String((i * 31) % 1000),
    'store.size': String((i * 104_729) % 9_000_000_000),
    'pri.store.size': String((i * 52_361) % 4_500_000_000),
  }));
}

function catShardsBytes(n: number, poll: number, changed: (i: number) => boolean): Generator<Buffer> {
  const template = fixture('shards')[0];
  return answerBytes(n, (i) => {
    const unassigned = i % 40 === 39;
    return {
      ...template,
      index: indexName(Math.floor(i / 5)),
      shard: String(i % 5),
      prirep: unassigned ? 'r' : 'p',
      state: unassigned ? 'UNASSIGNED' : 'STARTED',
      node: unassigned ? null : 'storage-1',
      docs: unassigned ? null : String(((i * 13) % 100_000) + (changed(i) ? poll : 0)),
      store: unassigned ? null : String((i * 977) % 900_000_000),
      'unassigned.reason': unassigned ? 'INDEX_CREATED' : null,
      'unassigned.details': null,
    };
  });
}

const PAGE_DOWN = '\u001b[6~';
const HOME = '\u001b[H';
const BACKSPACE = '\u007f';
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN;
};

/**
 * With BENCH_MEM=1 (and node --expose-gc): the live heap after each stage and V8's spaces, on
 * stderr; with BENCH_SNAP=<stage name> also a heap snapshot of that stage in /tmp. BENCH_MEM=nogc:
 * the same without collecting first (where the peak comes, undisturbed).
 */
function stage(name: string) {
  if (!process.env.BENCH_MEM) return;
  if (process.env.BENCH_MEM !== 'nogc') (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const mb = (x: number) => (x / 2 ** 20).toFixed(0);
  if (process.env.BENCH_SNAP === name) writeHeapSnapshot(`/tmp/snap-${name.replace(/ /g, '-')}.heapsnapshot`);
  process.stderr.write(
    getHeapSpaceStatistics()
      .map(
        (x: { space_name: string; space_size: number; space_used_size: number }) =>
          `${x.space_name} ${mb(x.space_size)}/${mb(x.space_used_size)}`,
      )
      .join(', ') + '\n',
  );
  process.stderr.write(
    `${name}: rss ${mb(m.rss)} heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} external ${mb(m.external)} MB, peak ${mb(process.resourceUsage().maxRSS * 1024)}\n`,
  );
}

const MB = 2 ** 20;

/**
 * What the peak is made of (issue 45 item 2), read at the end while the console still holds both
 * panes' rows: the process before any row (Node and the bundle), V8's young space (its size is
 * fixed when the process starts), the rows, lines and tables alive after a full collection (with
 * node --expose-gc), and the heap V8 keeps beyond them between collections.
 */
function peakParts(start: { rss: number; heapUsed: number }) {
  const young = getHeapSpaceStatistics().find((x: { space_name: string }) => x.space_name === 'new_space')?.space_size ?? 0;
  const committed = process.memoryUsage().heapTotal;
  (globalThis as { gc?: () => void }).gc?.();
  const live = process.memoryUsage().heapUsed - start.heapUsed;
  return {
    before_rows_rss_mb: Math.round(start.rss / MB),
    young_space_mb: Math.round(young / MB),
    live_rows_mb: Math.round(live / MB),
    heap_committed_mb: Math.round(committed / MB),
  };
}

async function main() {
  const start = process.memoryUsage();
  stage('loaded');
  const store = createConsoleStore({ connection: { url: 'http://127.0.0.1:9200', profile: 'bench', insecure: false, readOnly: false } });
  for (const name of Object.keys(RESOURCES) as ResourceName[]) {
    if (name === 'indices' || name === 'shards') continue;
    setSnapshot(store, name, { data: parsedAsPolled('yellow', name) as never, fetchedAt: Date.now(), failures: 0 });
  }
  stage('fixtures');
  const answer = (pane: 'indices' | 'shards', poll: number, changed: (i: number) => boolean) =>
    pane === 'indices' ? catIndicesBytes(N, poll, changed) : catShardsBytes(N, poll, changed);
  /**
   * One poll's answer parsed as the poller does (cluster/connection.ts readRows): each chunk, as it
   * arrives, decoded a slice at a time and its rows handed to the table's parser, which keeps the
   * rows the last snapshot repeats. `ms`: decoding and parsing only (not making the answer).
   */
  const parsePoll = (pane: 'indices' | 'shards', poll: number, changed: (i: number) => boolean) => {
    const parser = (RESOURCES[pane].rowsParser as (prev?: unknown) => RowsParser<unknown>)(store.getState().snapshots[pane].data);
    const decoder = new JsonRowsDecoder();
    let ms = 0;
    for (const chunk of answer(pane, poll, changed)) {
      const t0 = performance.now();
      for (const r of decoder.push(chunk)) parser.add(r);
      ms += performance.now() - t0;
    }
    const t0 = performance.now();
    for (const r of decoder.end()) parser.add(r);
    const data = parser.done();
    return { data, ms: ms + performance.now() - t0 };
  };
  const none = () => false;
  // The first polls' rows belong to the store alone once handed over (kept in a variable of
  // main() they would stay alive for the whole run and count against the console).
  const firstPoll = (pane: 'indices' | 'shards') => {
    const first = parsePoll(pane, 0, none);
    setSnapshot(store, pane, { data: first.data as never, fetchedAt: Date.now(), failures: 0 });
    return first.ms;
  };
  const parseMs = firstPoll('indices') + firstPoll('shards');
  stage('parsed');

  const ui = createUiStore();
  const { stdout, stdin, instance, frameAfter } = mountOnFakeTerminal(
    <App store={store} ui={ui} poller={{ refreshNow: async () => {}, diagnose: async () => {} }} />,
  );
  await tick();
  stage('first frame');

  const out: Record<string, unknown> = { rows: N, parse_ms: parseMs };
  for (const pane of ['indices', 'shards'] as const satisfies readonly PaneId[]) {
    store.setState({ pane });
    await tick();
    // A new snapshot arriving (as after each poll): the pane rebuilds its rows (join, filter, sort)
    // and draws. A poll changes 1% of the rows (writes to some indices); a few polls change every row.
    const rebuild: number[] = [];
    const pollParse: number[] = [];
    const rebuildAll: number[] = [];
    let poll = 1;
    // One poll: parsed, handed to the store, and timed to its frame. A plain function, not inline
    // in this async one: a suspended async function keeps its temporaries (the last poll's rows)
    // alive in its saved registers, which would count a set of rows the console does not hold.
    const onePoll = (poll: number, changed: (i: number) => boolean, parseTimes?: number[]) => {
      const p = parsePoll(pane, poll, changed);
      parseTimes?.push(p.ms);
      return frameAfter(() => setSnapshot(store, pane, { data: p.data as never, fetchedAt: Date.now(), failures: 0 }));
    };
    for (let i = 0; i < REPEATS; i++, poll++) rebuild.push(await onePoll(poll, (row) => row % 100 === poll % 100, pollParse));
    for (let i = 0; i < 3; i++, poll++) rebuildAll.push(await onePoll(poll, () => true));
    stage(`${pane} rebuilt`);
    if (!stdout.last.includes(pane === 'indices' ? 'logs-app-' : 'STARTED'))
      throw new Error(`the ${pane} pane did not draw its rows:\n${stdout.last}`);
    // Scrolling one page: page-down from the top, back to the top every 20 pages.
    const scroll: number[] = [];
    for (let i = 0; i < REPEATS * 2; i++) {
      if (i % 20 === 19) await frameAfter(() => stdin.write(HOME));
      scroll.push(await frameAfter(() => stdin.write(PAGE_DOWN)));
    }
    // Filter keystrokes: open the filter, type a few letters and delete them again; every key
    // refilters the whole snapshot.
    await frameAfter(() => stdin.write('/'));
    const filterKey: number[] = [];
    const word = pane === 'indices' ? 'proj' : 'unas';
    for (let r = 0; filterKey.length < REPEATS * 2; r++) {
      for (const ch of word) filterKey.push(await frameAfter(() => stdin.write(ch)));
      for (let k = 0; k < word.length; k++) filterKey.push(await frameAfter(() => stdin.write(BACKSPACE)));
    }
    await frameAfter(() => stdin.write('\u001b'));
    stage(`${pane} scrolled and filtered`);
    out[pane] = {
      rebuild_ms: median(rebuild),
      rebuild_all_changed_ms: median(rebuildAll),
      poll_parse_ms: median(pollParse),
      scroll_frame_ms: median(scroll),
      filter_key_ms: median(filterKey),
      rebuild_max_ms: Math.max(...rebuild),
      scroll_frame_max_ms: Math.max(...scroll),
      filter_key_max_ms: Math.max(...filterKey),
    };
  }
  out.peak_parts = peakParts(start);
  instance.unmount();
  out.peak_rss_mb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`render bench failed: ${e?.stack ?? e}\n`);
  process.exit(1);
});
