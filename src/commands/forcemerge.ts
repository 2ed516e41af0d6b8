// shardeck forcemerge <index|pattern> --expunge-deletes [--yes] [--dry-run] [--json] [--include-system]
// Gets the disk back after deletes: shows deleted documents and store size per index and each
// node's headroom before the high watermark, refuses past it, merges with only_expunge_deletes as
// a task through the guard, and reports before -> after.
import { taskIdOf } from '../domain/delete/task';
import { forcemergePlan, judgeMergeSpace } from '../domain/merge';
import { flushPlan } from '../domain/wizards/forcemerge';
import { formatBytes, formatCount, formatPercent } from '../domain/format';
import { checkIndexExpression, describeMatch, describeOutcome, pinIndices } from '../domain/mutation';
import { followTask, mergeFacts, mergeFactsAfter, retainingShards, waitForLeases, type MergeFacts } from '../services/delete-by-query';
import { EXIT, type CommandModule } from './common';
import { confirmOnTerminal, JSON_SCHEMA, MUTATION_OPTIONS, openGuard, previews, printJson, printPreviews, reportFailure, usageError, warnAudit } from './guarded';
import { paint } from './paint';

const NAME = 'forcemerge';

const LEASE_NOTE = (n: number) =>
  `${n} shard ${n === 1 ? 'copy still retains' : 'copies still retain'} recently deleted documents for its history (retention leases, synced every 30 s): a merge now would not reclaim them, so shardeck waits for the leases first`;

function factsLines(f: MergeFacts): string[] {
  return [
    ...f.indices.map((i) => `  ${i.name}: ${formatCount(i.docsDeleted)} deleted docs, store ${formatBytes(i.storeBytes)}`),
    ...f.disks.map(
      (d) => `  node ${d.node}: disk ${formatPercent(d.usedPercent)} used, ${formatBytes(d.headroomToHighBytes)} before the high watermark (${d.level})`,
    ),
  ];
}

