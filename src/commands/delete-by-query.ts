// shardeck delete-by-query <index> (--older-than D | --source ID | --query-file F) [--expect N] [--yes] [--dry-run] [--json] [--conflicts proceed]
// Query before delete (seed, rule 1): the same query is counted and sampled first; the delete is
// capped at that count (max_docs), confirmed by typing the count (or --yes with --expect equal to
// it), sent once through the guard as a task, followed, and counted again afterwards.
import fs from 'node:fs';
import { AFTER_DELETE, CONFLICTS_LINE, deleteByQueryPlan, deleteSkippedItsRefresh, matchShare, refreshPlan, type ConflictsPolicy } from '../domain/delete/plan';
import { olderThanQuery, parseExpected, parseOlderThan, parseQueryBody, sourceQuery, type Query } from '../domain/delete/query';
import { deleteReport } from '../domain/delete/report';
import { progressLine, taskIdOf } from '../domain/delete/task';
import { parseRequestsPerSecond } from '../domain/wizards/delete';
import { formatCount, formatPercent } from '../domain/format';
import { checkIndexExpression, describeMatch, describeOutcome, pinIndices } from '../domain/mutation';
import { countLagNote, countMatching, followTask, previewDelete, refreshIndex } from '../services/delete-by-query';
import { EXIT, type CommandModule } from './common';
import { confirmOnTerminal, JSON_SCHEMA, MUTATION_OPTIONS, openGuard, previews, printJson, printPreviews, reportFailure, usageError, warnAudit } from './guarded';
import { paint } from './paint';

const NAME = 'delete-by-query';

type QueryChoice = { query: Query; described: string; resolvedOlderThan?: string };

/** The one query the flags name, checked before connecting; a string is the usage error. */
function chooseQuery(values: Record<string, unknown>, now: number): QueryChoice | string {
  const given = (['older-than', 'source', 'query-file'] as const).filter((k) => values[k] !== undefined);
  if (given.length !== 1)
    return `${given.length ? 'give only one' : 'give one'} of --older-than (90d or 2026-01-31), --source ID or --query-file FILE to say which documents to delete`;
  if (values['older-than'] !== undefined) {
    const at = parseOlderThan(String(values['older-than']), now);
    if (!at.ok) return at.error;
    return { query: olderThanQuery(at.value), described: `modified_at older than ${at.value}`, resolvedOlderThan: at.value };
  }
  if (values.source !== undefined) {
    const q = sourceQuery(String(values.source));
    if (!q.ok) return q.error;
    return { query: q.value, described: `documents of source ${values.source}` };
  }
  const file = String(values['query-file']);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return `cannot read --query-file ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check the path`;
  }
  const body = parseQueryBody(text, file);
  if (!body.ok) return body.error;
  const ignored = body.value.ignored.length ? ` (only "query" is used; ignored: ${body.value.ignored.join(', ')})` : '';
  return { query: body.value.query, described: `the query of ${file}${ignored}` };
}

