// shardeck unblock [--yes] [--dry-run] [--json]: the CLI twin of the read-only block wizard.
import { diskLevelTone, formatBytes, formatPercent } from '../domain/text/format';
import { unblockSession } from '../services/wizards/unblock';
import { EXIT, type CommandModule } from './support/common';
import { applyOnePlan, JSON_SCHEMA, MUTATION_OPTIONS, openGuard, printJson, reportFailure } from './support/guarded';
import { paint } from './support/paint';
import { err, out } from './support/output';

const NAME = 'unblock';

const unblock: CommandModule = {
  summary: "List indices blocked at flood stage and each node's disk; clear the read-only block once no node is past flood stage.",
  usage: 'usage: shardeck unblock [--include-system] [--yes] [--dry-run] [--json] [connection flags]',
  options: { ...MUTATION_OPTIONS, 'include-system': { type: 'boolean' } },
  group: 'change',
  flagHelp: {
    yes: 'confirm without asking',
    'dry-run': 'show the preview and send nothing',
    'include-system': "lift the block on Elasticsearch's own (dot) indices too (default: left, and named)",
  },
  examples: ['shardeck unblock --dry-run', 'shardeck unblock', 'shardeck unblock --yes --json'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length) {
      err(`shardeck ${NAME}: takes no arguments (it works on exactly the indices blocked at flood stage, by name)\n${unblock.usage}\n`);
      return EXIT.usage;
    }
    const { es, guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const targetOptions = { includeSystem: Boolean(values['include-system']) };
      const session = unblockSession(es, guard, targetOptions);
      const state = await session.idle();
      if (state.phase !== 'review') throw state.phase === 'failed' ? session.failure(state.message) : new Error(state.phase);
      const { review } = state;
      const head = {
        schema: JSON_SCHEMA,
        command: NAME,
        blocked: review.facts.blocked,
        disks: review.facts.disks,
        notes: review.notes,
        refusal: review.refusal ?? null,
        leftSystem: review.leftSystem ?? [],
      };
      if (!json) {
        out(
          review.facts.blocked.length ? `blocked (read_only_allow_delete): ${review.facts.blocked.join(', ')}\n` : 'no index is blocked\n',
        );
        for (const d of review.facts.disks)
          out(
            `  ${d.node}: ${paint(diskLevelTone(d.level), d.level.padEnd(5))} ${formatPercent(d.usedPercent, 1)} used, ${formatBytes(d.availBytes)} free; high at ${formatPercent(d.marks.high, 1)}, flood stage at ${formatPercent(d.marks.flood, 1)}\n`,
          );
        for (const n of review.notes) out(`note: ${n}\n`);
      }
      if (review.refusal) {
        if (json) printJson({ ...head, ok: false, sent: false });
        err(`shardeck ${NAME}: refused: ${review.refusal}\n`);
        return EXIT.failed;
      }
      if (!review.plans?.length) {
        if (json) printJson({ ...head, ok: true, sent: false });
        return EXIT.ok;
      }
      // Exactly the blocked indices, by name (several requests when the names would not fit one).
      const indices = review.facts.blocked.length - (review.leftSystem?.length ?? 0);
      return await applyOnePlan(NAME, session, review.plans, guard, values, { ...head, indices }, targetOptions);
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default unblock;
