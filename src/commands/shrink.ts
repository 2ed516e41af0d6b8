// shardeck shrink INDEX|PATTERN --shards N [--dry-run] [--yes --accept-data-loss NAMES] | --resume | --rollback
// The CLI twin of the right-sizing wizard: drives the same session (services/wizards/shrink.ts).
// The plan is printed before anything is sent; each original is deleted only once its copy is
// checked, and that delete needs the names typed (or --accept-data-loss with --yes). Every step is
// journaled: a run killed anywhere goes on with --resume, or is rolled back with --rollback while
// the original is still there.
import readline from 'node:readline/promises';
import { isConnectionFailure } from '../cluster/connection';
import { displayBlock, displayText } from '../domain/text/display-text';
import { formatBytes, formatCount } from '../domain/text/format';
import type { Confirmation } from '../domain/mutation/confirmation';
import { checkIndexExpression } from '../domain/mutation/targets';
import { formatDuration, stepTitle, type Mode } from '../domain/shrink/plan';
import { requestsOf, templateReview, type ShrinkReview } from '../domain/shrink/review';
import { PLATFORM_REMINDER } from '../domain/shrink/template';
import { parseTimeoutSeconds } from '../domain/text/values';
import type { ShrinkReport, ShrinkState } from '../domain/wizards/shrink';
import { changeTemplate, readTemplateFacts, type ShrinkTuning } from '../services/shrink';
import { unfinishedShrink } from '../services/shrink-left';
import { shrinkSession } from '../services/wizards/shrink';
import { EXIT, type CommandContext, type CommandModule } from './support/common';
import {
  confirmOnTerminal,
  JSON_SCHEMA,
  labelFor,
  MUTATION_OPTIONS,
  openGuard,
  previews,
  printJson,
  printPreviews,
  reportFailure,
  usageError,
  warnAudit,
} from './support/guarded';
import { err, forTerminal, out } from './support/output';
import { paint } from './support/paint';

const NAME = 'shrink';

