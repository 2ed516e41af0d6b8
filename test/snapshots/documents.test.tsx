// The Documents view as the operator sees it, at 80x24 and 120x40, fed with reads recorded from a
// real 8.19.21 node (test/fixtures/documents/, dev/record-documents.ts): the query line, a page of
// hits, the curl line, a document as JSON (whole and folded), a body refused with line and column.
// The view's real machine runs; its effects are answered by the test with the recorded answers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestLines, type RawHit, type SearchTotal } from '../../src/domain/inspect/documents';
import { documentsMachine, type DocsEffect, type DocsEvent, type DocsState } from '../../src/domain/wizards/documents';
import type { WizardServices } from '../../src/services/wizards';
import { WizardSession } from '../../src/services/wizards/session';
import type { IndexRow } from '../../src/domain/types';
import { setSnapshot } from '../../src/store/console';
import { failOnConsoleError, fixture, KEYS, makeStore, NOW, renderApp, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  return () => void vi.useRealTimers();
});

const INDEX = 'service_v9_alpha';
const DOC = fixture('documents', 'doc') as RawHit;
const SEARCH = fixture('documents', 'search') as { total: SearchTotal; hits: RawHit[] };
const CONN = { url: 'http://127.0.0.1:9200', user: 'elastic' };

async function openView(columns: number, rows: number): Promise<{ session: WizardSession<DocsState, DocsEvent, DocsEffect> }> {
  let session!: WizardSession<DocsState, DocsEvent, DocsEffect>;
  const services = {
    documents: (index: string) => (session = new WizardSession(documentsMachine(index), () => Promise.resolve(undefined))),
    curlOf: (req) => requestLines(req, CONN),
  } as WizardServices;
  const store = makeStore();
  const row: IndexRow = {
    name: INDEX,
    health: 'green',
    status: 'open',
    primaries: 6,
    replicas: 0,
    docsCount: 2000,
    docsDeleted: 0,
    storeBytes: 1,
    priStoreBytes: 1,
    system: false,
  };
  setSnapshot(store, 'indices', { data: [row], fetchedAt: NOW - 3000, failures: 0 });
  store.setState({ pane: 'indices' });
  r = await renderApp(store, { columns, rows, services });
  await r.press('v');
  return { session };
}

const searchRequest = {
  method: 'POST' as const,
  path: `/${INDEX}/_search`,
  querystring: {},
  body: { query: { term: { 'assoc:sources': 'src-crm' } }, size: 100, from: 0 },
};

async function shot(name: string, columns: number, rows: number) {
  await r!.settled();
  await expect(withColourMarkers(r!.frame())).toMatchFileSnapshot(`__screens__/documents-${name}-${columns}x${rows}.txt`);
}

describe.each([
  [80, 24],
  [120, 40],
] as const)('Documents view at %ix%i', (columns, rows) => {
  it('the query line, then a page of hits of a source, with and without the curl line', async () => {
    const { session } = await openView(columns, rows);
    await shot('form', columns, rows);
    await r!.press(KEYS.tab);
    await r!.press(KEYS.tab);
    await r!.press(KEYS.tab);
    await r!.type('src-crm');
    await shot('form-source', columns, rows);
    await r!.press(KEYS.enter);
    session.send({ type: 'page', total: SEARCH.total, hits: SEARCH.hits, request: searchRequest, append: false });
    await shot('hits', columns, rows);
    await r!.press(KEYS.down);
    await r!.press('c');
    await shot('hits-curl', columns, rows);
    await r!.press(KEYS.enter);
    await shot('hit-json', columns, rows);
  });

  it('a document as JSON, folded to an outline; a typed body refused with its line and column', async () => {
    const { session } = await openView(columns, rows);
    await r!.type(DOC._id);
    await r!.press(KEYS.enter);
    session.send({ type: 'found', doc: DOC, request: { method: 'GET', path: `/${INDEX}/_doc/${DOC._id}`, querystring: {} } });
    await shot('doc', columns, rows);
    await r!.press('z');
    await shot('doc-folded', columns, rows);
    await r!.press(KEYS.escape);
    for (let i = 0; i < DOC._id.length; i++) await r!.press(KEYS.backspace);
    for (let i = 0; i < 4; i++) await r!.press(KEYS.tab);
    await r!.type('{"query": {"term": {"assoc:sources": }}}');
    await r!.press(KEYS.enter);
    await shot('body-invalid', columns, rows);
  });
});