const deleteByQuery: CommandModule = {
  summary: 'Delete exactly the documents a query matched in the preview (capped by max_docs), then report what still matches.',
  usage:
    'usage: shardeck delete-by-query <index> (--older-than 90d|2026-01-31 | --source ID | --query-file FILE) [--expect N] [--requests-per-second N] [--yes] [--dry-run] [--json] [--conflicts proceed] [--include-system]\n' +
    'a task whose status cannot be read for 15 s (the node went away) is reported lost, exit 5, never retried; shardeck tasks ID tells what it deleted once the node is back',
  options: {
    ...MUTATION_OPTIONS,
    'older-than': { type: 'string' },
    source: { type: 'string' },
    'query-file': { type: 'string' },
    expect: { type: 'string' },
    conflicts: { type: 'string' },
    'requests-per-second': { type: 'string' },
    'include-system': { type: 'boolean' },
  },
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [target, ...extra] = positionals;
    if (target === undefined || extra.length) return usageError(NAME, 'give one index (or pattern): shardeck delete-by-query service_v9_alpha --older-than 365d', json);
    const includeSystem = Boolean(values['include-system']);
    // Every input check runs before connecting: bad input sends nothing.
    const syntax = checkIndexExpression(target, { includeSystem });
    if (syntax) return usageError(NAME, syntax, json);
    const choice = chooseQuery(values, Date.now());
    if (typeof choice === 'string') return usageError(NAME, choice, json);
    const conflictsRaw = values.conflicts ?? 'abort';
    if (conflictsRaw !== 'abort' && conflictsRaw !== 'proceed')
      return usageError(NAME, `--conflicts "${conflictsRaw}" is not a policy: give --conflicts proceed (or leave it out to abort on conflicts)`, json);
    const conflicts = conflictsRaw as ConflictsPolicy;
    let expect: number | undefined;
    if (values.expect !== undefined) {
      const e = parseExpected(String(values.expect));
      if (!e.ok) return usageError(NAME, e.error, json);
      expect = e.value;
    }
    let rate = -1;
    if (values['requests-per-second'] !== undefined) {
      const r = parseRequestsPerSecond(String(values['requests-per-second']));
      if (!r.ok) return usageError(NAME, `--requests-per-second ${r.error}`, json);
      rate = r.value;
    }
    if (values.yes && expect === undefined && !values['dry-run'])
      return usageError(NAME, '--yes needs --expect N, the number of documents the preview showed (run with --dry-run first to see it); nothing was sent', json);

    const { guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const resolution = await guard.resolveTarget(target, { includeSystem });
      if (!resolution.ok) return usageError(NAME, resolution.error, json);
      const previewStart = performance.now();
      const preview = await previewDelete(guard, target, choice.query);
      const previewMs = Math.round(performance.now() - previewStart);
      const head = {
        schema: JSON_SCHEMA,
        command: NAME,
        target,
        matched: resolution.indices,
        query: choice.query,
        ...(choice.resolvedOlderThan ? { olderThan: choice.resolvedOlderThan } : {}),
        matching: preview.matching,
        indexTotal: preview.indexTotal,
        samples: preview.samples,
        conflicts,
      };
      if (!json) {
        process.stdout.write(`${target} matches ${describeMatch(resolution.indices)}\n`);
        process.stdout.write(`which documents: ${choice.described}\nquery: ${JSON.stringify(choice.query)}\n`);
        process.stdout.write(
          `${paint('bold', formatCount(preview.matching))} of ${formatCount(preview.indexTotal)} documents match (${formatPercent(matchShare(preview.matching, preview.indexTotal), 1)})\n`,
        );
        if (preview.samples.length) {
          process.stdout.write(`first ${preview.samples.length} (oldest first):\n`);
          for (const s of preview.samples)
            process.stdout.write(`  ${s.id}  ${s.modifiedAt ?? '-'}  ${s.sources.join(',') || '-'}${s.title ? `  ${s.title}` : ''}\n`);
        }
      }
      if (preview.matching === 0) {
        if (json) printJson({ ...head, ok: true, nothingToDo: true, sent: false });
        else process.stdout.write('nothing to do: no document matches; nothing was sent\n');
        return EXIT.ok;
      }
      // Documents are deleted only from the indices previewed, not from whatever the pattern matches later.
      const plan = pinIndices(deleteByQueryPlan(target, choice.query, preview.matching, conflicts, rate), target, resolution.indices);
      // refresh=true so the count afterwards sees what the delete did.
      plan.querystring.refresh = 'true';
      // The refresh after a cancelled or failed task (whose own refresh=true is skipped) is a write
      // too: previewed here, sent (only then) through the guard with this confirmation.
      const requests = previews(guard, [plan, refreshPlan(target, AFTER_DELETE)], { includeSystem });
      if (!json) {
        process.stdout.write(`${CONFLICTS_LINE[conflicts]}\n`);
        printPreviews(requests);
      }
      if (values['dry-run']) {
        if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, requests });
        else process.stdout.write(`dry run: nothing was sent (to delete these ${preview.matching}: --yes --expect ${preview.matching})\n`);
        return EXIT.ok;
      }
      if (expect !== undefined && expect !== preview.matching) {
        const message = `the query matches ${preview.matching} documents now, not the ${expect} given with --expect: look at the preview again; nothing was sent`;
        if (json) printJson({ ...head, ok: false, sent: false, error: message });
        process.stderr.write(`shardeck ${NAME}: ${message}\n`);
        return EXIT.failed;
      }
      const confirmation = await confirmOnTerminal(NAME, [plan], values, expect === undefined ? undefined : String(expect));
      if (!confirmation) return EXIT.failed;
      const deleteStart = performance.now();
      const outcome = await guard.execute(plan, confirmation, { includeSystem });
      warnAudit(outcome.auditWarning);
      const task = outcome.ok ? taskIdOf(outcome.body) : null;
      if (!outcome.ok || !task) {
        const message = outcome.ok ? 'the delete was not accepted: no task id in the answer (not retried; see shardeck audit)' : `the delete: ${describeOutcome(outcome)}`;
        if (json) printJson({ ...head, ok: false, sent: true, requests, applied: outcome.applied, error: message });
        process.stderr.write(`shardeck ${NAME}: ${message}\n`);
        return EXIT.failed;
      }
      if (!json) process.stdout.write(`task ${task} started (re-attach with: shardeck tasks ${task})\n`);
      let shown = '';
      const followed = await followTask(guard, task, (p) => {
        const line = progressLine(p);
        if (!json && line !== shown) process.stdout.write(`  ${line}\n`);
        shown = line;
      });
      if (!followed.ok) {
        const message = `lost task ${task}: its status could not be read (${followed.lost}); it was not retried. When the node answers again: shardeck tasks ${task}`;
        if (json) printJson({ ...head, ok: false, sent: true, requests, task, lost: true, last: followed.last ?? null, error: message });
        process.stderr.write(`shardeck ${NAME}: ${message}\n`);
        return EXIT.failed;
      }
      // From sending the delete until its task was seen complete: what curl's synchronous request takes.
      const timing = { preview_ms: previewMs, delete_ms: Math.round(performance.now() - deleteStart) };
      const notRefreshed = deleteSkippedItsRefresh(followed.progress) ? await refreshIndex(guard, target, AFTER_DELETE, confirmation, { includeSystem }) : null;
      if (notRefreshed && !json) process.stdout.write(`  ${await countLagNote(guard, target, notRefreshed)}\n`);
      const stillMatching = await countMatching(guard, target, choice.query);
      const report = deleteReport(preview.matching, followed.progress, stillMatching);
      if (json) printJson({ ...head, ok: report.ok, sent: true, requests, task, progress: followed.progress, report, timing });
      else for (const [i, l] of report.lines.entries()) process.stdout.write(i === 0 ? `${report.ok ? paint('green', 'ok') : paint('red', 'FAILED')}: ${l}\n` : `  ${l}\n`);
      return report.ok ? EXIT.ok : EXIT.failed;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default deleteByQuery;