const shrink: CommandModule = {
  summary:
    'Right-size the shards of project indices: fewer (or, with --split, more) shards under the same name, copied, checked and journaled (resumable).',
  usage: [
    'usage: shardeck shrink INDEX|PATTERN --shards N [--split] [--dry-run] [--yes --accept-data-loss NAMES] [--no-snapshot | --snapshot-repo REPO] [--timeout SECONDS] [--json]',
    '       shardeck shrink --resume [--yes --accept-data-loss NAMES] | shardeck shrink --rollback [--yes --accept-data-loss NAMES]',
    'Per index: snapshot (where a repository exists), write block, primaries onto one node (several nodes), shrink into',
    '<index>-shrink-<time>, green, compared, the original deleted (its name held from auto-creation meanwhile), the copy',
    'cloned back under the name with its aliases, green, compared, unblocked, the copy deleted. Writes are refused from the',
    'block to its lift. A run killed anywhere goes on with --resume; --rollback puts the original back while it exists.',
  ].join('\n'),
  options: {
    ...MUTATION_OPTIONS,
    shards: { type: 'string' },
    split: { type: 'boolean' },
    'accept-data-loss': { type: 'string' },
    resume: { type: 'boolean' },
    rollback: { type: 'boolean' },
    'no-snapshot': { type: 'boolean' },
    'snapshot-repo': { type: 'string' },
    template: { type: 'string' },
    timeout: { type: 'string' },
  },
  group: 'change',
  flagHelp: {
    shards:
      'the shard count after: a divisor of the count now (the plan offers them; without it, each index gets its proposal: the fewest shards under ~30 GB each)',
    split: 'more shards instead (a multiple dividing index.number_of_routing_shards; proposed for shards over 50 GB)',
    yes: 'confirm without asking; the deletes of the originals still need --accept-data-loss with the index names',
    'dry-run': 'print the plan (documents, size, shards, the node and disk, the time, the steps and requests) and send nothing',
    'accept-data-loss': 'with --yes: the index names of the run, comma-separated, as the plan asks (the typed confirmation of a script)',
    resume: 'go on with the unfinished run (its index and step are named), from the step it stopped at',
    rollback: 'put the original of the unfinished run back as it was (its copy deleted, its block lifted), while it still exists',
    'no-snapshot': 'do not take a snapshot first (default: one, in the first registered repository, where there is one)',
    'snapshot-repo': 'the repository to take the snapshot in (default: the first registered)',
    template:
      "also set number_of_shards to N where the index template (e.g. service_v9) or the component template it is composed of sets it, and print the platform's topic.elasticsearch.index-templates-settings to paste (default: no template is changed); without an index: the template alone",
    timeout: 'seconds to wait for green, and for the primaries to reach one node (default 1800)',
  },
  examples: [
    "shardeck shrink 'service_v9_*' --shards 1 --template service_v9 --dry-run",
    'shardeck shrink service_v9_alpha --shards 1 --yes --accept-data-loss service_v9_alpha',
    'shardeck shrink --resume --yes --accept-data-loss service_v9_alpha',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const resume = Boolean(values.resume);
    const rollback = Boolean(values.rollback);
    if (resume && rollback) return usageError(NAME, '--resume goes on, --rollback puts the original back: give one of them', json);
    const [target, ...extra] = positionals;
    if (resume || rollback) {
      if (target !== undefined || values.shards !== undefined)
        return usageError(NAME, `--${resume ? 'resume' : 'rollback'} takes no index and no --shards: the unfinished run names them`, json);
    } else if ((target === undefined && values.template === undefined) || extra.length)
      return usageError(NAME, 'give one index or pattern: shardeck shrink service_v9_alpha --shards 1', json);
    if (values['no-snapshot'] && values['snapshot-repo'] !== undefined)
      return usageError(NAME, '--no-snapshot and --snapshot-repo contradict each other: give one of them', json);
    if (values['accept-data-loss'] !== undefined && !values.yes)
      return usageError(NAME, '--accept-data-loss goes with --yes (without it, the names are typed on the terminal)', json);
    const timeout =
      values.timeout === undefined ? { ok: true as const, value: 1800 } : parseTimeoutSeconds(String(values.timeout), 24 * 3600);
    if (!timeout.ok) return usageError(NAME, timeout.error, json);
    if (target !== undefined) {
      const syntax = checkIndexExpression(target);
      if (syntax) return usageError(NAME, syntax, json);
      if (values.shards !== undefined && !/^\d+$/.test(String(values.shards).trim()))
        return usageError(
          NAME,
          `--shards "${String(values.shards)}" is not a whole number: give the shard count after, e.g. --shards 1`,
          json,
        );
    }
    const mode: Mode = values.split ? 'split' : 'shrink';
    const say = (s: string) => (json ? err : out)(s);
    const tuning: ShrinkTuning = {
      greenTimeoutMs: timeout.value * 1000,
      moveTimeoutMs: timeout.value * 1000,
      onAuditWarning: warnAudit,
      onStep: (e) =>
        say(
          e.phase === 'start'
            ? `${paint('bold', `${displayText(e.index)} ${e.step}`)}: ${displayText(e.title)}\n`
            : `  ${e.phase === 'done' ? paint('green', 'done') : paint('red', 'FAILED')}: ${displayText(e.message ?? '')}\n`,
        ),
    };

    const { es, guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      if (resume || rollback) return await goOn(es, guard, values, tuning, rollback, json, say);
      if (target === undefined) return await templateOnly(es, guard, values, json);
      const unfinished = await unfinishedShrink(es);
      if (unfinished) {
        const message = `${unfinished.line}: finish it first (shardeck shrink --resume, or --rollback); nothing was sent`;
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: message, unfinished: true });
        err(`shardeck ${NAME}: ${displayText(message)}\n`);
        return EXIT.failed;
      }
      const session = shrinkSession(
        es,
        guard,
        {
          target,
          shards: values.shards === undefined ? '' : String(values.shards),
          snapshot: !values['no-snapshot'],
          template: typeof values.template === 'string' ? values.template : '',
          mode,
          ...(typeof values['snapshot-repo'] === 'string' ? { repository: values['snapshot-repo'] } : {}),
        },
        tuning,
      );
      let state: ShrinkState = await session.idle();
      session.send({ type: 'submit', now: Date.now() });
      state = await session.idle();
      if (state.phase === 'failed') {
        const failure = session.failure(state.message);
        if (isConnectionFailure(failure)) return reportFailure(NAME, failure, json);
        throw failure;
      }
      if (state.phase === 'input') {
        const listing = state.listing ?? [];
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: state.error ?? 'invalid input', listing });
        else if (listing.length > 1) for (const l of listing) err(`  ${displayText(l)}\n`);
        err(`shardeck ${NAME}: ${displayText(state.error ?? 'invalid input')}\n`);
        // A count or expression the operator got wrong is a usage error; what the cluster holds is a refusal.
        return /does not divide|not a whole number|not fewer|not more|not a multiple|matches no index|no such index|would match every|system \(dot\)|no snapshot repository/.test(
          state.error ?? '',
        )
          ? EXIT.usage
          : EXIT.failed;
      }
      if (state.phase !== 'review') throw new Error(`stopped (${state.phase})`);
      const review = state.review;
      // The template's request first (it is sent first), then the first index's steps.
      const requests = previews(guard, [
        ...(review.template?.plan ? [review.template.plan] : []),
        ...review.plans.flatMap((p, i) => (i === 0 ? requestsOf(p, review) : [])),
      ]);
      const head = { schema: JSON_SCHEMA, command: NAME, mode, target, plan: planJson(review) };
      if (!json) {
        printPlan(review, target);
        out(
          `requests of ${displayText(review.plans[0].index)}${review.plans.length > 1 ? ' (each index the same, with its own names)' : ''}:\n`,
        );
        printPreviews(requests);
      }
      if (values['dry-run']) {
        if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, requests });
        else out('dry run: nothing was sent\n');
        return EXIT.ok;
      }
      const c = await confirm(values, review.confirmText, json);
      if (!c) return EXIT.failed;
      session.send({ type: 'confirm', confirmation: c });
      state = await session.idle();
      if (state.phase === 'review') return refuse(state.error ?? 'not confirmed', json);
      return finish(state, json, head);
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

