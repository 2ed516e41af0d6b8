// shardeck reroute --retry-failed [--yes] [--dry-run] [--json]: retry shard allocations that
// failed too often, and report what moved (shard states before and after).
import { allocationSession } from '../services/wizards/allocation';
import { parseTimeoutSeconds } from '../domain/text/values';
import type { CommandModule } from './support/common';
import { applyOnePlan, JSON_SCHEMA, MUTATION_OPTIONS, openGuard, reportFailure, usageError } from './support/guarded';
import { out } from './support/output';

const NAME = 'reroute';

const reroute: CommandModule = {
  summary: 'Retry failed shard allocations (POST _cluster/reroute?retry_failed=true) and report what moved.',
  usage: 'usage: shardeck reroute --retry-failed [--yes] [--dry-run] [--json] [--timeout SECONDS] [connection flags]',
  options: { ...MUTATION_OPTIONS, 'retry-failed': { type: 'boolean' }, timeout: { type: 'string' } },
  group: 'recover',
  flagHelp: {
    yes: 'confirm without asking',
    'dry-run': 'show the preview and send nothing',
    'retry-failed': 'retry the allocations that failed index.allocation.max_retries (5) times (required)',
    timeout: 'seconds to watch the shards move afterwards (default 30, at most 60)',
  },
  examples: [
    'shardeck reroute --retry-failed --dry-run',
    'shardeck reroute --retry-failed',
    'shardeck reroute --retry-failed --yes --json',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (!values['retry-failed'] || positionals.length)
      return usageError(NAME, 'only --retry-failed is supported: shardeck reroute --retry-failed', json);
    const timeout = values.timeout === undefined ? { ok: true as const, value: 30 } : parseTimeoutSeconds(String(values.timeout), 60);
    if (!timeout.ok) return usageError(NAME, timeout.error, json);
    const timeoutS = timeout.value;
    const { es, guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const session = allocationSession(es, guard, undefined, { watchTimeoutMs: timeoutS * 1000 });
      await session.idle();
      session.send({ type: 'retry', asked: true });
      const state = session.getState();
      if (state.phase !== 'retryReview')
        throw state.phase === 'failed' ? session.failure(state.message) : new Error(`stopped (${state.phase})`);
      const head = { schema: JSON_SCHEMA, command: NAME, unassignedBefore: state.unassigned };
      const code = await applyOnePlan(NAME, session, state.plan, guard, values, head);
      const done = session.getState();
      if (done.phase === 'done' && !json) {
        if (done.moves.length === 0) out('nothing moved: no shard changed state\n');
        for (const m of done.moves)
          out(`  ${m.index} shard ${m.shard} ${m.primary ? 'primary' : 'replica'}: ${m.from} -> ${m.to}${m.node ? ` on ${m.node}` : ''}\n`);
        out(
          `${done.stillUnassigned} shard${done.stillUnassigned === 1 ? '' : 's'} still unassigned${done.stillUnassigned ? ' (shardeck explain says why)' : ''}\n`,
        );
      }
      return code;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default reroute;
