// shardeck balance [--json]: why shards move. The desired-balance allocator's state (8.6+,
// GET _internal/desired_balance, needs the cluster privilege manage) in plain words: per node what
// it holds and how much of it the balancer wants elsewhere, each copy not where it wants it and why
// it has not moved, the shards it finds no node for. Before 8.6: "not on this version (needs 8.6)",
// exit 5. Exit 0 balanced, 1 copies not where the balancer wants them.
import { displayText } from '../domain/text/display-text';
import { explainBalance } from '../domain/nodes/balance';
import { readBalance } from '../services/balance';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { out } from './support/output';

const NAME = 'balance';

const balance: CommandModule = {
  summary:
    'Why shards move: where the desired-balance allocator (8.6+) wants each shard copy, which are not there and why, per node; exit 0 balanced, 1 copies to move.',
  usage: 'usage: shardeck balance [--json] [connection flags]',
  group: 'inspect',
  flagHelp: {},
  examples: ['shardeck balance', "shardeck balance --json | jq '.misplaced[]'"],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length) return usageError(NAME, 'takes no arguments: shardeck balance [--json]', json);
    const { es, close } = await openGuard(values);
    try {
      const { balance: b, context } = await readBalance(es);
      const code = b.stats.undesired ? EXIT.yellow : EXIT.ok;
      if (json) {
        printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, ...b, limits: context.limits, blockedBy: context.blockedBy ?? {} });
        return code;
      }
      for (const l of explainBalance(b, context)) out(`${l.tone ? paint(l.tone, displayText(l.text)) : displayText(l.text)}\n`);
      return code;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default balance;