async function goOn(
  es: Parameters<typeof shrinkSession>[0],
  guard: Parameters<typeof shrinkSession>[1],
  values: CommandContext['values'],
  tuning: ShrinkTuning,
  rollback: boolean,
  json: boolean,
  say: (s: string) => void,
): Promise<number> {
  const u = await unfinishedShrink(es);
  if (!u) {
    const message = 'no unfinished right-sizing of this cluster (by you): nothing to go on with';
    if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, unfinished: false, message });
    else out(`${message}\n`);
    return EXIT.ok;
  }
  say(`${displayText(u.line)}\n`);
  if (u.stop) return refuse(u.stop, json);
  if (rollback && !u.canRollBack)
    return refuse(
      `${u.run.index} was deleted: a roll back cannot bring it back; shardeck shrink --resume goes on with its copy ${u.run.tmp}`,
      json,
    );
  if (!rollback) {
    say('steps left:\n');
    const ctx = {
      index: u.run.index,
      tmp: u.run.tmp,
      from: u.run.from,
      to: u.run.to,
      node: u.run.node,
      mode: u.progress.mode,
      snapshot: u.run.snapshot,
    };
    for (const s of u.run.steps.slice(u.run.steps.indexOf(u.step))) say(`  ${s}: ${displayText(stepTitle(s, ctx))}\n`);
  }
  if (values['dry-run']) {
    if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, dryRun: true, unfinished: u.line, canRollBack: u.canRollBack });
    else out('dry run: nothing was sent\n');
    return EXIT.ok;
  }
  const c = await confirm(values, u.progress.confirmText, json);
  if (!c) return EXIT.failed;
  const session = shrinkSession(es, guard, {}, tuning);
  let state = await session.idle();
  if (state.phase !== 'unfinished') throw new Error(`stopped (${state.phase})`);
  session.send({ type: 'confirm', confirmation: c, rollback });
  state = await session.idle();
  if (state.phase === 'unfinished') return refuse(state.error ?? 'not confirmed', json);
  return finish(state, json, { schema: JSON_SCHEMA, command: NAME, resumed: !rollback, rolledBack: rollback });
}

/** --yes with --accept-data-loss NAMES, else the names typed on the terminal; null: not confirmed (said). */
async function confirm(values: CommandContext['values'], names: string, json: boolean): Promise<Confirmation | null> {
  const typed = typeof values['accept-data-loss'] === 'string' ? values['accept-data-loss'] : undefined;
  if (values.yes) {
    if (typed === names) return { by: 'yes-flag', text: typed };
    const message =
      typed === undefined
        ? `each original is deleted once its copy is checked (data loss if anything went wrong): --yes needs --accept-data-loss ${names}; nothing was sent`
        : `--accept-data-loss names "${typed}" but this run deletes the originals of ${names}: give exactly that; nothing was sent`;
    refuse(message, json);
    return null;
  }
  if (json || !process.stdin.isTTY) {
    refuse(`no terminal to confirm on: add --yes --accept-data-loss ${names}; nothing was sent`, json);
    return null;
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const text = (
      await rl.question(forTerminal(`${labelFor(values)}each original is deleted once its copy is checked: type ${names} to go on: `))
    ).trim();
    if (text === names) return { by: 'typed', text };
    err('not confirmed: nothing was sent\n');
    return null;
  } finally {
    rl.close();
  }
}

function refuse(message: string, json: boolean): number {
  if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: message, refused: 'unconfirmed' });
  err(`shardeck ${NAME}: ${displayText(message)}\n`);
  return EXIT.failed;
}

