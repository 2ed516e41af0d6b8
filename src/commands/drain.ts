// shardeck drain NODE [--yes] | drain --undo NODE: moves every shard off a node by adding its
// exact name to cluster.routing.allocation.exclude._name (merged with what is there; the guard
// records the value before, so the next shardeck offers to put it back), then follows the node
// until it holds no shards, saying what blocks the move. --undo removes exactly that name.
import { blockerLines, progressLine, type MoveBlocker } from '../domain/maintenance/drain';
import { displayText } from '../domain/text/display-text';
import { prepareDrain, watchDrain } from '../services/drain';
import { performMutations } from '../services/wizards/session';
import { EXIT, type CommandModule } from './support/common';
import {
  confirmOnTerminal,
  JSON_SCHEMA,
  MUTATION_OPTIONS,
  openGuard,
  previews,
  printJson,
  printPreviews,
  reportFailure,
  usageError,
  warnAudit,
} from './support/guarded';
import { err, out } from './support/output';
import { paint } from './support/paint';

const NAME = 'drain';
const DEFAULT_WAIT_S = 600;

const drain: CommandModule = {
  summary: 'Move every shard off a node (its name added to the allocation exclude, recorded), follow it to empty; --undo lets shards back.',
  usage: [
    'usage: shardeck drain NODE [--yes] [--dry-run] [--wait-timeout SECONDS] [--json] [connection flags]',
    '       shardeck drain --undo NODE [--yes] [--dry-run] [--json] [connection flags]',
    "NODE is one node's exact name. Other excludes are kept; the value before is recorded, so a drain left behind is offered",
    'back by the next shardeck. Run it again on a drained node to follow it (and see what blocks the move).',
  ].join('\n'),
  options: { ...MUTATION_OPTIONS, undo: { type: 'boolean' }, 'wait-timeout': { type: 'string' } },
  group: 'change',
  flagHelp: {
    yes: 'confirm without asking',
    'dry-run': 'show the preview and send nothing',
    undo: 'remove exactly this name from the exclude list (shards may come back)',
    'wait-timeout': `seconds to follow the node until it holds no shards (default ${DEFAULT_WAIT_S}; 0: do not wait)`,
  },
  examples: ['shardeck drain storage-2 --dry-run', 'shardeck drain storage-2 --yes', 'shardeck drain --undo storage-2 --yes'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const undo = Boolean(values.undo);
    if (positionals.length !== 1) return usageError(NAME, `give one node's name: shardeck drain ${undo ? '--undo ' : ''}NODE`, json);
    const wait = values['wait-timeout'];
    if (wait !== undefined && !/^\d+$/.test(String(wait))) return usageError(NAME, '--wait-timeout is a whole number of seconds', json);
    if (undo && wait !== undefined) return usageError(NAME, '--undo does not wait: give no --wait-timeout', json);
    const node = positionals[0];
    const waitMs = (wait === undefined ? DEFAULT_WAIT_S : Number(wait)) * 1000;
    const { es, guard, close } = await openGuard(values);
    try {
      if (!values['dry-run']) guard.assertWritable();
      const state = await prepareDrain(es, node, undo);
      const head = { schema: JSON_SCHEMA, command: NAME, node, undo };
      const { change } = state;
      if (change.kind === 'refused') return usageError(NAME, change.message, json);
      let result: Awaited<ReturnType<typeof performMutations>>[number] | undefined;
      let requests: ReturnType<typeof previews> = [];
      if (change.kind === 'nothing') {
        if (!json) out(`${displayText(change.message)}\n`);
        if (undo || values['dry-run']) {
          if (json) printJson({ ...head, ok: true, sent: false, message: change.message, progress: state.progress });
          return EXIT.ok;
        }
      } else {
        requests = previews(guard, [change.plan]);
        if (!json) printPreviews(requests);
        const changeJson = { level: change.level, before: change.before, after: change.after };
        if (values['dry-run']) {
          if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, change: changeJson, progress: state.progress, requests });
          else out(`${displayText(progressLine(state.progress))}\ndry run: nothing was sent\n`);
          return EXIT.ok;
        }
        const confirmation = await confirmOnTerminal(NAME, [change.plan], values);
        if (!confirmation) return EXIT.failed;
        [result] = await performMutations(guard, { type: 'mutate', plans: [change.plan], confirmation });
        warnAudit(result.auditWarning);
        const ok = result.ok && result.verified?.ok !== false;
        if (!json) out(`${ok ? 'ok' : 'FAILED'}: ${displayText(result.verified && ok ? result.verified.message : result.message)}\n`);
        if (!ok || undo || waitMs === 0) {
          if (json) printJson({ ...head, ok, ...(ok ? {} : { error: result.message }), sent: true, change: changeJson, requests, result });
          return ok ? EXIT.ok : EXIT.failed;
        }
      }
      // Follow the node to empty: a line when the count changes, what blocks it when nothing moves.
      let lastLine = '';
      let lastBlockers = '';
      const say = (progress: Parameters<typeof progressLine>[0], blockers: MoveBlocker[] | null) => {
        if (json) return;
        const line = progressLine(progress);
        if (line !== lastLine) out(`${displayText(line)}\n`);
        lastLine = line;
        const b = blockers?.length ? blockerLines(blockers).join('\n') : '';
        if (b && b !== lastBlockers)
          out(`${paint('yellow', 'blocked')}: the copies left cannot move:\n${displayText(b).replace(/^/gm, '  ')}\n`);
        lastBlockers = b;
      };
      say(state.progress, null);
      const { met, watch } = await watchDrain(es, node, {
        timeoutMs: waitMs,
        atStart: state.progress.atStart,
        onProgress: (w) => say(w.progress, w.blockers),
      });
      say(watch.progress, watch.blockers);
      const message = met
        ? `node ${node} holds no shards: it is drained (undo: shardeck drain --undo ${node})`
        : `node ${node} still holds ${watch.progress.left} shard cop${watch.progress.left === 1 ? 'y' : 'ies'} after ${Math.round(waitMs / 1000)} s: run shardeck drain ${node} again to go on following it`;
      if (json)
        printJson({
          ...head,
          ok: met,
          ...(met ? {} : { error: message }),
          sent: result !== undefined,
          ...(change.kind === 'plan'
            ? { change: { level: change.level, before: change.before, after: change.after }, requests, result }
            : {}),
          progress: watch.progress,
          blockers: watch.blockers ?? [],
        });
      else (met ? out : err)(`${met ? 'ok' : `shardeck ${NAME}`}: ${displayText(message)}\n`);
      return met ? EXIT.ok : EXIT.failed;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default drain;
