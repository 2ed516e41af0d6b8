// shardeck delete-by-query <index> (--older-than D | --source ID | --query-file F) [--expect N] [--yes] [--dry-run] [--json] [--conflicts proceed]
// Query before delete (seed, rule 1): the same query is counted and sampled first; the delete is
// capped at that count (max_docs), confirmed by typing the count (or --yes with --expect equal to
// it), sent once through the guard as a task, followed, and counted again afterwards.
// The CLI twin of the delete wizard: drives the same session (services/wizards/delete.ts).
import { readNamedFile } from '../boundary/files';
import { AFTER_DELETE, CONFLICTS_LINE, matchShare, refreshPlan } from '../domain/delete/plan';
import { olderThanQuery, parseExpected, parseOlderThan, parseUntil, sourceQuery } from '../domain/delete/query';
import { progressLine } from '../domain/delete/task';
import {
  choiceOfFile,
  parseRequestsPerSecond,
  untilChoice,
  type DeleteState,
  type QueryChoice,
  type QueryKind,
} from '../domain/wizards/delete';
import { formatCount, formatPercent } from '../domain/text/format';
import { checkIndexExpression, describeMatch } from '../domain/mutation/targets';
import { deleteSession } from '../services/wizards/delete';
import { GuardRefusal, type RefusalKind } from '../services/guard';
import { EXIT, type CommandContext, type CommandModule } from './support/common';
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

const NAME = 'delete-by-query';

/** Samples the preview prints (the wizard shows a page of 4). */
const CLI_SAMPLES = 10;

/**
 * The one query the flags name, checked before connecting (a string is the usage error), and the
 * wizard form's kind and text that name it.
 */
function chooseQuery(values: CommandContext['values'], now: number): (QueryChoice & { kind: QueryKind; value: string }) | string {
  const given = (['older-than', 'until', 'source', 'query-file'] as const).filter((k) => values[k] !== undefined);
  if (given.length !== 1)
    return `${given.length ? 'give only one' : 'give one'} of --older-than (90d or 2026-01-31), --until TIMESTAMP (inclusive), --source ID or --query-file FILE to say which documents to delete`;
  if (values['older-than'] !== undefined) {
    const value = String(values['older-than']);
    const at = parseOlderThan(value, now);
    if (!at.ok) return at.error;
    return {
      kind: 'olderThan',
      value,
      query: olderThanQuery(at.value),
      described: `modified_at older than ${at.value}`,
      resolvedOlderThan: at.value,
    };
  }
  if (values.until !== undefined) {
    const value = String(values.until);
    const at = parseUntil(value, now);
    if (!at.ok) return at.error;
    return { kind: 'until', value, ...untilChoice(at.value) };
  }
  if (values.source !== undefined) {
    const value = String(values.source);
    const q = sourceQuery(value);
    if (!q.ok) return q.error;
    return { kind: 'source', value, query: q.value, described: `documents of source ${value}` };
  }
  const file = String(values['query-file']);
  let text: string;
  try {
    text = readNamedFile(file);
  } catch (e) {
    return `cannot read --query-file ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check the path`;
  }
  const c = choiceOfFile(file, text);
  return c.ok ? { kind: 'file', value: file, ...c.value } : c.error;
}