function planJson(r: ShrinkReview) {
  return {
    indices: r.plans.map((p) => ({
      index: p.index,
      documents: p.docs,
      primaryBytes: p.primaryBytes,
      shards: { now: p.from, after: p.to, choices: p.targets, proposed: p.proposed },
      replicas: p.replicas,
      temporary: p.tmp,
      node: p.node,
      moveToOneNode: p.route,
      disk: {
        needBytes: p.disk.moveBytes + p.disk.copyBytes,
        availBytes: p.disk.availBytes,
        freeAfterBytes: p.disk.freeAfterBytes,
        verdict: p.disk.verdict,
        message: p.disk.message,
      },
      estimateMs: p.estimate.totalMs,
      writesRefusedMs: p.estimate.writesRefusedMs,
      aliases: p.aliases,
      snapshot: p.snapshot ?? null,
      steps: p.steps,
    })),
    skipped: r.skipped,
    totals: r.totals,
    capacity: r.capacity,
    autoCreateIndex: { now: r.autoCreate.now, whileNameFree: r.autoCreate.held },
    template: r.template
      ? { name: r.template.name, setter: r.template.setter, platformSettings: r.template.platformJson, reminder: PLATFORM_REMINDER }
      : null,
    warnings: r.warnings,
    confirmText: r.confirmText,
  };
}

function printPlan(r: ShrinkReview, target: string): void {
  const t = r.totals;
  out(
    `${displayText(target)}: ${r.mode} ${countWord(t.indices)}, ${formatCount(t.docs)} documents, ${formatBytes(t.bytes)}, about ${formatDuration(t.estimate.totalMs)}\n`,
  );
  out(
    `writes to each project are refused for about ${formatDuration(t.estimate.writesRefusedMs)} (from its write block to its lift; a write gets a cluster_block_exception)\n`,
  );
  for (const p of r.plans) {
    out(
      `  ${paint('bold', displayText(p.index))}: ${formatCount(p.docs)} documents, ${formatBytes(p.primaryBytes)}, ${p.from} -> ${p.to} shard${p.to === 1 ? '' : 's'} (choices: ${p.targets.join(', ') || 'none'}${p.proposed !== null ? `; proposed ${p.proposed}` : ''}), about ${formatDuration(p.estimate.totalMs)}\n`,
    );
    out(`    copy on ${displayText(p.node)}${p.route ? ' (every primary moved there first)' : ''}: ${displayText(p.disk.message)}\n`);
    if (p.aliases.length) out(`    aliases carried over: ${p.aliases.map(displayText).join(', ')}\n`);
    if (p.snapshot) out(`    snapshot first: ${displayText(`${p.snapshot.repository}/${p.snapshot.name}`)}\n`);
  }
  for (const s of r.skipped) out(`  ${displayText(s.index)}: left as it is (${displayText(s.reason)})\n`);
  const first = r.plans[0];
  out('steps (each index):\n');
  const ctx = {
    index: first.index,
    tmp: first.tmp,
    from: first.from,
    to: first.to,
    node: first.node,
    mode: r.mode,
    snapshot: first.snapshot,
  };
  first.steps.forEach((s, i) => out(`  ${i + 1}. ${s}: ${displayText(stepTitle(s, ctx))}\n`));
  if (r.autoCreate.held !== null)
    out(
      `action.auto_create_index while a name is free: ${displayText(r.autoCreate.now)} -> ${displayText(r.autoCreate.held)} (recorded, put back after the clone)\n`,
    );
  const cap = r.capacity;
  out(
    `shard capacity: ${formatCount(cap.before.open)} of ${formatCount(cap.before.limit)} open -> ${formatCount(cap.after.open)}` +
      (cap.before.projectIndices !== null
        ? `; new project indices that fit: ${formatCount(cap.before.projectIndices)} -> ${formatCount(cap.after.projectIndices)}`
        : '') +
      '\n',
  );
  for (const w of r.warnings) out(`${paint('yellow', 'warning:')} ${displayText(w)}\n`);
  if (r.template)
    printTemplate(
      r.template.plan
        ? r.template.plan.summary
        : `${r.template.setter.kind} template ${r.template.setter.name} says ${r.template.setter.shards} shards already`,
      r.template.platformJson,
    );
}

/** What the template change does, and the platform's JSON with the reminder to restart its services. */
function printTemplate(line: string, platformJson: Record<string, unknown>): void {
  out(`template: ${displayText(line)}\n`);
  out(`topic.elasticsearch.index-templates-settings:\n${displayBlock(JSON.stringify(platformJson, null, 2))}\n`);
  out(`${paint('yellow', 'note:')} ${PLATFORM_REMINDER}\n`);
}

