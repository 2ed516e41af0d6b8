// shardeck search INDEX (--older-than AGE|DATE | --until TIMESTAMP | --source ID | --query-file F|-)
// [--size N] [--from N] [--json]: the seed's search of one index (rule 1: run a delete's query as a
// search first), with the exact total and a page of hits, oldest modified_at first. Checked before
// anything is sent: one index, the page inside index.max_result_window, only mapped fields.
// Exit 0 hits found, 5 none (or no such index), 3 unreachable, 64 bad input. Reads only; drives
// the Documents view's session.
import { readNamedFile } from '../boundary/files';
import { countOf, formatCount } from '../domain/text/format';
import {
  checkOneIndex,
  DEFAULT_SIZE,
  docChoice,
  hitRow,
  pageText,
  parseCount,
  requestLines,
  type DocQueryKind,
} from '../domain/inspect/documents';
import { documentsSession } from '../services/documents';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { err, out } from './support/output';
import { displayText } from '../domain/text/display-text';

const NAME = 'search';

const FLAGS: [string, DocQueryKind][] = [
  ['older-than', 'olderThan'],
  ['until', 'until'],
  ['source', 'source'],
  ['query-file', 'file'],
];

const search: CommandModule = {
  summary: "Search one index with the seed's queries or a JSON body: the exact total and a page of hits (oldest first).",
  usage:
    'usage: shardeck search INDEX (--older-than 90d|2026-01-31 | --until 2026-01-31T12:00:00Z | --source ID | --query-file FILE|-) [--size N] [--from N] [--json]\n' +
    'exit 0 when documents match, 5 when none do (or the index does not exist), 3 unreachable, 64 bad input',
  group: 'inspect',
  options: {
    'older-than': { type: 'string' },
    until: { type: 'string' },
    source: { type: 'string' },
    'query-file': { type: 'string' },
    size: { type: 'string' },
    from: { type: 'string' },
  },
  flagHelp: {
    'older-than': 'modified_at before an age (90d, 12w, 36h, 1y) or an ISO date (exclusive, lt)',
    until: "modified_at up to and including a timestamp with its zone, or to the end of a date (the seed's lte)",
    source: 'documents whose assoc:sources holds this source id (term query)',
    'query-file': 'a JSON body with a top-level "query" (a logged query saved as-is); - reads standard input',
    size: `hits per page (default ${DEFAULT_SIZE}; 0: only the count); from + size may not pass index.max_result_window (10000 by default)`,
    from: 'hits to skip before the page (default 0)',
  },
  examples: [
    'shardeck search service_v9_alpha --until 2026-01-31T23:59:59Z --size 20',
    'shardeck search service_v9_alpha --source src-crm --json | jq .total',
    'shardeck search service_v9_alpha --query-file logged-query.json --from 10',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [index, ...extra] = positionals;
    if (index === undefined || extra.length)
      return usageError(NAME, 'give exactly one index: shardeck search service_v9_alpha --source src-crm', json);
    const badIndex = checkOneIndex(index);
    if (badIndex) return usageError(NAME, badIndex, json);
    const given = FLAGS.filter(([flag]) => values[flag] !== undefined);
    if (given.length !== 1)
      return usageError(
        NAME,
        `${given.length ? 'give only one' : 'give one'} of --older-than (90d or 2026-01-31), --until TIMESTAMP, --source ID or --query-file FILE to say which documents`,
        json,
      );
    const [flag, kind] = given[0];
    const size = values.size === undefined ? { ok: true as const, value: DEFAULT_SIZE } : parseCount(String(values.size), '--size', 0);
    if (!size.ok) return usageError(NAME, size.error, json);
    const from = values.from === undefined ? { ok: true as const, value: 0 } : parseCount(String(values.from), '--from', 0);
    if (!from.ok) return usageError(NAME, from.error, json);
    const now = Date.now();
    let choice;
    if (kind === 'file') {
      const file = String(values['query-file']);
      let text: string;
      try {
        text = readNamedFile(file, { dashIsStdin: true });
      } catch (e) {
        return usageError(
          NAME,
          `cannot read --query-file ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check the path`,
          json,
        );
      }
      choice = docChoice('file', text, now, file === '-' ? 'standard input' : file);
    } else choice = docChoice(kind, String(values[flag]), now);
    if (!choice.ok) return usageError(NAME, choice.error, json);

    const { es, guard, close } = await openGuard(values);
    try {
      const session = documentsSession(es, index);
      session.send({ type: 'search', choice: choice.value, size: size.value, from: from.value });
      const state = await session.idle();
      if (state.errorKind === 'failed') throw session.failure(state.error ?? 'failed');
      if (state.errorKind === 'bad-input') return usageError(NAME, state.error!, json);
      if (state.errorKind === 'not-found' || !state.hits) {
        const message = state.error ?? 'no answer';
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, index, error: message });
        err(`shardeck ${NAME}: ${message}\n`);
        return EXIT.failed;
      }
      const { hits, total } = state.hits;
      const shown = requestLines(state.request!, guard.previewConnection);
      // --size 0 is Elasticsearch's own idiom for "how many": the count, no page.
      if (size.value === 0) {
        if (json)
          printJson({
            schema: JSON_SCHEMA,
            command: NAME,
            ok: true,
            found: total.value > 0,
            index,
            query: choice.value.query,
            described: choice.value.described,
            total,
            request: shown.request,
            curl: shown.curl,
          });
        else out(`${displayText(index)}: ${choice.value.described}\n${countOf(total.value, 'document')} match\n`);
        return total.value > 0 ? EXIT.ok : EXIT.failed;
      }
      if (json)
        printJson({
          schema: JSON_SCHEMA,
          command: NAME,
          ok: true,
          found: hits.length > 0,
          index,
          query: choice.value.query,
          described: choice.value.described,
          total,
          from: from.value,
          size: size.value,
          hits,
          request: shown.request,
          curl: shown.curl,
        });
      else {
        out(`${displayText(index)}: ${choice.value.described}\n`);
        out(`${paint('bold', pageText(from.value, hits.length, total))} documents (oldest modified_at first)\n`);
        const rows = hits.map(hitRow);
        const idWidth = Math.min(40, Math.max(3, ...rows.map((r) => r.id.length)));
        for (const r of rows)
          out(
            `  ${displayText(r.id).padEnd(idWidth)}  ${displayText(r.modifiedAt).padEnd(24)}  ${displayText(r.sources)}${r.fields ? `  ${displayText(r.fields)}` : ''}\n`,
          );
        if (hits.length < total.value && from.value + hits.length < total.value)
          out(
            `next page: --from ${from.value + hits.length}${size.value !== DEFAULT_SIZE ? ` --size ${size.value}` : ''} (${formatCount(total.value - from.value - hits.length)} more)\n`,
          );
      }
      if (hits.length === 0) {
        if (!json)
          err(
            `shardeck ${NAME}: ${total.value === 0 ? 'no document matches' : `no hits from ${from.value} on (${formatCount(total.value)} match)`}\n`,
          );
        return EXIT.failed;
      }
      return EXIT.ok;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default search;
