// shardeck move INDEX SHARD [--to NODE] [--from NODE] [--timeout S] [--yes] [--dry-run] [--json]:
// without --to, the nodes allocation explain accepts for the copy (and why the others refuse it);
// with --to, the reroute dry run, then the move through the guard, followed until the copy is
// started on its new node.
import { displayText } from '../domain/text/display-text';
import { barText } from '../domain/text/format';
import type { MoveTargets } from '../domain/maintenance/move-shard';
import { parseTimeoutSeconds } from '../domain/text/values';
import { followMove, prepareMove } from '../services/move-shard';
import { oneChange } from '../services/one-change';
import { EXIT, type CommandModule } from './support/common';
import { applyOnePlan, JSON_SCHEMA, MUTATION_OPTIONS, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { err, out } from './support/output';
import { paint } from './support/paint';

const NAME = 'move';

function targetLines(t: MoveTargets): string {
  const lines = [
    `nodes that accept it: ${t.yes.length ? t.yes.map((n) => paint('green', displayText(n))).join(', ') : paint('yellow', 'none')}`,
  ];
  for (const n of t.no) {
    lines.push(`${paint('red', displayText(n.node))}: ${displayText(n.decision)}`);
    for (const r of n.reasons) lines.push(`    ${displayText(r)}`);
  }
  return lines.join('\n') + '\n';
}

const move: CommandModule = {
  summary: 'Move one started shard copy to another node: the nodes allocation explain accepts, a reroute dry run, then the move, followed.',
  usage: 'usage: shardeck move INDEX SHARD [--to NODE] [--from NODE] [--timeout SECONDS] [--yes] [--dry-run] [--json] [connection flags]',
  options: { ...MUTATION_OPTIONS, to: { type: 'string' }, from: { type: 'string' }, timeout: { type: 'string' } },
  group: 'change',
  flagHelp: {
    to: 'the node to move the copy to (without it: the nodes that would accept it, and why the others refuse)',
    from: 'the node whose copy moves, when the shard has several started copies (default: its only started copy)',
    timeout: 'seconds to follow the copy until it is started on its new node (default 120, at most 3600)',
    yes: 'confirm without asking',
    'dry-run': 'show the preview and send nothing',
  },
  examples: [
    'shardeck move service_v9_abc 0',
    'shardeck move service_v9_abc 0 --to node-2 --dry-run',
    'shardeck move service_v9_abc 2 --from node-1 --to node-3 --yes',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [index, shardText, ...extra] = positionals;
    if (index === undefined || shardText === undefined || extra.length)
      return usageError(NAME, 'give the index and the shard number: shardeck move service_v9_abc 0 --to node-2', json);
    if (!/^\d+$/.test(shardText)) return usageError(NAME, `shard "${shardText}" is not a shard number (0, 1, ...)`, json);
    const timeout = values.timeout === undefined ? { ok: true as const, value: 120 } : parseTimeoutSeconds(String(values.timeout), 3600);
    if (!timeout.ok) return usageError(NAME, timeout.error, json);
    const to = typeof values.to === 'string' ? values.to : undefined;
    const from = typeof values.from === 'string' ? values.from : undefined;
    const { es, guard, close } = await openGuard(values);
    try {
      if (to !== undefined) guard.assertWritable();
      const p = await prepareMove(es, guard, index, Number(shardText), { to, from });
      if (!p.ok) return usageError(NAME, p.error, json);
      const head = { schema: JSON_SCHEMA, command: NAME, index, shard: Number(shardText), copy: p.copy, targets: p.targets };
      if (!json) {
        out(`${displayText(index)} shard ${shardText} ${p.copy.primary ? 'primary' : 'replica'} on ${displayText(p.copy.node ?? '?')}\n`);
        out(targetLines(p.targets));
      }
      if (!p.move) {
        if (json) printJson({ ...head, ok: true });
        return EXIT.ok;
      }
      const { ref, plan } = p.move;
      const code = await applyOnePlan(NAME, oneChange(guard, [plan]), plan, guard, values, head);
      // --json reports the move once the node accepted it (one document); text follows it to the end.
      if (code !== EXIT.ok || values['dry-run'] || json) return code;
      let last = -1;
      const followed = await followMove(es, ref, timeout.value * 1000, (percent) => {
        if (percent === null || percent === last) return;
        last = percent;
        const bar = barText(percent, 30);
        err(`  ${paint('green', bar.filled)}${paint('dim', bar.empty)} ${percent}% copied to ${displayText(ref.to)}\n`);
      });
      out(
        followed.done
          ? `started on ${displayText(ref.to)}\n`
          : `${paint('yellow', 'still moving')} after ${timeout.value} s: it goes on by itself (shardeck recovery follows it; the move is not resent)\n`,
      );
      return followed.done ? EXIT.ok : EXIT.failed;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default move;
