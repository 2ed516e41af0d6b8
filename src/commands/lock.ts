// shardeck lock [--json] | shardeck lock take --holder USER [--restart] [--yes]: who holds this
// cluster's change lock (and its rolling-restart lock), from the lock file's owner, whether their
// process still runs and how to reach them; `take` lets root take over a lock another operator's
// live process holds, typed (the holder's user name, even with --yes) and audited (issue 40).
import { clusterLocks, type LockState } from '../config/cluster-lock';
import { displayText } from '../domain/text/display-text';
import { GuardRefusal } from '../services/guard';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, labelFor, MUTATION_OPTIONS, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { err, forTerminal, out } from './support/output';
import { paint } from './support/paint';
import readline from 'node:readline/promises';

const NAME = 'lock';

function describe(l: LockState): string {
  if (!l.held) return `${l.kind} lock: free`;
  const who = `${l.owner}${l.pid ? `, pid ${l.pid} ${l.alive ? 'running' : 'no longer running'}` : ''}`;
  const claim = l.claim ? ` (its own word: "${displayText(l.claim)}")` : '';
  const reach = l.alive && l.pid ? `\n  reach its holder: ps -o user,tty,etime,args -p ${l.pid}` : '';
  return `${l.kind} lock: held by ${who}${claim}${reach}`;
}

const lock: CommandModule = {
  summary: "Who holds this cluster's change lock (and restart lock); take lets root take over another operator's, typed and audited.",
  usage: 'usage: shardeck lock [--json] | shardeck lock take --holder USER [--restart] [--yes] [--dry-run] [--json] [connection flags]',
  options: { ...MUTATION_OPTIONS, holder: { type: 'string' }, restart: { type: 'boolean' } },
  group: 'change',
  flagHelp: {
    holder: "take: the lock's owner's user name, typed (also with --yes): the confirmation",
    restart: 'take: the rolling-restart lock instead of the change lock',
    yes: 'confirm without asking (still needs --holder)',
    'dry-run': 'take: say what would be removed, remove nothing',
  },
  examples: ['shardeck lock', 'shardeck lock take --holder alice', 'shardeck lock take --holder alice --yes --json'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [verb, ...rest] = positionals;
    if (rest.length || (verb !== undefined && verb !== 'take')) return usageError(NAME, 'give nothing, or take --holder USER', json);
    if (verb === undefined && (values.holder !== undefined || values.restart))
      return usageError(NAME, '--holder and --restart belong to take: shardeck lock take --holder USER', json);
    // Settling earlier changes takes the change lock itself: not here, where it may be held.
    const { es, guard, close } = await openGuard(values, { settle: false, allocationCheck: false });
    try {
      if (verb === 'take') guard.assertWritable();
      const locks = clusterLocks(await es.clusterUuid());
      if (verb === undefined) {
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, locks });
        else for (const l of locks) out(`${l.held ? paint('yellow', describe(l)) : describe(l)}\n`);
        return EXIT.ok;
      }
      if (values.holder === undefined) return usageError(NAME, "take needs --holder USER: the lock's owner's user name, typed", json);
      const target = locks.find((l) => l.kind === (values.restart ? 'restart' : 'change'))!;
      if (!target.held || target.ownerUid === null || target.owner === null) {
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, sent: false, lock: target });
        else out(`the ${target.kind} lock is free: nothing to take over\n`);
        return EXIT.ok;
      }
      const holder = { file: target.file, ownerUid: target.ownerUid, owner: target.owner, kind: target.kind };
      if (!json) {
        out(`${describe(target)}\n`);
        out(
          `${paint('red', 'take over:')} removes ${target.file}; ${target.alive ? 'its process still runs: a change of yours may then run beside theirs' : 'its process is gone'}\n`,
        );
      }
      if (values['dry-run']) {
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, dryRun: true, lock: target });
        else out('dry run: nothing was removed\n');
        return EXIT.ok;
      }
      let typed = String(values.holder);
      if (!values.yes) {
        if (!process.stdin.isTTY) {
          err(`shardeck ${NAME}: no terminal to confirm on: add --yes (with --holder USER); nothing was removed\n`);
          return EXIT.failed;
        }
        const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
        try {
          typed = (await rl.question(forTerminal(`${labelFor(values)}type the holder's user name to take over their lock: `))).trim();
        } finally {
          rl.close();
        }
      }
      const r = await guard.takeOverLock(holder, { by: values.yes ? 'yes-flag' : 'typed', text: typed });
      if (json)
        printJson({ schema: JSON_SCHEMA, command: NAME, ok: r.ok, sent: true, lock: target, ...(r.error ? { error: r.error } : {}) });
      else out(r.ok ? `ok: the ${target.kind} lock of ${target.owner} was removed (audited)\n` : `FAILED: ${r.error}\n`);
      return r.ok ? EXIT.ok : EXIT.failed;
    } catch (e) {
      if (e instanceof GuardRefusal && e.kind === 'unconfirmed') return usageError(NAME, e.message, json);
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default lock;
