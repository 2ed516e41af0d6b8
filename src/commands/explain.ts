// shardeck explain [index shard primary|replica] [--json]: why a shard is (un)assigned, in plain
// words. Without arguments: the first unassigned shard Elasticsearch picks. Reads only.
import { explanationLines, NO_UNASSIGNED, type ShardRef } from '../domain/wizards/allocation';
import { allocationSession } from '../services/wizards/allocation';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { out } from './support/output';

const NAME = 'explain';

export function parseShardArgs(args: string[]): { ok: true; shard?: ShardRef } | { ok: false; error: string } {
  if (args.length === 0) return { ok: true };
  const [index, shard, copy] = args;
  if (args.length !== 3 || !/^\d+$/.test(shard ?? '') || (copy !== 'primary' && copy !== 'replica'))
    return {
      ok: false,
      error: 'give all three of INDEX SHARD primary|replica (e.g. service_v9_abc 0 replica), or nothing for the first unassigned shard',
    };
  return { ok: true, shard: { index, shard: Number(shard), primary: copy === 'primary' } };
}

const explain: CommandModule = {
  summary: 'Allocation explain in plain words: why a shard is unassigned and what to do.',
  usage: 'usage: shardeck explain [INDEX SHARD primary|replica] [--json] [connection flags]',
  group: 'inspect',
  flagHelp: {},
  examples: ['shardeck explain', 'shardeck explain service_v9_alpha 0 primary', 'shardeck explain --json'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const args = parseShardArgs(positionals);
    if (!args.ok) return usageError(NAME, args.error, json);
    const { es, guard, close } = await openGuard(values);
    try {
      const session = allocationSession(es, guard, args.shard);
      const state = await session.idle();
      if (state.phase === 'failed') throw session.failure(state.message);
      if (state.phase !== 'explained') throw new Error(`stopped (${state.phase})`);
      if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, unassigned: state.unassigned, explanation: state.explanation });
      else out((state.explanation ? explanationLines(state.explanation) : [NO_UNASSIGNED]).join('\n') + '\n');
      return EXIT.ok;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default explain;
