// shardeck explain [index shard [primary|replica]] [--json]: why a shard is (un)assigned, in plain
// words. Without the copy: the shard's unassigned one. Without arguments: the first unassigned shard
// Elasticsearch picks. Reads only.
import type { ShardRow } from '../domain/types';
import { explanationLines, NO_UNASSIGNED, type ShardRef } from '../domain/wizards/allocation';
import { allocationSession } from '../services/wizards/allocation';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { out } from './support/output';

const NAME = 'explain';

/** A shard named on the line; `primary` undefined: INDEX SHARD without the copy (its unassigned copy is explained). */
type NamedShard = Omit<ShardRef, 'primary'> & { primary?: boolean };

export function parseShardArgs(args: string[]): { ok: true; shard?: NamedShard } | { ok: false; error: string } {
  if (args.length === 0) return { ok: true };
  const [index, shard, copy] = args;
  if (args.length < 2 || args.length > 3 || !/^\d+$/.test(shard ?? '') || (copy !== undefined && copy !== 'primary' && copy !== 'replica'))
    return {
      ok: false,
      error: 'give INDEX SHARD [primary|replica] (e.g. service_v9_abc 0 replica), or nothing for the first unassigned shard',
    };
  return { ok: true, shard: { index, shard: Number(shard), ...(copy ? { primary: copy === 'primary' } : {}) } };
}

/** The copy to explain when none was named: the shard's unassigned copy (its primary first), else its primary. */
export function copyToExplain(rows: readonly ShardRow[], s: NamedShard): ShardRef {
  if (s.primary !== undefined) return { ...s, primary: s.primary };
  const copies = rows.filter((r) => r.index === s.index && r.shard === s.shard);
  const unassigned = copies.filter((r) => r.state === 'UNASSIGNED').sort((a, b) => Number(b.primary) - Number(a.primary))[0];
  return { index: s.index, shard: s.shard, primary: unassigned ? unassigned.primary : true };
}

const explain: CommandModule = {
  summary: 'Allocation explain in plain words: why a shard is unassigned and what to do.',
  usage: 'usage: shardeck explain [INDEX SHARD [primary|replica]] [--json] [connection flags]',
  group: 'inspect',
  flagHelp: {},
  examples: ['shardeck explain', 'shardeck explain service_v9_alpha 0', 'shardeck explain service_v9_alpha 0 primary --json'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const args = parseShardArgs(positionals);
    if (!args.ok) return usageError(NAME, args.error, json);
    const { es, guard, close } = await openGuard(values);
    try {
      const named = args.shard;
      const session = allocationSession(
        es,
        guard,
        named ? copyToExplain(named.primary === undefined ? await es.data('shards') : [], named) : undefined,
      );
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
