// shardeck pending [--json]: the cluster-state updates the master has queued (GET
// _cluster/pending_tasks), oldest first: priority, time in queue, source. The Health pane shows the
// oldest while any wait; the doctor warns when one waited a minute.
import { oldestPending, pendingLines, PENDING_OLD_MS } from '../domain/inspect/pending-tasks';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { out } from './support/output';

const NAME = 'pending';

const pending: CommandModule = {
  summary: 'Pending cluster tasks (cluster-state updates the master has queued), oldest first. Exit 1 when one waited a minute.',
  usage: 'usage: shardeck pending [--json] [connection flags]',
  group: 'inspect',
  flagHelp: {},
  examples: ['shardeck pending', 'shardeck pending --json | jq ".tasks[0]"'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length) return usageError(NAME, 'takes no arguments: shardeck pending [--json]', json);
    const { es, close } = await openGuard(values);
    try {
      const tasks = await es.data('pendingTasks');
      const oldest = oldestPending(tasks);
      const code = oldest >= PENDING_OLD_MS ? EXIT.yellow : EXIT.ok;
      if (json) {
        printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, count: tasks.length, oldestMillis: oldest, tasks });
        return code;
      }
      if (!tasks.length) out('no pending cluster tasks\n');
      for (const l of pendingLines(tasks, 80, tasks.length)) out(`${l.tone ? paint(l.tone, l.text.trimEnd()) : l.text.trimEnd()}\n`);
      return code;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default pending;
