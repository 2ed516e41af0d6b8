// shardeck forcemerge <index|pattern> --expunge-deletes [--yes] [--dry-run] [--json] [--include-system]
// Gets the disk back after deletes: shows deleted documents and store size per index and each
// node's headroom before the high watermark, refuses past it, merges with only_expunge_deletes as
// a task through the guard, and reports before -> after.
// The CLI twin of the force-merge wizard: drives the same session (services/wizards/forcemerge.ts).
import { headroomText } from '../domain/nodes/disk';
import { failureSentence } from '../domain/privileges';
import { reviewOf, type MergeFacts, type MergeState } from '../domain/wizards/forcemerge';
import { formatBytes, formatCount, formatPercent } from '../domain/text/format';
import { checkIndexExpression, describeMatch } from '../domain/mutation/targets';
import { forcemergeSession } from '../services/wizards/forcemerge';
import { GuardRefusal, type RefusalKind } from '../services/guard';
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
import { paint } from './support/paint';
import {
  prepareSnapshotFirst,
  SNAPSHOT_FIRST_HELP,
  SNAPSHOT_FIRST_OPTIONS,
  snapshotFirstAsked,
  takeSnapshotFirst,
  type SnapshotFirstReport,
  type SnapshotFirstRun,
} from './support/snapshot-first';
import { displayText } from '../domain/text/display-text';
import { err, out } from './support/output';

const NAME = 'forcemerge';

function factsLines(f: MergeFacts): string[] {
  return [
    ...f.indices.map((i) => `  ${i.name}: ${formatCount(i.docsDeleted)} deleted docs, store ${formatBytes(i.storeBytes)}`),
    ...f.disks.map(
      (d) => `  node ${d.node}: disk ${formatPercent(d.usedPercent)} used, ${headroomText(d.headroomToHighBytes)} (${d.level})`,
    ),
  ];
}

