// shardeck scroll-limit [n] [--yes] [--dry-run] [--json]: open scroll contexts per node against
// search.max_open_scroll_context; with n, raises (or lowers) the limit. The CLI twin of the wizard.
import { parseScrollLimit, scrollRows, KEEP_ALIVE_NOTE, SCROLL_SETTING, type ScrollState } from '../domain/wizards/scroll';
import { scrollSession } from '../services/wizards/scroll';
import { EXIT, type CommandModule } from './support/common';
import { applyOnePlan, JSON_SCHEMA, MUTATION_OPTIONS, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { out } from './support/output';

const NAME = 'scroll-limit';

const scrollLimit: CommandModule = {
  summary: `Open scroll contexts per node against ${SCROLL_SETTING}; with a number, set the limit.`,
  usage: 'usage: shardeck scroll-limit [n] [--yes] [--dry-run] [--json] [connection flags]',
  options: { ...MUTATION_OPTIONS },
  group: 'change',
  flagHelp: { yes: 'confirm without asking', 'dry-run': 'show the preview and send nothing' },
  examples: ['shardeck scroll-limit', 'shardeck scroll-limit 1000 --dry-run', 'shardeck scroll-limit 1000 --yes'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length > 1) return usageError(NAME, 'give at most one number: shardeck scroll-limit 1000', json);
    const input = positionals[0];
    if (input !== undefined) {
      const n = parseScrollLimit(input);
      if (!n.ok) return usageError(NAME, n.error, json);
    }
    const { es, guard, close } = await openGuard(values);
    try {
      if (input !== undefined) guard.assertWritable();
      const session = scrollSession(es, guard, input ?? '');
      let state: ScrollState = await session.idle();
      if (state.phase !== 'review') throw state.phase === 'failed' ? session.failure(state.message) : new Error(state.phase);
      const rows = scrollRows(state.facts);
      const head = { schema: JSON_SCHEMA, command: NAME, limit: state.facts.limit, nodes: rows, note: KEEP_ALIVE_NOTE };
      if (!json) {
        out(`${SCROLL_SETTING}: ${state.facts.limit} per node\n`);
        for (const r of rows)
          out(
            `  ${r.name}: ${paint(r.full ? 'red' : 'green', `${r.open} open`)} of ${r.limit} allowed${r.full ? ' (full: the next scroll fails)' : ''}\n`,
          );
        out(`note: ${KEEP_ALIVE_NOTE}\n`);
      }
      if (input === undefined) {
        if (json) printJson({ ...head, ok: true });
        return EXIT.ok;
      }
      session.send({ type: 'submit' });
      state = session.getState();
      if (state.phase !== 'confirming') return usageError(NAME, state.phase === 'review' ? (state.error ?? 'invalid') : state.phase, json);
      const plan = state.plan;
      return await applyOnePlan(NAME, session, plan, guard, values, head);
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default scrollLimit;
