// Documents view frame cost, in its own process:  node bench/out/documents-render.mjs <repeats>
// -> one JSON line on stdout. The real App, the real view and its real machine, in a fake 80x24
// terminal (Ink in debug mode: every render written at once, so a frame's time is its cost):
// 10,000 hits (made from hits recorded on a real node, ids and dates varied) scrolled by page and
// by line, and a 5 MB document opened and scrolled in the JSON viewer.
import fs from 'node:fs';
import path from 'node:path';
import React from 'react';
import { App } from '../src/ui/app/App';
import { createUiStore } from '../src/ui/state';
import { createConsoleStore, setSnapshot } from '../src/store/console';
import { requestLines, type RawHit, type SearchTotal } from '../src/domain/inspect/documents';
import { documentsMachine, type DocsEffect, type DocsEvent, type DocsState } from '../src/domain/wizards/documents';
import type { WizardServices } from '../src/services/wizards';
import { WizardSession } from '../src/services/wizards/session';
import { WizardServicesProvider } from '../src/ui/wizards/services';
import { mountOnFakeTerminal, tick } from './fake-screen';

const root = process.cwd();
const REPEATS = Number(process.argv[2] ?? 30);
const HITS = 10_000;
const INDEX = 'service_v9_alpha';
const recorded = JSON.parse(fs.readFileSync(path.join(root, 'test/fixtures/documents/search.json'), 'utf8')) as {
  total: SearchTotal;
  hits: RawHit[];
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN;
};
const KEYS = { pageDown: '\u001b[6~', down: '\u001b[B', home: '\u001b[H', enter: '\r', escape: '\u001b' };

function manyHits(n: number): RawHit[] {
  return Array.from({ length: n }, (_, i) => {
    const h = recorded.hits[i % recorded.hits.length];
    return {
      ...h,
      _id: `${INDEX}-${i}`,
      _source: { ...h._source, modified_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString() },
    };
  });
}

/** About `bytes` of JSON: many small records and a few long strings, as a large item document has. */
function bigDocument(bytes: number): RawHit {
  const records: Record<string, unknown>[] = [];
  let size = 0;
  for (let i = 0; size < bytes * 0.8; i++) {
    const r = {
      id: i,
      name: `attachment-${i}.pdf`,
      pages: i % 40,
      tags: ['scan', `batch-${i % 17}`],
      meta: { crc: (i * 2654435761) % 2 ** 32, ok: i % 3 !== 0 },
    };
    records.push(r);
    size += JSON.stringify(r).length;
  }
  const text = 'lorem ipsum dolor sit amet '.repeat(Math.ceil((bytes * 0.2) / 27));
  return {
    _index: INDEX,
    _id: 'big-1',
    _version: 1,
    found: true,
    _source: {
      title: 'a big item',
      modified_at: '2025-01-01T00:00:00.000Z',
      'assoc:sources': ['src-ftp'],
      body: text,
      attachments: records,
    },
  };
}