const forcemerge: CommandModule = {
  summary: 'Free the disk deleted documents still take (force merge with only_expunge_deletes), reporting before -> after.',
  usage:
    'usage: shardeck forcemerge <index|pattern> --expunge-deletes [--yes] [--dry-run] [--json] [--include-system] [--snapshot-first] [--snapshot-repo REPO]',
  options: {
    ...MUTATION_OPTIONS,
    'expunge-deletes': { type: 'boolean' },
    'include-system': { type: 'boolean' },
    ...SNAPSHOT_FIRST_OPTIONS,
  },
  group: 'change',
  flagHelp: {
    yes: 'confirm without asking',
    'dry-run': 'show the preview and send nothing',
    'expunge-deletes': 'only_expunge_deletes=true: merge away deleted documents (required)',
    'include-system': 'let a pattern match system and hidden indices (default: excluded)',
    ...SNAPSHOT_FIRST_HELP,
  },
  examples: [
    'shardeck forcemerge service_v9_alpha --expunge-deletes --dry-run',
    "shardeck forcemerge 'service_v9_*' --expunge-deletes",
    'shardeck forcemerge service_v9_alpha --expunge-deletes --yes --json',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [target, ...extra] = positionals;
    if (target === undefined || extra.length)
      return usageError(NAME, 'give one index or pattern: shardeck forcemerge service_v9_alpha --expunge-deletes', json);
    if (!values['expunge-deletes'])
      return usageError(
        NAME,
        'only the merge that expunges deleted documents is offered: add --expunge-deletes (a full merge to one segment is not)',
        json,
      );
    const includeSystem = Boolean(values['include-system']);
    const syntax = checkIndexExpression(target, { includeSystem });
    if (syntax) return usageError(NAME, syntax, json);

    const { es, guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const session = forcemergeSession(es, guard, target, true, { includeSystem, onAuditWarning: warnAudit });
      let state: MergeState = await session.idle();
      if (state.phase === 'input') return usageError(NAME, state.error ?? 'invalid input', json);
      if (state.phase !== 'review')
        return reportFailure(NAME, session.failure(state.phase === 'failed' ? state.message : `stopped (${state.phase})`), json);
      const review = reviewOf(state);
      const { before, plans } = review;
      const head = { schema: JSON_SCHEMA, command: NAME, target, matched: review.indices, before, warnings: review.warnings };
      if (!json) {
        out(`${target} matches ${describeMatch(review.indices)}\n${factsLines(before).join('\n')}\n`);
        for (const w of review.warnings) out(`${paint('yellow', 'warning:')} ${w}\n`);
      }
      // Once taken, every later answer says which snapshot holds what the merge touched.
      let snapshotFirst: SnapshotFirstReport | undefined;
      const fail = (message: string, extra: object) => {
        if (json) printJson({ ...head, ok: false, ...(snapshotFirst ? { snapshotFirst } : {}), ...extra, error: message });
        err(`shardeck ${NAME}: ${message}\n`);
        return EXIT.failed;
      };
      if (review.refuse) {
        if (json) printJson({ ...head, ok: false, sent: false, error: review.refuse });
        err(`shardeck ${NAME}: ${review.refuse}; nothing was sent\n`);
        return EXIT.failed;
      }
      // --snapshot-first: a snapshot of exactly the matched indices, previewed first, sent first.
      const asked = snapshotFirstAsked(values);
      let first: SnapshotFirstRun | undefined;
      if (asked !== undefined) {
        const prepared = await prepareSnapshotFirst(es, guard, 'merge', review.indices, asked);
        if ('error' in prepared) return fail(`${prepared.error}; nothing was sent`, { sent: false });
        first = prepared;
      }
      const requests = previews(guard, [...(first ? [first.plan] : []), ...plans], { includeSystem });
      if (!json) printPreviews(requests);
      if (values['dry-run']) {
        if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, requests });
        else out('dry run: nothing was sent\n');
        return EXIT.ok;
      }
      const confirmation = await confirmOnTerminal(NAME, plans, values);
      if (!confirmation) return EXIT.failed;
      // The merge's confirmation covers the snapshot listed first in its preview; not taken whole: no merge.
      if (first) snapshotFirst = await takeSnapshotFirst(first, confirmation, json);
      if (snapshotFirst && !snapshotFirst.taken)
        return fail(`no whole snapshot first (${displayText(snapshotFirst.lines[0])}): the merge was not sent`, { sent: false });
      if (snapshotFirst?.taken && !json) out(`${paint('green', displayText(snapshotFirst.line))}\n`);
      if (!json) {
        let waiting = false;
        let warned = review.warnings.length;
        let task: string | undefined;
        session.subscribe(() => {
          const s = session.getState();
          if (s.phase !== 'applying') return;
          if (s.waitingLeases && !waiting)
            out('waiting (reading only, up to 60 s) until the retention leases let the deleted documents go...\n');
          waiting = s.waitingLeases;
          for (const w of s.warnings.slice(warned)) out(`${paint('yellow', 'warning:')} ${w}\n`);
          warned = s.warnings.length;
          if (s.task && s.task !== task) out(`task ${s.task} started (it cannot be cancelled; re-attach with: shardeck tasks ${s.task})\n`);
          task = s.task;
        });
      }
      session.send({ type: 'confirm', confirmation });
      state = await session.idle();
      if (state.phase === 'failed') {
        if (state.refused) return reportFailure(NAME, new GuardRefusal(state.refused as RefusalKind, state.message), json);
        if (state.lostTask) return fail(state.message, { sent: true, requests, task: state.lostTask, lost: true });
        if (state.applied) return fail(state.message, { sent: true, requests, applied: state.applied });
        return reportFailure(NAME, session.failure(state.message), json);
      }
      if (state.phase !== 'done') return fail(`stopped (${state.phase})`, { sent: true, requests });
      const { after, failures, task, gone } = state;
      // Its task died with its node: said as a gone delete says it (exit and JSON shape alike).
      if (gone) {
        if (json)
          printJson({
            ...head,
            ok: false,
            sent: true,
            requests,
            ...(snapshotFirst ? { snapshotFirst } : {}),
            task,
            gone: true,
            after,
            report: gone,
          });
        else for (const [i, l] of gone.lines.entries()) out(i === 0 ? `${paint('red', 'FAILED')}: ${l}\n` : `  ${l}\n`);
        return EXIT.failed;
      }
      const ok = failures.length === 0;
      if (json) printJson({ ...head, ok, sent: true, requests, ...(snapshotFirst ? { snapshotFirst } : {}), task, after, failures });
      else {
        // A refused merge is not a finished one (issue 41): the cause first, the privilege named.
        out(
          ok
            ? `${paint('green', 'ok')}: merge finished; before -> after:\n`
            : `${paint('red', 'FAILED')}: the merge did not finish: ${failureSentence(failures[0])}; before -> after:\n`,
        );
        for (const b of before.indices) {
          const a = after.indices.find((i) => i.name === b.name);
          out(
            `  ${b.name}: deleted docs ${formatCount(b.docsDeleted)} -> ${formatCount(a?.docsDeleted)}, store ${formatBytes(b.storeBytes)} -> ${formatBytes(a?.storeBytes)}\n`,
          );
        }
        for (const b of before.disks) {
          const a = after.disks.find((d) => d.node === b.node);
          out(`  node ${b.node}: disk used ${formatBytes(b.usedBytes)} -> ${formatBytes(a?.usedBytes)}\n`);
        }
        for (const f of failures.slice(1)) out(`  failure: ${failureSentence(f)}\n`);
      }
      return ok ? EXIT.ok : EXIT.failed;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default forcemerge;
