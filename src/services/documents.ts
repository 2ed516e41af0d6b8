// The Documents session (domain/wizards/documents.ts), driven by the console's Documents view and
// by shardeck get / search alike: reads through the facade only. A search is checked before it is
// sent: the name must mean one index, the page must fit its index.max_result_window, and every
// field the query names must be mapped (Elasticsearch answers an unmapped field with 0 hits, silently).
import { readNamedFile } from '../boundary/files';
import type { EsApi } from '../cluster/api';
import type { IndexFacts } from '../cluster/documents';
import { judgeOneIndex, unmappedFieldsError, windowError } from '../domain/inspect/documents';
import { documentsMachine, type DocsEffect, type DocsEvent, type DocsState } from '../domain/wizards/documents';
import { WizardSession } from './wizards/session';

export type DocumentsSession = WizardSession<DocsState, DocsEvent, DocsEffect>;

export function documentsSession(es: EsApi, index: string, opts: { pageSize?: number } = {}): DocumentsSession {
  // Read once per session: the facts of an index do not change while the operator pages.
  let facts: Promise<{ matched: string[] | null; facts?: IndexFacts }> | undefined;
  const factsOf = () =>
    (facts ??= es.indexFacts(index).catch((e) => {
      facts = undefined;
      throw e;
    }));
  return new WizardSession<DocsState, DocsEvent, DocsEffect>(documentsMachine(index, opts), async (f, send) => {
    switch (f.type) {
      case 'lookup': {
        const r = await es.getDocument(f.index, f.id);
        if (r.found) return send({ type: 'found', doc: r.doc, request: r.request });
        const message = r.indexMissing
          ? `no index "${f.index}" on this cluster: check the name (shardeck cat indices or the Indices pane lists them)`
          : `${f.index} has no document with _id "${f.id}": check the id (a search shows the ids it has)`;
        return send({ type: 'missing', message, request: r.request });
      }
      case 'readFile': {
        let text: string;
        try {
          text = readNamedFile(f.path, { dashIsStdin: true });
        } catch (e) {
          return send({
            type: 'rejected',
            kind: 'bad-input',
            message: `cannot read ${f.path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check the path`,
          });
        }
        return send({ type: 'fileRead', text, path: f.path === '-' ? 'standard input' : f.path, now: f.now });
      }
      case 'search': {
        const { matched, facts: known } = await factsOf();
        const one = judgeOneIndex(f.index, matched);
        if (!one.ok)
          return send({ type: 'rejected', kind: matched === null || matched.length === 0 ? 'not-found' : 'bad-input', message: one.error });
        const { maxResultWindow, fields } = known!;
        // A next page in the console stops at the window's end; a page asked for is refused whole.
        const size = f.append ? Math.min(f.size, maxResultWindow - f.from) : f.size;
        if (f.append && size <= 0)
          return send({
            type: 'rejected',
            kind: 'bad-input',
            message: `only the first ${maxResultWindow} hits can be paged (index.max_result_window of ${f.index}): narrow the query to see the rest`,
          });
        const tooFar = windowError(f.index, f.from, size, maxResultWindow);
        if (tooFar) return send({ type: 'rejected', kind: 'bad-input', message: tooFar });
        const unmapped = unmappedFieldsError(f.index, f.choice.query, fields);
        if (unmapped) return send({ type: 'rejected', kind: 'bad-input', message: unmapped });
        const page = await es.searchDocuments(f.index, f.choice.query, size, f.from);
        return send({ type: 'page', total: page.total, hits: page.hits, request: page.request, append: f.append });
      }
    }
  });
}