async function main() {
  let session!: WizardSession<DocsState, DocsEvent, DocsEffect>;
  const services = {
    documents: (index: string) => (session = new WizardSession(documentsMachine(index), () => Promise.resolve(undefined))),
    curlOf: (req) => requestLines(req, { url: 'http://127.0.0.1:9200' }),
  } as WizardServices;
  const store = createConsoleStore({ connection: { url: 'http://127.0.0.1:9200', profile: 'bench', insecure: false, readOnly: true } });
  // 10,000 indices too: the Indices pane scrolled in the same process is the yardstick for the
  // view's frames (this machine's load moves both alike).
  const indexRow = (name: string, i: number) => ({
    name,
    health: 'green',
    status: 'open',
    primaries: 6,
    replicas: 0,
    docsCount: i,
    docsDeleted: 0,
    storeBytes: i,
    priStoreBytes: i,
    system: false,
  });
  setSnapshot(store, 'indices', {
    data: [
      indexRow(INDEX, 0),
      ...Array.from({ length: HITS - 1 }, (_, i) => indexRow(`${INDEX}_${String(i).padStart(5, '0')}`, i + 1)),
    ] as never,
    fetchedAt: Date.now(),
    failures: 0,
  });
  store.setState({ pane: 'indices' });
  const { stdout, stdin, instance, frameAfter } = mountOnFakeTerminal(
    <WizardServicesProvider value={services}>
      <App store={store} ui={createUiStore()} poller={{ refreshNow: async () => {} }} />
    </WizardServicesProvider>,
  );
  await tick();

  const paneScroll: number[] = [];
  for (let i = 0; i < REPEATS; i++) paneScroll.push(await frameAfter(() => stdin.write(KEYS.pageDown)));
  await frameAfter(() => stdin.write(KEYS.home));
  await frameAfter(() => stdin.write('v'));
  if (!stdout.last.includes('Documents of')) throw new Error(`the view did not open:\n${stdout.last}`);
  // Leave the query line, then hand the view all 10,000 hits of a search at once.
  const hits = manyHits(HITS);
  session.send({ type: 'search', choice: { query: { match_all: {} }, described: 'all' }, size: HITS, from: 0 });
  const arrive = await frameAfter(() =>
    session.send({
      type: 'page',
      total: { value: HITS, relation: 'eq' },
      hits,
      request: { method: 'POST', path: `/${INDEX}/_search`, querystring: {} },
      append: false,
    }),
  );
  if (!stdout.last.includes(`${INDEX}-0`)) throw new Error(`the hits did not draw:\n${stdout.last}`);
  const pageScroll: number[] = [];
  const lineScroll: number[] = [];
  for (let i = 0; i < REPEATS; i++) pageScroll.push(await frameAfter(() => stdin.write(KEYS.pageDown)));
  for (let i = 0; i < REPEATS; i++) lineScroll.push(await frameAfter(() => stdin.write(KEYS.down)));
  // To the far end of the 10,000 and open the last hit.
  await frameAfter(() => stdin.write('G'));
  if (!stdout.last.includes(`${INDEX}-${HITS - 1}`)) throw new Error(`End did not reach the last hit:\n${stdout.last}`);

  // The 5 MB document: looked up (the answer arrives), then scrolled in the JSON viewer.
  await frameAfter(() => stdin.write('f'));
  const doc = bigDocument(5 * 2 ** 20);
  const docBytes = JSON.stringify(doc).length;
  session.send({ type: 'lookup', id: 'big-1' });
  const open = await frameAfter(() =>
    session.send({ type: 'found', doc, request: { method: 'GET', path: `/${INDEX}/_doc/big-1`, querystring: {} } }),
  );
  // A document this large opens as an outline (everything below the top folded).
  if (!stdout.last.includes('"_source": {…} 5 keys')) throw new Error(`the document did not draw:\n${stdout.last}`);
  // Unfolded whole (every line of it reachable), then scrolled.
  const unfold = await frameAfter(() => stdin.write('Z'));
  if (!stdout.last.includes('"a big item"')) throw new Error(`the document did not unfold:\n${stdout.last}`);
  const jsonPage: number[] = [];
  const jsonLine: number[] = [];
  for (let i = 0; i < REPEATS; i++) jsonPage.push(await frameAfter(() => stdin.write(KEYS.pageDown)));
  for (let i = 0; i < REPEATS; i++) jsonLine.push(await frameAfter(() => stdin.write(KEYS.down)));
  const toEnd = await frameAfter(() => stdin.write('G'));
  const lines = /\/(\d+) /.exec(stdout.last)?.[1];
  instance.unmount();
  process.stdout.write(
    JSON.stringify({
      hits: HITS,
      indices_pane_page_frame_ms: median(paneScroll),
      hits_arrive_ms: arrive,
      hits_page_frame_ms: median(pageScroll),
      hits_page_frame_max_ms: Math.max(...pageScroll),
      hits_line_frame_ms: median(lineScroll),
      hits_line_frame_max_ms: Math.max(...lineScroll),
      doc_bytes: docBytes,
      doc_lines: Number(lines),
      doc_open_ms: open,
      doc_unfold_all_ms: unfold,
      doc_page_frame_ms: median(jsonPage),
      doc_page_frame_max_ms: Math.max(...jsonPage),
      doc_line_frame_ms: median(jsonLine),
      doc_line_frame_max_ms: Math.max(...jsonLine),
      doc_to_end_ms: toEnd,
      peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    }) + '\n',
  );
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`documents render bench failed: ${e?.stack ?? e}\n`);
  process.exit(1);
});
