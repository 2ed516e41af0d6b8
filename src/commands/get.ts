// shardeck get INDEX ID [--json]: one document by id (seed: GET /{index}/_doc/{item_id}), the
// question "is item X indexed, and what does it look like?". Reads only. Exit 0 found, 5 not
// found (index or id), 3 unreachable, 64 bad input. Drives the Documents view's session.
import { checkDocId, checkOneIndex, requestLines } from '../domain/inspect/documents';
import { documentsSession } from '../services/documents';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { err, out } from './support/output';

const NAME = 'get';

const get: CommandModule = {
  summary: 'Fetch one document by its id (GET /INDEX/_doc/ID): is it indexed, and what does it hold?',
  usage: 'usage: shardeck get INDEX ID [--json] [connection flags]   (exit 0 found, 5 not found, 3 unreachable, 64 bad input)',
  group: 'inspect',
  flagHelp: {},
  examples: ['shardeck get service_v9_alpha alpha-42', 'shardeck get service_v9_alpha alpha-42 --json | jq ._source'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [index, id, ...extra] = positionals;
    if (index === undefined || extra.length)
      return usageError(NAME, 'give one index and one id: shardeck get service_v9_alpha alpha-42', json);
    const bad = checkOneIndex(index) ?? checkDocId(id);
    if (bad) return usageError(NAME, bad, json);
    const { es, guard, close } = await openGuard(values);
    try {
      const session = documentsSession(es, index);
      session.send({ type: 'lookup', id: id });
      const state = await session.idle();
      if (state.errorKind === 'failed') throw session.failure(state.error ?? 'failed');
      const shown = state.request ? requestLines(state.request, guard.previewConnection) : undefined;
      if (!state.doc) {
        if (json)
          printJson({
            schema: JSON_SCHEMA,
            command: NAME,
            ok: false,
            found: false,
            index,
            id,
            error: state.error,
            ...(shown ? { request: shown.request, curl: shown.curl } : {}),
          });
        err(`shardeck ${NAME}: ${state.error}\n`);
        return EXIT.failed;
      }
      if (json)
        printJson({
          schema: JSON_SCHEMA,
          command: NAME,
          ok: true,
          found: true,
          request: shown!.request,
          curl: shown!.curl,
          document: state.doc,
        });
      else out(JSON.stringify(state.doc, null, 2) + '\n');
      return EXIT.ok;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default get;