/** `shrink --template NAME --shards N` without an index: the template alone, and the platform's JSON. */
async function templateOnly(
  es: Parameters<typeof shrinkSession>[0],
  guard: Parameters<typeof shrinkSession>[1],
  values: CommandContext['values'],
  json: boolean,
): Promise<number> {
  const name = String(values.template);
  if (values.shards === undefined || !/^\d+$/.test(String(values.shards).trim()) || Number(values.shards) < 1)
    return usageError(NAME, 'give the count for the template: shardeck shrink --template service_v9 --shards 1', json);
  const shards = Number(values.shards);
  const facts = await readTemplateFacts(es, name);
  if (!facts) return usageError(NAME, `index template "${name}" does not exist: nothing was sent (shardeck templates lists them)`, json);
  const t = templateReview(facts, shards);
  const requests = t.plan ? previews(guard, [t.plan]) : [];
  const head = {
    schema: JSON_SCHEMA,
    command: NAME,
    template: name,
    shards,
    setter: t.setter,
    platformSettings: t.platformJson,
    reminder: PLATFORM_REMINDER,
  };
  if (!json) {
    printTemplate(
      t.plan ? t.plan.summary : `${t.setter.kind} template ${t.setter.name} says ${shards} shards already: nothing to send`,
      t.platformJson,
    );
    printPreviews(requests);
  }
  if (values['dry-run'] || !t.plan) {
    if (json) printJson({ ...head, ok: true, dryRun: Boolean(values['dry-run']), sent: false, requests });
    else if (values['dry-run']) out('dry run: nothing was sent\n');
    return EXIT.ok;
  }
  const c = await confirmOnTerminal(NAME, [t.plan], values);
  if (!c) return EXIT.failed;
  const r = await changeTemplate(guard, t, c, { onAuditWarning: warnAudit });
  if (json) printJson({ ...head, ok: r.ok, ...(r.ok ? {} : { error: r.message }), sent: true, requests, result: r });
  else out(`${r.ok ? 'ok' : 'FAILED'}: ${displayText(r.message)}\n`);
  return r.ok ? EXIT.ok : EXIT.failed;
}

const countWord = (n: number) => `${formatCount(n)} ${n === 1 ? 'index' : 'indices'}`;

function finish(state: ShrinkState, json: boolean, head: object): number {
  if (state.phase === 'failed') {
    if (json) printJson({ ...head, ok: false, error: state.message });
    err(`shardeck ${NAME}: ${displayText(state.message)}\n`);
    return EXIT.failed;
  }
  if (state.phase !== 'done') throw new Error(`stopped (${state.phase})`);
  const report = state.report;
  if (json) printJson({ ...head, ok: report.ok, ...(report.ok ? {} : { error: report.message }), report });
  else printReport(report);
  return report.ok ? EXIT.ok : EXIT.failed;
}

function printReport(r: ShrinkReport): void {
  out(`${r.ok ? paint('green', 'ok') : paint('red', 'FAILED')}: ${displayText(r.message)} (${formatDuration(r.tookMs)})\n`);
  for (const i of r.indices)
    out(
      `  ${displayText(i.index)}: ${i.from} -> ${i.to} shards, ${i.docsBefore === null ? '-' : formatCount(i.docsBefore)} documents before, ${i.docsAfter === null ? '-' : formatCount(i.docsAfter)} after (${formatDuration(i.ms)}): ${displayText(i.outcome)}\n`,
    );
  if (r.shardsPerNode.length)
    out(
      `shards per node: ${r.shardsPerNode.map((n) => `${displayText(n.node)} ${formatCount(n.before)} -> ${formatCount(n.after)}`).join(', ')}\n`,
    );
  if (r.template) {
    out(`template: ${r.template.ok ? 'ok' : 'FAILED'}: ${displayText(r.template.message)}\n`);
    if (r.template.ok) {
      out(`topic.elasticsearch.index-templates-settings:\n${displayBlock(JSON.stringify(r.template.platformJson, null, 2))}\n`);
      out(`${paint('yellow', 'note:')} ${PLATFORM_REMINDER}\n`);
    }
  }
  if (r.capacity && r.capacity.before.projectIndices !== null)
    out(
      `new project indices that fit: ${formatCount(r.capacity.before.projectIndices)} -> ${formatCount(r.capacity.after.projectIndices)} (${formatCount(r.capacity.after.open)} of ${formatCount(r.capacity.after.limit)} shard copies open)\n`,
    );
}

export default shrink;
