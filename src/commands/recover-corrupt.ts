// shardeck recover-corrupt [--detect] [--json]: which primaries are unassigned because every copy
//   is corrupt, where their folders are, and what recovers them without loss.
// shardeck recover-corrupt INDEX SHARD --plan: the offline repair checklist as the exact commands
//   for this node, run by no one (the operator runs them where shardeck may not).
// shardeck recover-corrupt INDEX SHARD [--method checkindex|shard-tool] [--yes] [--accept-data-loss INDEX]:
//   runs the checklist, each step shown and confirmed; progress is saved after every step. It
//   starts only on the host whose Elasticsearch holds the corrupt copy. --yes never confirms a
//   step that loses documents: that takes the index's name, typed or given to --accept-data-loss.
// shardeck recover-corrupt --resume [INDEX SHARD]: goes on at the step where it stopped.
import path from 'node:path';
import readline from 'node:readline/promises';
import { planLines, recoveryPlan, stepCommandLines, type PlanFacts, type PlanStep } from '../domain/corruption/plan';
import { newProgress, type RecoveryMethod, type RecoveryProgress } from '../domain/corruption/progress';
import type { Confirmation, ConfirmationNeed } from '../domain/mutation/confirmation';
import type { PreviewConnection } from '../domain/mutation/preview';
import type { Profile } from '../config/profiles';
import type { EsApi } from '../cluster/api';
import type { Guard } from '../services/guard';
import { connectionSecrets } from '../domain/host/host-env';
import { detectCorruption, findingFactLines, planFacts, startRefusal, type CorruptShardReport } from '../services/corruption';
import { loadProgress, progressFile, runChecklist, runEndLines, unfinishedProgress, type RunnerIO } from '../services/recovery-runner';
import { EXIT, type CommandContext, type CommandModule } from './support/common';
import { JSON_SCHEMA, labelFor, MUTATION_OPTIONS, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { displayText } from '../domain/text/display-text';
import { comparisonLines, leastLoss, type RouteLoss } from '../domain/corruption/loss';
import { copyKeptLine, copyLines, copyRefusal, type IndexCopyPlan } from '../domain/corruption/copy';
import { keptCopies } from '../services/kept-copies';
import { countCopy, planIndexCopy, repairCopy, routeLosses, takeIndexCopy } from '../services/red-copy';
import { paint } from './support/paint';
import { err, out, forTerminal } from './support/output';

const NAME = 'recover-corrupt';

export function findingLines(c: CorruptShardReport, routes?: RouteLoss[]): string[] {
  const [head, ...facts] = findingFactLines(c);
  return [
    paint('red', head),
    ...facts,
    'first, what loses nothing:',
    ...c.options.map((o) => `  - ${displayText(o)}`),
    ...(routes ? comparisonLines(routes) : []),
    `then, only by choice, the offline repair (loses the broken segments): shardeck recover-corrupt ${displayText(c.index)} ${c.shard} --plan to read it, without --plan to run it step by step`,
  ];
}

/**
 * --compare: each way back's loss side by side before the choice. The repair's needs Lucene's own
 * count: the shard folder is copied (the checklist's backup and verify steps, confirmed: y or
 * --yes) and CheckIndex reads the copy without -exorcise while the node keeps running; the copy is
 * kept (the restore route reuses it as the copy it takes before deleting the red index).
 */
async function compare(values: Values, target: { index: string; shard: number }, json: boolean): Promise<number> {
  const { es, guard, profile, conn, close } = await openGuard(values);
  try {
    const planned = await planFor(es, guard, target, profile, values);
    if (typeof planned === 'string') return failed(planned, json);
    const { c } = planned;
    const whole = await planIndexCopy(es, c.index, backupDirOf(values));
    const mine = { ...whole, here: whole.here.filter((f) => f.shard === c.shard) };
    const url = guard.previewConnection.url;
    let { routes } = await routeLosses(es, url, c, mine);
    const say = (s: string) => (json ? err : out)(s);
    say([...findingLines(c, routes), ''].join('\n') + '\n');
    let record = keptCopies(mine.backupDir).find((r) => mine.here.some((f) => r.archive === (f.reuse ?? f.archive)));
    if (!record?.check && mine.here.length) {
      // Read-only mode copies nothing: the comparison above is all it shows (exit 4).
      guard.assertWritable();
      const refusal = copyRefusal(
        mine,
        mine.here.reduce((n, f) => n + f.bytes, 0),
      );
      if (refusal) return failed(refusal, json);
      say(copyLines(mine).join('\n') + '\n');
      const confirmation = values.yes
        ? ({ by: 'yes-flag' } as const)
        : await ask(
            values,
            'copy the shard folder and count it with CheckIndex (the node keeps running)? [y/N] ',
            'no terminal to confirm on: add --yes; nothing was copied',
          );
      if (!confirmation) return failed('not confirmed: nothing was copied', json);
      const io = { output: (chunk: string) => say(paint('dim', chunk)), info: (line: string) => say(`  ${displayText(line)}\n`) };
      const taken = await takeIndexCopy(
        guard,
        mine,
        confirmation,
        io,
        connectionSecrets(conn),
        `counting what repairing ${c.index} shard ${c.shard} would lose`,
      );
      if (!taken.ok) return failed(taken.message, json);
      const counted = await countCopy(guard, taken.records[0], { java: mine.engine?.java ?? null, home: mine.engine?.home ?? '' }, io);
      if (!counted.ok)
        return failed(`the copy is kept (${taken.records[0].archive}) but CheckIndex could not count it: ${counted.message}`, json);
      record = counted.record;
      routes = (await routeLosses(es, url, c, { ...mine, here: mine.here.map((f) => ({ ...f, reuse: record!.archive })) })).routes;
    }
    const best = leastLoss(routes);
    if (json)
      printJson({
        schema: JSON_SCHEMA,
        command: NAME,
        ok: true,
        index: c.index,
        shard: c.shard,
        routes,
        recommended: best?.route ?? null,
        copy: record ?? null,
      });
    else out([...comparisonLines(routes), ...(record ? [copyKeptLine(record)] : [])].join('\n') + '\n');
    return EXIT.ok;
  } catch (e) {
    return reportFailure(NAME, e, json);
  } finally {
    await close();
  }
}

const backupDirOf = (values: Values) => (values['backup-dir'] !== undefined ? path.resolve(String(values['backup-dir'])) : undefined);

/** Each way back's loss for one corrupt shard, from what is on record (no copy is taken). */
async function lossesOf(
  es: EsApi,
  guard: Guard,
  c: CorruptShardReport,
  values: Values,
  /** Several corrupt shards of one index: its folders are read once. */
  plans = new Map<string, Promise<IndexCopyPlan>>(),
): Promise<RouteLoss[]> {
  if (!plans.has(c.index)) plans.set(c.index, planIndexCopy(es, c.index, backupDirOf(values)));
  const whole = await plans.get(c.index)!;
  return (await routeLosses(es, guard.previewConnection.url, c, { ...whole, here: whole.here.filter((f) => f.shard === c.shard) })).routes;
}

/**
 * --from-copy ARCHIVE: the offline repair run from a kept copy (the index it came from may be
 * gone: a restore that failed after its delete). CheckIndex -exorcise on the copy unpacked beside
 * its archive; the archive stays. Prints what was kept and lost against what was counted before.
 */
async function fromCopy(values: Values, archive: string, json: boolean): Promise<number> {
  const { guard, close } = await openGuard(values);
  try {
    guard.assertWritable();
    const file = path.resolve(archive);
    const rec = keptCopies(path.dirname(file)).find((r) => r.archive === file);
    if (!rec) return failed(`${file} is not a copy shardeck kept (no record ${file}.json of the running user's beside it)`, json);
    const tools = { java: values.java !== undefined ? String(values.java) : (rec.tools?.java ?? null), home: rec.tools?.home ?? '' };
    const say = (s: string) => (json ? err : out)(s);
    say(
      `repair the copy ${displayText(file)} of ${displayText(rec.index)} shard ${rec.shard}: unpacked beside it, CheckIndex -exorcise there (the archive stays)\n`,
    );
    const confirmation = values.yes
      ? ({ by: 'yes-flag' } as const)
      : await ask(values, 'run it? [y/N] ', 'no terminal to confirm on: add --yes; nothing was run');
    if (!confirmation) return failed('not confirmed: nothing was run', json);
    const r = await repairCopy(guard, rec, tools, confirmation, { output: (chunk) => say(paint('dim', chunk)) });
    if (!r.ok) return failed(r.message, json);
    const kept = r.result.totalDocs - r.result.lostDocs;
    const expected = rec.check?.lostDocs ?? null;
    const line = `repaired copy of ${rec.index} shard ${rec.shard} in ${r.folder}: ${kept} of ${r.result.totalDocs} documents kept, ${r.result.lostDocs} lost${expected === null ? '' : ` (CheckIndex counted ${expected} on the copy before the choice)`}`;
    if (json)
      printJson({
        schema: JSON_SCHEMA,
        command: NAME,
        ok: true,
        archive: file,
        folder: r.folder,
        kept,
        lost: r.result.lostDocs,
        expected,
        check: r.result,
      });
    else out(`${displayText(line)}\nto serve it again: see "the way back from a copy" in docs/RECOVERY.md\n`);
    return EXIT.ok;
  } catch (e) {
    return reportFailure(NAME, e, json);
  } finally {
    await close();
  }
}

type Values = CommandContext['values'];

/** Flags that change how the plan is carried out on this host; also accepted by --resume. */
function overrides(values: Values): Partial<PlanFacts> {
  const o: Partial<PlanFacts> = {};
  if (values['stop-cmd'] !== undefined) o.serviceStop = String(values['stop-cmd']);
  if (values['start-cmd'] !== undefined) o.serviceStart = String(values['start-cmd']);
  if (values['backup-dir'] !== undefined) o.backupDir = path.resolve(String(values['backup-dir']));
  if (values['es-user'] !== undefined) o.esUser = String(values['es-user']);
  if (values['conf-dir'] !== undefined) o.confDir = String(values['conf-dir']);
  if (values.java !== undefined) o.java = String(values.java);
  return o;
}

export function stepLines(step: PlanStep, n: number, total: number, conn: PreviewConnection): string[] {
  return [
    paint(
      'bold',
      `step ${n}/${total}: ${displayText(step.title)}${step.losesData ? ' [LOSES DATA]' : ''}${step.conditional ? ' (the check before says it is needed)' : ''}`,
    ),
    ...stepCommandLines(step, conn).map((l) => `  ${l}`),
    `  ${displayText(step.note)}`,
  ];
}

/** Detection of one shard and the facts of its plan; a string says why there is nothing to plan. */
async function planFor(
  es: EsApi,
  guard: Guard,
  target: { index: string; shard: number },
  profile: Profile | undefined,
  values: Values,
): Promise<{ c: CorruptShardReport; facts: PlanFacts } | string> {
  const c = (await detectCorruption(es, target)).corrupt[0];
  if (!c)
    return `${target.index} shard ${target.shard} has no unassigned primary with corrupt copies: nothing to repair (see shardeck recover-corrupt --detect)`;
  const facts = planFacts(c, profile, guard.previewConnection, overrides(values));
  return typeof facts === 'string' ? facts : { c, facts };
}

/**
 * Asks on the terminal (stderr): y, or `expected` typed where documents are lost; null when
 * declined or when there is no terminal (`noTerminal` says what to do then).
 */
async function ask(values: Values, question: string, noTerminal: string, expected?: string): Promise<Confirmation | null> {
  if (!process.stdin.isTTY) {
    err(`shardeck ${NAME}: ${noTerminal}\n`);
    return null;
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    // The profile's label first, as the previews: a step meant for staging is not confirmed on production by habit.
    const answer = (await rl.question(forTerminal(`${labelFor(values)}${question}`))).trim();
    if (expected === undefined) return /^y(es)?$/i.test(answer) ? { by: 'key' } : null;
    if (answer === expected) return { by: 'typed', text: answer };
    err('not confirmed: the step was not run\n');
    return null;
  } finally {
    rl.close();
  }
}

/** A checklist step asked for: y, or the index's name for one that loses documents. */
function askOnTerminal(values: Values, step: PlanStep, need: ConfirmationNeed): Promise<Confirmation | null> {
  return ask(
    values,
    need.kind === 'type' ? `this loses documents: type ${need.expected} to run this step: ` : 'run this step? [y/N] ',
    `no terminal to confirm "${step.title}" on: add --yes to run the checklist from a script; stopped before this step`,
    need.kind === 'type' ? need.expected : undefined,
  );
}

async function runOrResume(values: Values, positionals: string[], json: boolean): Promise<number> {
  const resume = Boolean(values.resume);
  const { es, guard, profile, conn, close } = await openGuard(values);
  try {
    guard.assertWritable();
    let progress: RecoveryProgress;
    const acceptLoss = values['accept-data-loss'] === undefined ? undefined : String(values['accept-data-loss']);
    if (resume) {
      const found = positionals.length === 2 ? loadProgress(positionals[0], Number(positionals[1])) : (unfinishedProgress()[0] ?? null);
      if (!found || found.finished)
        return usageError(
          NAME,
          positionals.length === 2
            ? `no unfinished checklist for ${positionals[0]} shard ${positionals[1]}`
            : 'no unfinished checklist to resume',
          json,
        );
      const o = overrides(values);
      if (o.backupDir && found.steps.backup?.status === 'done' && o.backupDir !== found.facts.backupDir)
        return usageError(NAME, `the backup was already taken in ${found.facts.backupDir}: --backup-dir cannot change now`, json);
      progress = { ...found, facts: { ...found.facts, ...o } };
    } else {
      const target = { index: positionals[0], shard: Number(positionals[1]) };
      const existing = loadProgress(target.index, target.shard);
      if (existing && !existing.finished)
        return usageError(
          NAME,
          `a checklist for ${target.index} shard ${target.shard} is under way (${progressFile(target.index, target.shard)}): continue it with --resume, or remove that file to start over`,
          json,
        );
      const planned = await planFor(es, guard, target, profile, values);
      if (typeof planned === 'string') return failed(planned, json);
      const { c, facts } = planned;
      const method = (values.method as RecoveryMethod | undefined) ?? 'checkindex';
      if (!json) out([...findingLines(c), ''].join('\n') + '\n');
      const elsewhere = startRefusal(c);
      if (elsewhere) return failed(elsewhere, json);
      if (method === 'shard-tool' && facts.hasShardTool === false)
        return failed(`${facts.home}/bin/elasticsearch-shard does not exist on this node: use --method checkindex`, json);
      progress = newProgress(method, facts, new Date().toISOString());
    }
    // A name that can never match is refused before the engine is stopped, not at the step that needs it.
    if (acceptLoss !== undefined && acceptLoss !== progress.index)
      return failed(
        `--accept-data-loss names "${acceptLoss}" but this checklist repairs ${progress.index}: give that index name exactly; nothing was run`,
        json,
      );
    // Under --json stdout holds only the result: the steps and their live output go to stderr.
    const say = (s: string) => (json ? err : out)(s);
    const io: RunnerIO = {
      announce: (step, n, total) => say(stepLines(step, n, total, guard.previewConnection).join('\n') + '\n'),
      // --accept-data-loss INDEX is the index name typed ahead for the steps that lose documents;
      // --yes answers the others (and, given for one of those, is refused by the runner).
      confirm: (step, need) =>
        need.kind === 'type' && acceptLoss !== undefined
          ? Promise.resolve({ by: 'typed', text: acceptLoss })
          : values.yes
            ? Promise.resolve({ by: 'yes-flag' })
            : askOnTerminal(values, step, need),
      output: (chunk) => say(paint('dim', chunk)),
      info: (line) => say(`  ${displayText(line)}\n`),
    };
    const waitS = values['wait-timeout'] === undefined ? undefined : Number(values['wait-timeout']);
    const hostSecrets = connectionSecrets(conn);
    const end = await runChecklist(es, guard, progress, io, {
      hostSecrets,
      ...(waitS === undefined ? {} : { waitTimeoutMs: waitS * 1000, shardTimeoutMs: Math.max(waitS, 30) * 1000 }),
    });
    const file = progressFile(progress.index, progress.shard);
    if (json)
      printJson({
        schema: JSON_SCHEMA,
        command: NAME,
        ok: end.status === 'finished',
        status: end.status,
        index: progress.index,
        shard: progress.shard,
        method: progress.method,
        progressFile: file,
        archive: recoveryPlan(end.progress.facts).archive,
        steps: end.progress.steps,
        check: end.progress.check ?? null,
        ...(end.status === 'finished'
          ? { loss: end.loss }
          : end.status === 'busy'
            ? { error: runEndLines(end)[0], holderPid: end.pid }
            : {
                stoppedAt: end.step.id,
                ...(end.status === 'failed'
                  ? { error: end.message, advice: end.advice }
                  : end.status === 'refused'
                    ? { error: end.message }
                    : {}),
              }),
      });
    else {
      const [first, ...rest] = runEndLines(end);
      out([paint(end.status === 'finished' ? 'green' : end.status === 'declined' ? 'bold' : 'red', first), ...rest].join('\n') + '\n');
      if (end.status === 'refused') err(`shardeck ${NAME}: ${displayText(end.message)}\n`);
    }
    return end.status === 'finished' ? EXIT.ok : EXIT.failed;
  } catch (e) {
    return reportFailure(NAME, e, json);
  } finally {
    await close();
  }
}

function failed(message: string, json: boolean): number {
  if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: message });
  err(`shardeck ${NAME}: ${displayText(message)}\n`);
  return EXIT.failed;
}