const forcemerge: CommandModule = {
  summary: 'Free the disk deleted documents still take (force merge with only_expunge_deletes), reporting before -> after.',
  usage: 'usage: shardeck forcemerge <index|pattern> --expunge-deletes [--yes] [--dry-run] [--json] [--include-system]',
  options: { ...MUTATION_OPTIONS, 'expunge-deletes': { type: 'boolean' }, 'include-system': { type: 'boolean' } },
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [target, ...extra] = positionals;
    if (target === undefined || extra.length) return usageError(NAME, 'give one index or pattern: shardeck forcemerge service_v9_alpha --expunge-deletes', json);
    if (!values['expunge-deletes'])
      return usageError(NAME, 'only the merge that expunges deleted documents is offered: add --expunge-deletes (a full merge to one segment is not)', json);
    const includeSystem = Boolean(values['include-system']);
    const syntax = checkIndexExpression(target, { includeSystem });
    if (syntax) return usageError(NAME, syntax, json);

    const { guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const resolution = await guard.resolveTarget(target, { includeSystem });
      if (!resolution.ok) return usageError(NAME, resolution.error, json);
      const before = await mergeFacts(guard, resolution.indices);
      const space = judgeMergeSpace(
        before.indices.map((i) => ({ index: i.name, docsDeleted: i.docsDeleted, storeBytes: i.storeBytes })),
        before.disks,
      );
      const hasDeleted = before.indices.some((i) => i.docsDeleted > 0);
      const retaining = hasDeleted ? await retainingShards(guard, target) : 0;
      if (retaining) space.warnings.push(LEASE_NOTE(retaining));
      // Sent to the indices shown, not to the pattern: one created meanwhile is not merged.
      const plan = pinIndices(forcemergePlan(target), target, resolution.indices);
      // Right after a delete the merge would keep the deleted documents (they sit above the safe
      // commit): a flush commits them first, as the wizard does.
      const plans = hasDeleted ? [pinIndices(flushPlan(target), target, resolution.indices), plan] : [plan];
      const head = { schema: JSON_SCHEMA, command: NAME, target, matched: resolution.indices, before, warnings: space.warnings };
      if (!json) {
        process.stdout.write(`${target} matches ${describeMatch(resolution.indices)}\n${factsLines(before).join('\n')}\n`);
        for (const w of space.warnings) process.stdout.write(`${paint('yellow', 'warning:')} ${w}\n`);
      }
      if (space.refuse) {
        if (json) printJson({ ...head, ok: false, sent: false, error: space.refuse });
        process.stderr.write(`shardeck ${NAME}: ${space.refuse}; nothing was sent\n`);
        return EXIT.failed;
      }
      const requests = previews(guard, plans, { includeSystem });
      if (!json) printPreviews(requests);
      if (values['dry-run']) {
        if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, requests });
        else process.stdout.write('dry run: nothing was sent\n');
        return EXIT.ok;
      }
      const confirmation = await confirmOnTerminal(NAME, plans, values);
      if (!confirmation) return EXIT.failed;
      if (hasDeleted) {
        const flushed = await guard.execute(plans[0], confirmation, { includeSystem });
        warnAudit(flushed.auditWarning);
        if (flushed.applied !== 'yes') {
          const message = `the flush before the merge: ${describeOutcome(flushed)}; nothing was merged (see shardeck audit)`;
          if (json) printJson({ ...head, ok: false, sent: true, requests, applied: flushed.applied, error: message });
          process.stderr.write(`shardeck ${NAME}: ${message}\n`);
          return EXIT.failed;
        }
      }
      if (retaining || (hasDeleted && (await retainingShards(guard, target)) > 0)) {
        if (!json) process.stdout.write('waiting (reading only, up to 60 s) until the retention leases let the deleted documents go...\n');
        if (!(await waitForLeases(guard, target)) && !json)
          process.stdout.write(`${paint('yellow', 'warning:')} leases still retain deleted documents: the merge may reclaim only part of them\n`);
      }
      const outcome = await guard.execute(plan, confirmation, { includeSystem });
      warnAudit(outcome.auditWarning);
      const task = outcome.ok ? taskIdOf(outcome.body) : null;
      if (!task) {
        const message = outcome.ok ? 'the merge was not accepted: no task id in the answer (not retried; see shardeck audit)' : `the merge: ${describeOutcome(outcome)}`;
        if (json) printJson({ ...head, ok: false, sent: true, requests, applied: outcome.applied, error: message });
        process.stderr.write(`shardeck ${NAME}: ${message}\n`);
        return EXIT.failed;
      }
      if (!json) process.stdout.write(`task ${task} started (it cannot be cancelled; re-attach with: shardeck tasks ${task})\n`);
      const followed = await followTask(guard, task, () => {}, { intervalMs: 1000 });
      if (!followed.ok) {
        const message = `lost task ${task}: its status could not be read (${followed.lost}); it was not retried. When the node answers again: shardeck tasks ${task}`;
        if (json) printJson({ ...head, ok: false, sent: true, requests, task, lost: true, error: message });
        process.stderr.write(`shardeck ${NAME}: ${message}\n`);
        return EXIT.failed;
      }
      const after = await mergeFactsAfter(guard, before, resolution.indices);
      const ok = followed.progress.failures.length === 0;
      if (json) printJson({ ...head, ok, sent: true, requests, task, after, failures: followed.progress.failures });
      else {
        process.stdout.write(`${ok ? paint('green', 'ok') : paint('red', 'FAILED')}: merge finished; before -> after:\n`);
        for (const b of before.indices) {
          const a = after.indices.find((i) => i.name === b.name);
          process.stdout.write(
            `  ${b.name}: deleted docs ${formatCount(b.docsDeleted)} -> ${formatCount(a?.docsDeleted)}, store ${formatBytes(b.storeBytes)} -> ${formatBytes(a?.storeBytes)}\n`,
          );
        }
        for (const b of before.disks) {
          const a = after.disks.find((d) => d.node === b.node);
          process.stdout.write(`  node ${b.node}: disk used ${formatBytes(b.usedBytes)} -> ${formatBytes(a?.usedBytes)}\n`);
        }
        for (const f of followed.progress.failures) process.stdout.write(`  failure: ${f}\n`);
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