const deleteByQuery: CommandModule = {
  summary: 'Delete exactly the documents a query matched in the preview (capped by max_docs), then report what still matches.',
  usage:
    'usage: shardeck delete-by-query <index> (--older-than 90d|2026-01-31 | --until 2026-01-31T12:00:00Z | --source ID | --query-file FILE) [--expect N] [--requests-per-second N] [--yes] [--dry-run] [--json] [--conflicts proceed] [--include-system] [--snapshot-first] [--snapshot-repo REPO]\n' +
    'a task whose status cannot be read for 3 minutes (the node went away) is reported lost, exit 5, never retried; shardeck tasks ID tells what it deleted once the node is back. A node restarted while it runs is waited through: the task died with it, what it deleted is counted from the query (exit 5), nothing resent',
  options: {
    ...MUTATION_OPTIONS,
    'older-than': { type: 'string' },
    until: { type: 'string' },
    source: { type: 'string' },
    'query-file': { type: 'string' },
    expect: { type: 'string' },
    conflicts: { type: 'string' },
    'requests-per-second': { type: 'string' },
    'include-system': { type: 'boolean' },
    ...SNAPSHOT_FIRST_OPTIONS,
  },
  group: 'change',
  flagHelp: {
    yes: 'confirm without asking; needs --expect with the count the preview matched',
    'dry-run': 'run the query as a search and show the preview; delete nothing',
    'older-than': 'documents older than an age (90d, 12w, 1y) or a date (2026-01-31): modified_at lt',
    until:
      "documents up to and including a timestamp with its zone, or a date meaning up to the end of that day UTC: the seed's modified_at lte",
    source: 'documents of one source id',
    'query-file': 'a file holding the query (JSON, the "query" object)',
    expect: 'the number of documents the preview matched; the delete is capped at it (max_docs)',
    conflicts: 'abort (default) or proceed on version conflicts',
    'requests-per-second': 'throttle the delete (default: unthrottled)',
    'include-system': 'let a pattern match system and hidden indices (default: excluded)',
    ...SNAPSHOT_FIRST_HELP,
  },
  examples: [
    'shardeck delete-by-query service_v9_alpha --older-than 365d --dry-run',
    'shardeck delete-by-query service_v9_alpha --source src-crm --expect 1200 --yes',
    'shardeck delete-by-query service_v9_alpha --query-file old.json --requests-per-second 500',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [target, ...extra] = positionals;
    if (target === undefined || extra.length)
      return usageError(NAME, 'give one index (or pattern): shardeck delete-by-query service_v9_alpha --older-than 365d', json);
    const includeSystem = Boolean(values['include-system']);
    // Every input check runs before connecting: bad input sends nothing.
    const syntax = checkIndexExpression(target, { includeSystem });
    if (syntax) return usageError(NAME, syntax, json);
    const now = Date.now();
    const choice = chooseQuery(values, now);
    if (typeof choice === 'string') return usageError(NAME, choice, json);
    const conflictsRaw = values.conflicts ?? 'abort';
    if (conflictsRaw !== 'abort' && conflictsRaw !== 'proceed')
      return usageError(
        NAME,
        `--conflicts "${String(conflictsRaw)}" is not a policy: give --conflicts proceed (or leave it out to abort on conflicts)`,
        json,
      );
    const conflicts = conflictsRaw;
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
      return usageError(
        NAME,
        '--yes needs --expect N, the number of documents the preview showed (run with --dry-run first to see it); nothing was sent',
        json,
      );

    const { es, guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const session = deleteSession(
        es,
        guard,
        { target, kind: choice.kind, value: choice.value, conflicts, rate: String(rate) },
        {
          includeSystem,
          samplePage: CLI_SAMPLES,
          onAuditWarning: warnAudit,
        },
      );
      const previewStart = performance.now();
      session.send({ type: 'submit', now });
      let state: DeleteState = await session.idle();
      const previewMs = Math.round(performance.now() - previewStart);
      if (state.phase === 'input') return usageError(NAME, state.error ?? 'invalid input', json);
      if (state.phase !== 'review' && state.phase !== 'nothing')
        return reportFailure(NAME, session.failure(state.phase === 'failed' ? state.message : `stopped (${state.phase})`), json);
      const preview = state.phase === 'review' ? state.preview : { matching: 0, indexTotal: state.indexTotal, samples: [] };
      const matched = state.indices;
      const head = {
        schema: JSON_SCHEMA,
        command: NAME,
        target,
        matched,
        query: choice.query,
        ...(choice.resolvedOlderThan ? { olderThan: choice.resolvedOlderThan } : {}),
        ...(choice.resolvedUntil ? { until: choice.resolvedUntil } : {}),
        matching: preview.matching,
        indexTotal: preview.indexTotal,
        samples: preview.samples,
        conflicts,
      };
      if (!json) {
        out(`${target} matches ${describeMatch(matched)}\n`);
        out(`which documents: ${choice.described}\nquery: ${JSON.stringify(choice.query)}\n`);
        out(
          `${paint('bold', formatCount(preview.matching))} of ${formatCount(preview.indexTotal)} documents match (${formatPercent(matchShare(preview.matching, preview.indexTotal), 1)})\n`,
        );
        if (preview.samples.length) {
          out(`first ${preview.samples.length} (oldest first):\n`);
          for (const s of preview.samples)
            out(`  ${s.id}  ${s.modifiedAt ?? '-'}  ${s.sources.join(',') || '-'}${s.title ? `  ${s.title}` : ''}\n`);
        }
      }
      if (state.phase === 'nothing') {
        if (json) printJson({ ...head, ok: true, nothingToDo: true, sent: false });
        else out('nothing to do: no document matches; nothing was sent\n');
        return EXIT.ok;
      }
      // The session's plan: only the indices previewed, capped at the count, refresh=true.
      const { plan } = state;
      // --snapshot-first: a snapshot of exactly the previewed indices, previewed first, sent first.
      const asked = snapshotFirstAsked(values);
      let first: SnapshotFirstRun | undefined;
      if (asked !== undefined) {
        const prepared = await prepareSnapshotFirst(es, guard, 'delete', matched, asked);
        if ('error' in prepared) {
          if (json) printJson({ ...head, ok: false, sent: false, error: `${prepared.error}; nothing was sent` });
          err(`shardeck ${NAME}: ${prepared.error}; nothing was sent\n`);
          return EXIT.failed;
        }
        first = prepared;
      }
      // The refresh after a cancelled or failed task (whose own refresh=true is skipped) is a write
      // too: previewed here, sent (only then) through the guard with this confirmation.
      const requests = previews(guard, [...(first ? [first.plan] : []), plan, refreshPlan(target, AFTER_DELETE)], { includeSystem });
      if (!json) {
        out(`${CONFLICTS_LINE[conflicts]}\n`);
        printPreviews(requests);
      }
      if (values['dry-run']) {
        if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, requests });
        else out(`dry run: nothing was sent (to delete these ${preview.matching}: --yes --expect ${preview.matching})\n`);
        return EXIT.ok;
      }
      // Once taken, every later answer says which snapshot holds what the delete touched.
      let snapshotFirst: SnapshotFirstReport | undefined;
      const fail = (message: string, extra: object) => {
        if (json) printJson({ ...head, ok: false, ...(snapshotFirst ? { snapshotFirst } : {}), ...extra, error: message });
        err(`shardeck ${NAME}: ${message}\n`);
        return EXIT.failed;
      };
      if (expect !== undefined && expect !== preview.matching)
        return fail(
          `the query matches ${preview.matching} documents now, not the ${expect} given with --expect: look at the preview again; nothing was sent`,
          { sent: false },
        );
      const confirmation = await confirmOnTerminal(NAME, [plan], values, expect === undefined ? undefined : String(expect));
      if (!confirmation) return EXIT.failed;
      // The delete's confirmation covers the snapshot listed first in its preview; not taken whole: no delete.
      if (first) snapshotFirst = await takeSnapshotFirst(first, confirmation, json);
      if (snapshotFirst && !snapshotFirst.taken)
        return fail(`no whole snapshot first (${displayText(snapshotFirst.lines[0])}): the delete was not sent`, { sent: false });
      if (snapshotFirst?.taken && !json) out(`${paint('green', displayText(snapshotFirst.line))}\n`);
      let deleteMs = 0;
      const deleteStart = performance.now();
      let task: string | undefined;
      let shown = '';
      session.subscribe(() => {
        const s = session.getState();
        if (s.phase !== 'running') {
          // From sending the delete until its task was seen complete: what curl's synchronous request takes.
          if (s.phase === 'counting' && !deleteMs) deleteMs = Math.round(performance.now() - deleteStart);
          return;
        }
        if (json) return;
        if (s.task !== task) out(`task ${s.task} started (re-attach with: shardeck tasks ${s.task})\n`);
        task = s.task;
        const line = s.progress ? progressLine(s.progress) : shown;
        if (line !== shown) out(`  ${line}\n`);
        shown = line;
      });
      session.send({ type: 'typeCount', text: 'text' in confirmation ? (confirmation.text ?? '') : '' });
      session.send({ type: 'confirm', by: confirmation.by === 'yes-flag' ? 'yes-flag' : 'typed' });
      state = await session.idle();
      if (state.phase === 'review') return fail(state.error ?? 'not confirmed: nothing was sent', { sent: false });
      if (state.phase === 'failed') {
        if (state.refused) return reportFailure(NAME, new GuardRefusal(state.refused as RefusalKind, state.message), json);
        if (state.lostTask)
          return fail(state.message, { sent: true, requests, task: state.lostTask, lost: true, last: state.last ?? null });
        if (state.applied) return fail(state.message, { sent: true, requests, applied: state.applied });
        return reportFailure(NAME, session.failure(state.message), json);
      }
      if (state.phase !== 'done') return fail(`stopped (${state.phase})`, { sent: true, requests });
      const timing = { preview_ms: previewMs, delete_ms: deleteMs };
      if (state.countLag && !json) out(`  ${state.countLag}\n`);
      const { report } = state;
      if (json)
        printJson({
          ...head,
          ok: report.ok,
          sent: true,
          requests,
          ...(snapshotFirst ? { snapshotFirst } : {}),
          task: state.task,
          ...(state.gone ? { gone: true } : {}),
          progress: state.final,
          report,
          timing,
        });
      else
        for (const [i, l] of report.lines.entries())
          out(i === 0 ? `${report.ok ? paint('green', 'ok') : paint('red', 'FAILED')}: ${l}\n` : `  ${l}\n`);
      return report.ok ? EXIT.ok : EXIT.failed;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default deleteByQuery;
