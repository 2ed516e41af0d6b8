// shardeck restart-node [--yes --node-name NAME] [--dry-run]: the rolling restart of this host's
// node, Elastic's documented steps (services/restart-node.ts): checks, allocation of replicas off
// (recorded), flush, stop, start, allocation back, green, verify. Resumes an unfinished one.
import readline from 'node:readline/promises';
import { connectionSecrets } from '../domain/host/host-env';
import { allocationEnablePlan } from '../domain/maintenance/allocation-limits';
import type { MutationPlan } from '../domain/mutation/plan';
import { displayText } from '../domain/text/display-text';
import { serviceCommands } from '../domain/host/engine';
import type { Confirmation } from '../domain/mutation/confirmation';
import { flushPlan, FLUSH_TARGETS, nextRestartStep, RESTART_STEPS, stepTitle } from '../domain/maintenance/restart-node';
import { prepareRestart, restartProgressFile, runRestart } from '../services/restart-node';
import { EXIT, type CommandContext, type CommandModule } from './support/common';
import { ENGINE_FLAG_HELP, ENGINE_OPTIONS, engineOverrides } from './support/engine-run';
import {
  JSON_SCHEMA,
  labelFor,
  MUTATION_OPTIONS,
  openGuard,
  previews,
  printJson,
  printPreviews,
  reportFailure,
  usageError,
} from './support/guarded';
import { err, forTerminal, out } from './support/output';
import { paint } from './support/paint';

const NAME = 'restart-node';

/** --yes with --node-name, else the node's name typed on the terminal; null: not confirmed (said on stderr). */
async function confirm(values: CommandContext['values'], node: string): Promise<Confirmation | null> {
  if (values['node-name'] !== undefined) {
    if (String(values['node-name']) !== node) {
      err(
        `shardeck ${NAME}: --node-name ${displayText(String(values['node-name']))} is not the node of this host (${displayText(node)}); nothing was changed\n`,
      );
      return null;
    }
    if (values.yes) return { by: 'yes-flag', text: node };
  }
  if (values.yes) {
    err(
      `shardeck ${NAME}: this takes node ${displayText(node)} out of service and --yes does not confirm it: add --node-name ${displayText(node)}; nothing was changed\n`,
    );
    return null;
  }
  if (values.json || !process.stdin.isTTY) {
    err(`shardeck ${NAME}: no terminal to confirm on: add --yes --node-name ${displayText(node)}; nothing was changed\n`);
    return null;
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const text = (await rl.question(forTerminal(`${labelFor(values)}this restarts node ${node}: type ${node} to go on: `))).trim();
    if (text === node) return { by: 'typed', text };
    err('not confirmed: nothing was changed\n');
    return null;
  } finally {
    rl.close();
  }
}

