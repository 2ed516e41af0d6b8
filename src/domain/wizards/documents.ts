// The Documents view of one index (and its CLI twins, shardeck get / search): look a document up
// by id, or search with the seed's queries or a JSON body (typed, or from a file), checked before
// it is sent; page through the hits; open one as JSON. Reads only: nothing here changes the cluster.
import { docChoice, type DocChoice, type DocQueryKind, type RawHit, type SearchTotal, type ShownRequest } from '../inspect/documents';
import { editLine, type LineEdit } from '../console/line-edit';
import { go, stay, type Machine, type Step } from './machine';

export type DocsFormKind = 'id' | DocQueryKind;
export const DOCS_FORM_KINDS: DocsFormKind[] = ['id', 'olderThan', 'until', 'source', 'body', 'file'];
export const DOCS_FORM_LABELS: Record<DocsFormKind, string> = {
  id: 'document id',
  olderThan: 'modified_at older than',
  until: 'modified_at up to and including',
  source: 'documents of source',
  body: 'JSON body',
  file: 'JSON body from file',
};
export const DOCS_FORM_HINTS: Record<DocsFormKind, string> = {
  id: 'the _id, e.g. alpha-42',
  olderThan: '90d, 12w, 36h or 2025-01-31',
  until: '2025-01-31T12:00:00Z or 2025-01-31',
  source: 'e.g. src-crm',
  body: '{"query": {"term": {"assoc:sources": "src-crm"}}}',
  file: 'path of a JSON body with "query"',
};

/** Hits read per page in the console (more are read as the cursor reaches the end). */
export const VIEW_PAGE = 100;

/** Why the last request gave nothing to show: the exit code of the CLI twins follows from it. */
export type DocsErrorKind = 'bad-input' | 'not-found' | 'failed';

export interface DocsHits {
  described: string;
  choice: DocChoice;
  total: SearchTotal;
  hits: RawHit[];
  /** The first hit's position in the whole result. */
  from: number;
  size: number;
}

export interface DocsState {
  index: string;
  form: { kind: DocsFormKind; value: string };
  /** The query line takes the keys. */
  editing: boolean;
  busy: boolean;
  error?: string;
  errorKind?: DocsErrorKind;
  /** The last request sent (the curl line). */
  request?: ShownRequest;
  doc?: RawHit;
  hits?: DocsHits;
  /** The hit (index into hits) or the looked-up document open as JSON. */
  open?: number | 'doc';
}

export type DocsEvent =
  | { type: 'kind'; by: 1 | -1 }
  | { type: 'line'; edit: LineEdit }
  | { type: 'edit' }
  | { type: 'submit'; now: number }
  | { type: 'lookup'; id: string }
  | { type: 'search'; choice: DocChoice; size: number; from: number }
  | { type: 'more' }
  | { type: 'open'; at: number }
  | { type: 'back' }
  | { type: 'fileRead'; text: string; path: string; now: number }
  | { type: 'found'; doc: RawHit; request: ShownRequest }
  | { type: 'missing'; message: string; request?: ShownRequest }
  | { type: 'page'; total: SearchTotal; hits: RawHit[]; request: ShownRequest; append: boolean }
  | { type: 'rejected'; message: string; kind: DocsErrorKind }
  | { type: 'cancel' }
  | { type: 'error'; message: string };

export type DocsEffect =
  | { type: 'lookup'; index: string; id: string }
  | { type: 'search'; index: string; choice: DocChoice; size: number; from: number; append: boolean }
  | { type: 'readFile'; path: string; now: number };

type S = Step<DocsState, DocsEffect>;

function searchOf(s: DocsState, choice: DocChoice, size: number, from: number): S {
  return go(
    {
      ...s,
      busy: true,
      editing: false,
      error: undefined,
      errorKind: undefined,
      open: undefined,
      doc: undefined,
      hits: { described: choice.described, choice, total: { value: 0, relation: 'eq' }, hits: [], from, size },
    },
    { type: 'search', index: s.index, choice, size, from, append: false },
  );
}

function lookupOf(s: DocsState, id: string): S {
  return go(
    { ...s, busy: true, editing: false, error: undefined, errorKind: undefined, open: undefined, hits: undefined, doc: undefined },
    { type: 'lookup', index: s.index, id },
  );
}

function reject(s: DocsState, message: string, kind: DocsErrorKind = 'bad-input'): S {
  return stay({ ...s, busy: false, error: message, errorKind: kind });
}