const recoverCorrupt: CommandModule = {
  summary: 'Corrupt primaries: detect them, print the offline repair plan, or run it step by step (resumable).',
  usage: [
    'usage: shardeck recover-corrupt [--detect] [--json] [connection flags]',
    '       shardeck recover-corrupt INDEX SHARD --plan [--method M] [flags below] [--json]',
    '       shardeck recover-corrupt INDEX SHARD --compare [--yes] [--backup-dir DIR] [--json]',
    '       shardeck recover-corrupt --from-copy ARCHIVE [--yes] [--java PATH] [--json]',
    '       shardeck recover-corrupt INDEX SHARD [--method checkindex|shard-tool] [--yes] [--accept-data-loss INDEX] [flags below] [--json]',
    '       shardeck recover-corrupt --resume [INDEX SHARD] [--yes] [--accept-data-loss INDEX] [flags below] [--json]',
    'flags: --backup-dir DIR  --es-user NAME  --conf-dir DIR  --java PATH  --stop-cmd CMD  --start-cmd CMD  --wait-timeout SECONDS',
    'exit 0: nothing corrupt (detect), plan printed, or checklist finished; 2: a corrupt primary was found (detect);',
    '5: a step failed or was not confirmed (resume with --resume), or this host does not run the node holding the shard; 4: read-only mode.',
    "the profile's serviceStop/serviceStart replace systemctl stop/start elasticsearch; --stop-cmd/--start-cmd replace both.",
    'every step is shown with its exact command and runs only once confirmed (y, or the index name for a step that loses documents).',
    '--yes confirms every step except those that lose documents (CheckIndex -exorcise, elasticsearch-shard, allocate_stale_primary): they need --accept-data-loss INDEX.',
  ].join('\n'),
  options: {
    ...MUTATION_OPTIONS,
    detect: { type: 'boolean' },
    plan: { type: 'boolean' },
    compare: { type: 'boolean' },
    'from-copy': { type: 'string' },
    resume: { type: 'boolean' },
    method: { type: 'string' },
    'backup-dir': { type: 'string' },
    'es-user': { type: 'string' },
    'conf-dir': { type: 'string' },
    java: { type: 'string' },
    'stop-cmd': { type: 'string' },
    'start-cmd': { type: 'string' },
    'wait-timeout': { type: 'string' },
    'accept-data-loss': { type: 'string' },
  },
  group: 'recover',
  flagHelp: {
    yes: 'confirm every step except those that lose documents (they need --accept-data-loss)',
    'dry-run': 'show the plan and send nothing',
    detect: 'only look for corrupt primaries (exit 2 when one is found)',
    plan: 'print the offline repair plan with every exact command, run nothing',
    'from-copy': 'run the offline repair (CheckIndex -exorcise) on a kept copy of a shard folder, unpacked beside it (the archive stays)',
    compare:
      "each way back's loss in documents side by side: copies the shard folder (confirmed) and counts the repair's loss with CheckIndex on the copy; the copy is kept",
    resume: 'continue a checklist that stopped (a failed or unconfirmed step)',
    method: 'checkindex (Lucene CheckIndex -exorcise, default) or shard-tool (elasticsearch-shard remove-corrupted-data)',
    'backup-dir': 'where the shard folder is copied before the repair: a folder only you can open (default /var/backups/shardeck as root)',
    'es-user': 'the user the engine runs as (default: read from its process; root is refused)',
    'conf-dir': "the node's config folder (default /etc/elasticsearch)",
    java: 'java to run CheckIndex with (default: the bundled JDK of the node)',
    'stop-cmd': "command that stops the node (default: the profile's serviceStop, else systemctl stop elasticsearch)",
    'start-cmd': "command that starts the node (default: the profile's serviceStart, else systemctl start elasticsearch)",
    'wait-timeout': 'seconds to wait for the node to answer after the start (default 180)',
    'accept-data-loss': 'the index name, typed ahead: allows the steps that lose documents with --yes',
  },
  examples: [
    'shardeck recover-corrupt --detect',
    'shardeck recover-corrupt service_v9_alpha 0 --compare',
    'shardeck recover-corrupt service_v9_alpha 0 --plan',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const plan = Boolean(values.plan) || Boolean(values['dry-run']);
    const modes = [values.detect, plan, values.resume, values.compare].filter(Boolean).length;
    if (modes > 1) return usageError(NAME, 'use one of --detect, --plan (or --dry-run), --compare and --resume', json);
    if (values.method !== undefined && values.method !== 'checkindex' && values.method !== 'shard-tool')
      return usageError(NAME, `--method is checkindex or shard-tool, not "${String(values.method)}"`, json);
    if (values['wait-timeout'] !== undefined && !/^\d+$/.test(String(values['wait-timeout'])))
      return usageError(NAME, '--wait-timeout is a whole number of seconds', json);
    const hasTarget = positionals.length === 2 && /^\d+$/.test(positionals[1]);
    if (positionals.length > 0 && !hasTarget)
      return usageError(NAME, 'give INDEX and SHARD (a number), e.g. shardeck recover-corrupt service_v9_abc 0 --plan', json);
    if (plan && !hasTarget)
      return usageError(NAME, 'give INDEX and SHARD (a number) with --plan, e.g. shardeck recover-corrupt service_v9_abc 0 --plan', json);
    if (values.detect && hasTarget) return usageError(NAME, 'use either --detect or INDEX SHARD, not both', json);
    if (values.compare && !hasTarget)
      return usageError(
        NAME,
        'give INDEX and SHARD (a number) with --compare, e.g. shardeck recover-corrupt service_v9_abc 0 --compare',
        json,
      );
    if (values.compare) return compare(values, { index: positionals[0], shard: Number(positionals[1]) }, json);
    if (values['from-copy'] !== undefined) {
      if (positionals.length || modes)
        return usageError(NAME, '--from-copy ARCHIVE goes alone (no INDEX SHARD, --plan, --compare or --resume)', json);
      return fromCopy(values, String(values['from-copy']), json);
    }
    if (values.resume || (hasTarget && !plan)) return runOrResume(values, positionals, json);
    const { es, guard, profile, close } = await openGuard(values);
    try {
      if (!hasTarget) {
        const report = await detectCorruption(es);
        const losses: { index: string; shard: number; routes: RouteLoss[] }[] = [];
        const plans = new Map<string, Promise<IndexCopyPlan>>();
        for (const c of report.corrupt)
          losses.push({ index: c.index, shard: c.shard, routes: await lossesOf(es, guard, c, values, plans) });
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, ...report, losses });
        else {
          const head = `cluster is ${report.status}: ${report.unassignedPrimaries} unassigned primar${report.unassignedPrimaries === 1 ? 'y' : 'ies'}, ${report.corrupt.length} with corrupt copies`;
          out([head, ...report.corrupt.flatMap((c, i) => findingLines(c, losses[i].routes))].join('\n') + '\n');
        }
        return report.corrupt.length ? EXIT.red : EXIT.ok;
      }
      const planned = await planFor(es, guard, { index: positionals[0], shard: Number(positionals[1]) }, profile, values);
      if (typeof planned === 'string') return failed(planned, json);
      const { c, facts } = planned;
      const p = recoveryPlan(facts);
      const routes = await lossesOf(es, guard, c, values);
      // The plan is printed wherever shardeck runs, saying where it may be run.
      const elsewhere = startRefusal(c);
      if (json)
        printJson({
          schema: JSON_SCHEMA,
          command: NAME,
          ok: true,
          finding: c,
          routes,
          plan: p,
          runsHere: !elsewhere,
          ...(elsewhere ? { notHere: elsewhere } : {}),
        });
      else
        out(
          [
            ...findingLines(c, routes),
            '',
            ...(elsewhere ? [paint('red', `not on this host: ${elsewhere.replace(/; nothing was run$/, '')}`), ''] : []),
            ...planLines(p, facts.conn),
          ].join('\n') + '\n',
        );
      return EXIT.ok;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default recoverCorrupt;