const restartNode: CommandModule = {
  summary:
    "Rolling restart of this host's node: checks, allocation of replicas off, flush, stop, start, allocation back, green (resumable).",
  usage: [
    'usage: shardeck restart-node [--yes --node-name NAME] [--dry-run] [--green-timeout SECONDS] [--stop-cmd CMD] [--start-cmd CMD] [--json] [connection flags]',
    "Elastic's documented steps, each previewed and audited; the allocation setting is recorded before it changes and put back to",
    'what it was; an unfinished restart goes on where it stopped when run again. The node shutdown API is not used.',
  ].join('\n'),
  options: { ...MUTATION_OPTIONS, ...ENGINE_OPTIONS, 'node-name': { type: 'string' }, 'green-timeout': { type: 'string' } },
  group: 'recover',
  flagHelp: {
    ...ENGINE_FLAG_HELP,
    yes: 'confirm without asking (with --node-name: the restart takes the node out of service)',
    'node-name': "the node's name, typed ahead: confirms the stop",
    'dry-run': 'show the checks and the steps, change nothing',
    'green-timeout': 'seconds to wait for green after allocation is back (default 300)',
  },
  examples: [
    'shardeck restart-node --dry-run',
    'shardeck restart-node --yes --node-name storage-1',
    'shardeck restart-node --yes --node-name storage-1 --green-timeout 900',
  ],
  async run({ values }) {
    const json = Boolean(values.json);
    for (const k of ['wait-timeout', 'green-timeout'])
      if (values[k] !== undefined && !/^\d+$/.test(String(values[k]))) return usageError(NAME, `--${k} is a whole number of seconds`, json);
    const { es, guard, profile, conn, close } = await openGuard(values);
    const say = (s: string) => (json ? err : out)(s);
    try {
      if (!values['dry-run']) guard.assertWritable();
      const overrides = engineOverrides(values, profile);
      const waitMs =
        values['wait-timeout'] === undefined
          ? {}
          : { stopTimeoutMs: Number(values['wait-timeout']) * 1000, startTimeoutMs: Number(values['wait-timeout']) * 1000 };
      const tuning = {
        hostSecrets: connectionSecrets(conn),
        ...waitMs,
        ...(values['green-timeout'] === undefined ? {} : { greenTimeoutMs: Number(values['green-timeout']) * 1000 }),
      };
      const opts = {
        url: conn.url,
        overrides,
        tuning,
        onStep: (e: { id: string; title: string; phase: string; message?: string }) =>
          say(
            e.phase === 'start'
              ? `${paint('bold', e.id)}: ${e.title}\n`
              : `  ${e.phase === 'done' ? paint('green', 'done') : paint('red', 'FAILED')}: ${displayText(e.message ?? '')}\n`,
          ),
        onPreview: (plan: MutationPlan) => {
          if (!json) printPreviews(previews(guard, [plan]));
        },
      };
      const start = await prepareRestart(es, opts);
      if (start.kind === 'refused') {
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: start.message });
        err(`shardeck ${NAME}: ${displayText(start.message)}\n`);
        return EXIT.failed;
      }
      const node = start.node.name;
      if (start.progress)
        say(
          `an unfinished restart of ${displayText(node)} (started ${start.progress.startedAt}) goes on at: ${nextRestartStep(start.progress)} (${restartProgressFile(node)})\n`,
        );
      else if (start.checks) {
        if (start.checks.refusal) {
          if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: start.checks.refusal });
          err(`shardeck ${NAME}: ${displayText(start.checks.refusal)}\n`);
          return EXIT.failed;
        }
        say(`restart of node ${displayText(node)} (this host)\n`);
        for (const w of start.checks.warnings) say(`${paint('yellow', 'warning')}: ${displayText(w)}\n`);
      }
      const indices = start.progress?.indices ?? start.checks?.indices ?? [];
      const cmds = serviceCommands(overrides);
      say('steps:\n');
      for (const id of RESTART_STEPS) say(`  ${id}: ${stepTitle(id, displayText(node))}\n`);
      if (!json) {
        printPreviews(
          previews(
            guard,
            [allocationEnablePlan('primaries', `for the restart of node ${node}`), ...(indices.length ? [flushPlan(indices, node)] : [])],
            FLUSH_TARGETS,
          ),
        );
        out(`  $ ${cmds.stop.join(' ; ')}\n  $ ${cmds.start.join(' ; ')}\n`);
      }
      if (values['dry-run']) {
        if (json)
          printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, dryRun: true, node, checks: start.checks, steps: RESTART_STEPS });
        else out('dry run: nothing was changed\n');
        return EXIT.ok;
      }
      const c = await confirm(values, node);
      if (!c) {
        if (json)
          printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: 'not confirmed: nothing was changed', refused: 'unconfirmed' });
        return EXIT.failed;
      }
      const r = await runRestart(es, guard, start, c, opts);
      if (json)
        printJson({ schema: JSON_SCHEMA, command: NAME, ok: r.ok, ...(r.ok ? {} : { error: r.message }), node, progress: r.progress });
      else out(`${r.ok ? 'ok' : 'FAILED'}: ${displayText(r.message)}\n`);
      return r.ok ? EXIT.ok : EXIT.failed;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default restartNode;