/** A form's input as a request, or why not (nothing is sent then). */
function submitForm(s: DocsState, now: number, pageSize: number): S {
  const { kind, value } = s.form;
  if (kind === 'id')
    return value.trim() === ''
      ? reject({ ...s, editing: true }, 'no id typed: type the _id of the document (a search shows them)')
      : lookupOf(s, value.trim());
  if (kind === 'file') {
    if (value.trim() === '')
      return reject(
        { ...s, editing: true },
        'no file typed: type the path of a JSON body such as {"query": {...}} (a logged query saved as-is)',
      );
    return go({ ...s, busy: true, editing: false, error: undefined, errorKind: undefined }, { type: 'readFile', path: value.trim(), now });
  }
  const c = docChoice(kind, value, now);
  if (!c.ok) return reject({ ...s, editing: true }, c.error.replace(/^--older-than/, 'older than').replace(/^--until/, 'until'));
  return searchOf(s, c.value, pageSize, 0);
}

export function documentsMachine(index: string, opts: { pageSize?: number } = {}): Machine<DocsState, DocsEvent, DocsEffect> {
  const pageSize = opts.pageSize ?? VIEW_PAGE;
  return {
    init: () => stay({ index, form: { kind: 'id', value: '' }, editing: true, busy: false }),
    step(s, e): S {
      switch (e.type) {
        case 'kind': {
          const n = DOCS_FORM_KINDS.length;
          const kind = DOCS_FORM_KINDS[(DOCS_FORM_KINDS.indexOf(s.form.kind) + e.by + n) % n];
          return stay({ ...s, form: { kind, value: '' }, error: undefined, errorKind: undefined });
        }
        case 'line':
          return s.editing
            ? stay({ ...s, form: { ...s.form, value: editLine(s.form.value, e.edit) }, error: undefined, errorKind: undefined })
            : stay(s);
        case 'edit':
          // f: a new lookup or search, from an empty line (Esc goes back to the typed one).
          return stay({ ...s, editing: true, open: undefined, form: { ...s.form, value: '' }, error: undefined, errorKind: undefined });
        case 'submit':
          return s.busy ? stay(s) : submitForm(s, e.now, pageSize);
        case 'lookup':
          return lookupOf(s, e.id);
        case 'search':
          return searchOf(s, e.choice, e.size, e.from);
        case 'fileRead': {
          const c = docChoice('file', e.text, e.now, e.path);
          return c.ok ? searchOf(s, c.value, pageSize, 0) : reject({ ...s, editing: true }, c.error);
        }
        case 'more': {
          const h = s.hits;
          if (!h || s.busy || h.from + h.hits.length >= h.total.value) return stay(s);
          return go(
            { ...s, busy: true },
            { type: 'search', index: s.index, choice: h.choice, size: h.size, from: h.from + h.hits.length, append: true },
          );
        }
        case 'open':
          if (s.doc) return stay({ ...s, open: 'doc' });
          return s.hits && e.at >= 0 && e.at < s.hits.hits.length ? stay({ ...s, open: e.at }) : stay(s);
        case 'back':
          // As the help says (issue 47 item 8): JSON of a hit -> the hits -> the query line, as it was
          // typed; JSON of a looked-up document -> the query line. The query line's Esc closes the view.
          if (s.open !== undefined && s.open !== 'doc') return stay({ ...s, open: undefined });
          if (s.open === 'doc') return stay({ ...s, open: undefined, editing: true });
          if (!s.editing) return stay({ ...s, editing: true });
          return stay(s);
        case 'found':
          return stay({ ...s, busy: false, doc: e.doc, request: e.request, open: 'doc' });
        case 'missing':
          return stay({
            ...s,
            busy: false,
            error: e.message,
            errorKind: 'not-found',
            editing: true,
            ...(e.request ? { request: e.request } : {}),
          });
        case 'page': {
          const h = s.hits!;
          const hits = e.append ? [...h.hits, ...e.hits] : e.hits;
          return stay({ ...s, busy: false, request: e.request, hits: { ...h, total: e.total, hits } });
        }
        case 'rejected':
          // A next page refused (beyond the window) keeps the hits read so far on screen.
          return stay({
            ...s,
            busy: false,
            error: e.message,
            errorKind: e.kind,
            editing: !s.hits?.hits.length,
            hits: s.hits?.hits.length ? s.hits : undefined,
          });
        case 'cancel':
          return stay(s);
        case 'error':
          return stay({ ...s, busy: false, error: e.message, errorKind: 'failed' });
      }
    },
  };
}

/** Whether the state shows a result the CLI reports as found (exit 0). */
export function foundSomething(s: DocsState): boolean {
  return s.errorKind === undefined && (s.doc !== undefined || (s.hits?.hits.length ?? 0) > 0);
}
