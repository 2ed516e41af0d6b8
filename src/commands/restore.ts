// shardeck restore REPO SNAPSHOT --indices LIST [--rename-suffix S | --replace] [--accept-data-loss LIST] [--yes] [--dry-run] [--json]
// The CLI twin of the restore wizard: drives the same session (services/wizards/restore.ts).
import { isConnectionFailure } from '../cluster/connection';
import { recoveryLine, restoreRecoveries } from '../domain/snapshots';
import { checkIndexExpression } from '../domain/mutation/targets';
import { performMutations } from '../services/wizards/session';
import { parseTimeoutSeconds } from '../domain/text/values';
import { formatBytes } from '../domain/text/format';
import {
  DEFAULT_SUFFIX,
  replaceConfirmText,
  restoreCancelOf,
  restoreCopyLines,
  restoreNotes,
  type RestoreForm,
  type RestoreState,
} from '../domain/wizards/restore';
import { comparisonLines } from '../domain/corruption/loss';
import { connectionSecrets } from '../domain/host/host-env';
import path from 'node:path';
import { displayText } from '../domain/text/display-text';
import { restoreSession } from '../services/wizards/restore';
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
  reviewOf,
} from './support/guarded';
import { paint } from './support/paint';
import { err, out } from './support/output';

const NAME = 'restore';

const restore: CommandModule = {
  summary:
    'Restore indices from a snapshot beside the originals (new names, default) or in place (typed names), followed until green, counts verified.',
  usage:
    'usage: shardeck restore REPO SNAPSHOT --indices LIST [--include-system] [--rename-suffix=-restored [--include-aliases] | --replace --accept-data-loss LIST] [--yes] [--dry-run] [--json] [--timeout SECONDS] | shardeck restore cancel INDEX... [--yes] [--dry-run] [--json]',
  options: {
    ...MUTATION_OPTIONS,
    indices: { type: 'string' },
    'rename-suffix': { type: 'string' },
    'include-aliases': { type: 'boolean' },
    'include-system': { type: 'boolean' },
    replace: { type: 'boolean' },
    'accept-data-loss': { type: 'string' },
    'backup-dir': { type: 'string' },
    timeout: { type: 'string' },
  },
  group: 'recover',
  flagHelp: {
    yes: 'confirm without asking (an in-place restore still needs --accept-data-loss with the index names)',
    'dry-run': 'show the preview and send nothing',
    indices: 'the indices to restore: a name, a list or a pattern, matched against what the snapshot holds (the preview lists them)',
    'rename-suffix': `restore beside the originals, each under its name plus this suffix (default: ${DEFAULT_SUFFIX}); no data is touched`,
    'include-aliases':
      "beside: put the snapshot's aliases on the copies too (off by default: an alias the original still holds would then point at both)",
    'include-system': 'system (dot) indices may be named in --indices (left out otherwise, and never matched by a pattern)',
    replace: 'restore in place: close the originals (delete a red one) and restore over them (what was written since the snapshot is lost)',
    'accept-data-loss':
      'with --replace --yes: the restored index names, comma-separated, as the preview asks (the typed confirmation of a script; ending in :without-copy when a red index has shard folders on another host, which are not copied)',
    timeout: 'seconds to follow the restore until the indices are green (default 1800)',
    'backup-dir':
      'with --replace over a red index: where its shard folders are copied before it is deleted (default /var/backups/shardeck as root)',
  },
  examples: [
    'shardeck restore backups nightly-2026.11.25 --indices service_v9_alpha',
    'shardeck restore backups nightly-2026.11.25 --indices service_v9_alpha --replace --yes --accept-data-loss service_v9_alpha',
    'shardeck restore cancel service_v9_alpha-restored',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals[0] === 'cancel' && values.indices === undefined) return cancel(values, positionals.slice(1), json);
    const [repository, snapshot, ...extra] = positionals;
    if (!repository || !snapshot || extra.length || typeof values.indices !== 'string' || !values.indices)
      return usageError(NAME, 'give the repository, the snapshot and --indices: shardeck restore REPO SNAPSHOT --indices LIST', json);
    if (values.replace && values['rename-suffix'] !== undefined)
      return usageError(NAME, '--replace restores in place, --rename-suffix beside: give one of them', json);
    if (values.replace && values['include-aliases'])
      return usageError(NAME, "--include-aliases goes with a restore beside (in place always brings the snapshot's aliases back)", json);
    if (values['accept-data-loss'] !== undefined && !values.replace)
      return usageError(NAME, '--accept-data-loss goes with --replace', json);
    if (values['backup-dir'] !== undefined && !values.replace) return usageError(NAME, '--backup-dir goes with --replace', json);
    const timeout =
      values.timeout === undefined ? { ok: true as const, value: 1800 } : parseTimeoutSeconds(String(values.timeout), 6 * 3600);
    if (!timeout.ok) return usageError(NAME, timeout.error, json);
    const form: RestoreForm = {
      repository,
      snapshot,
      indices: values.indices,
      mode: values.replace ? 'replace' : 'beside',
      suffix: typeof values['rename-suffix'] === 'string' ? values['rename-suffix'] : DEFAULT_SUFFIX,
      ...(values['include-aliases'] ? { includeAliases: true } : {}),
      ...(values['include-system'] ? { includeSystem: true } : {}),
    };
    const { es, guard, conn, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const session = restoreSession(es, guard, form, {
        watchTimeoutMs: timeout.value * 1000,
        onAuditWarning: (w) => err(`${paint('yellow', 'warning:')} ${w}\n`),
        hostSecrets: connectionSecrets(conn),
        ...(values['backup-dir'] !== undefined ? { backupDir: path.resolve(String(values['backup-dir'])) } : {}),
        onCopyOutput: (c) => err(paint('dim', c)),
      });
      const review = await reviewOf(session, NAME, json);
      if (typeof review === 'number') return review;
      let state: RestoreState = review;
      const { facts, plans } = review;
      const requests = previews(guard, plans);
      const notes = restoreNotes(form, facts, '--include-aliases');
      const details = (index: string) => facts.snapshot.indexDetails?.[index];
      const head = {
        schema: JSON_SCHEMA,
        command: NAME,
        repository,
        snapshot,
        mode: form.mode,
        snapshotTakenAt: facts.snapshot.startMs ? new Date(facts.snapshot.startMs).toISOString() : null,
        indices: facts.indices.map((i) => ({
          index: i.index,
          target: i.target,
          documentsNow: i.originalDocs ?? null,
          ...(i.unreadable ? { unreadable: i.unreadable } : {}),
          aliasesNow: i.aliases ?? [],
          shards: details(i.index)?.shards ?? null,
          bytes: details(i.index)?.bytes ?? null,
          ...(i.copy
            ? { copy: { here: i.copy.here, elsewhere: i.copy.elsewhere, backupDir: i.copy.backupDir, freeBytes: i.copy.freeBytes } }
            : {}),
          ...(i.loss ? { loss: { restore: i.loss.restore, exorcise: i.loss.exorcise, docsBeforeRed: i.loss.before } } : {}),
        })),
        confirmText:
          form.mode === 'replace'
            ? replaceConfirmText(
                facts.indices.map((i) => i.index),
                facts,
              )
            : null,
        includeGlobalState: false,
        includeAliases: form.mode === 'replace' || form.includeAliases === true,
        notes: notes.map((n) => n.text),
      };
      if (!json) {
        out(
          `from ${displayText(`${repository}/${snapshot}`)} (taken ${facts.snapshot.startMs ? new Date(facts.snapshot.startMs).toISOString() : 'at an unknown time'}):\n`,
        );
        for (const i of facts.indices) {
          const d = details(i.index);
          out(
            `  ${displayText(i.index)} -> ${displayText(i.target)}${d ? ` (${d.shards} shard${d.shards === 1 ? '' : 's'}, ${formatBytes(d.bytes)} in the snapshot)` : ''}${i.originalDocs !== undefined ? ` (the original holds ${i.originalDocs} documents now)` : ''}${i.unreadable ? ` (the original ${i.unreadable})` : ''}\n`,
          );
        }
        for (const n of notes) out(`${n.tone ? paint(n.tone, displayText(n.text)) : displayText(n.text)}\n`);
        for (const i of facts.indices.filter((x) => x.loss)) out(comparisonLines([i.loss!.restore, i.loss!.exorcise]).join('\n') + '\n');
        for (const l of restoreCopyLines(facts)) out(`${l.startsWith('NOT') ? paint('red', l) : l}\n`);
        if (form.mode === 'replace')
          out(
            `${paint('red', 'in place:')} the originals are closed (a red one deleted) and overwritten: every document written to them since the snapshot is lost\n`,
          );
        printPreviews(requests);
      }
      if (values['dry-run']) {
        if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, requests });
        else out('dry run: nothing was sent\n');
        return EXIT.ok;
      }
      const typed = typeof values['accept-data-loss'] === 'string' ? values['accept-data-loss'] : undefined;
      if (form.mode === 'replace' && values.yes && typed === undefined) {
        const message = `an in-place restore loses data: add --accept-data-loss ${replaceConfirmText(
          facts.indices.map((i) => i.index),
          facts,
        )} to --yes; nothing was sent`;
        if (json) printJson({ ...head, ok: false, error: message });
        err(`shardeck ${NAME}: ${displayText(message)}\n`);
        return EXIT.failed;
      }
      const confirmation = await confirmOnTerminal(NAME, plans, values, form.mode === 'replace' ? typed : undefined);
      if (!confirmation) return EXIT.failed;
      // Progress per shard on stderr while it runs, once per change.
      let last = '';
      const unsubscribe = session.subscribe(() => {
        const s = session.getState();
        if (s.phase !== 'watching' || !s.progress) return;
        const lines = [`health ${s.progress.health}`, ...s.progress.recoveries.map((r) => `  ${recoveryLine(r).text}`)];
        if (lines.join('\n') === last) return;
        last = lines.join('\n');
        for (const l of lines) err(`${displayText(l)}\n`);
      });
      // From sending the requests until the restore was seen green and counted: what curl's
      // wait_for_completion=true takes, plus the polling (the benchmark's figure).
      const sentAt = performance.now();
      session.send({ type: 'confirm', confirmation });
      state = await session.idle();
      const timing = { restore_ms: Math.round(performance.now() - sentAt) };
      unsubscribe();
      if (state.phase === 'failed') {
        const failure = session.failure(state.message);
        if (!state.results?.length && isConnectionFailure(failure)) return reportFailure(NAME, failure, json);
        if (json)
          printJson({ ...head, ok: false, error: state.message, requests, results: state.results ?? [], copied: state.copied ?? [] });
        // What went out before the failure (a close or delete, the restore): the operator must know it.
        else for (const r of state.results ?? []) out(`${r.ok ? 'ok' : 'failed'}: ${displayText(r.verified?.message ?? r.message)}\n`);
        err(`shardeck ${NAME}: ${displayText(state.message)}\n`);
        return EXIT.failed;
      }
      if (state.phase !== 'done') throw new Error(`stopped (${state.phase})`);
      const { report, results } = state;
      const ok = report.green;
      if (json) {
        printJson({
          ...head,
          ok,
          ...(ok ? {} : { error: `the restored indices are ${report.health}, not green, after ${timeout.value}s` }),
          dryRun: false,
          sent: true,
          requests,
          results,
          report,
          timing,
          copied: state.copied ?? [],
        });
        return ok ? EXIT.ok : EXIT.failed;
      }
      for (const l of state.copied ?? []) out(`${displayText(l)}\n`);
      for (const r of results) out(`ok: ${displayText(r.verified?.message ?? r.message)}\n`);
      out(
        `health of the restored indices: ${paint(report.health, report.health)}${ok ? '' : ` (not green after ${timeout.value}s: see shardeck status)`}\n`,
      );
      for (const c of report.counts)
        out(
          c.after === null
            ? `${displayText(c.target)}: not counted (not green yet)\n`
            : `${displayText(c.target)}: ${c.after} documents restored` +
                (c.before === undefined
                  ? ''
                  : ` (the original held ${c.before} before${form.mode === 'replace' ? ' the restore' : ''}; ${c.after - c.before >= 0 ? '+' : ''}${c.after - c.before})`) +
                '\n',
        );
      for (const l of report.losses ?? []) out(`${displayText(l.text)}\n`);
      return ok ? EXIT.ok : EXIT.failed;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

/**
 * shardeck restore cancel INDEX...: the only cancel Elasticsearch has, the delete of the indices
 * being restored. Exactly the names given, each one checked to be restoring now (a running
 * SNAPSHOT recovery), previewed and typed: with --yes the names given count as typed.
 */
async function cancel(values: CommandContext['values'], args: string[], json: boolean): Promise<number> {
  const names = [
    ...new Set(
      args
        .flatMap((a) => a.split(','))
        .map((n) => n.trim())
        .filter(Boolean),
    ),
  ];
  if (!names.length) return usageError(NAME, 'name the indices being restored: shardeck restore cancel INDEX...', json);
  const bad = names
    .map((n) => checkIndexExpression(n) ?? (/[*?]/.test(n) ? `"${n}": exact index names only, no pattern` : null))
    .find(Boolean);
  if (bad) return usageError(NAME, bad, json);
  for (const flag of ['rename-suffix', 'replace', 'accept-data-loss', 'include-aliases', 'timeout', 'backup-dir'] as const)
    if (values[flag] !== undefined) return usageError(NAME, `--${flag} does not go with restore cancel`, json);
  const { es, guard, close } = await openGuard(values);
  try {
    guard.assertWritable();
    const decision = restoreCancelOf(names, restoreRecoveries(await es.recoveries(true)));
    if (!decision.ok) {
      if (json) printJson({ schema: JSON_SCHEMA, command: `${NAME} cancel`, ok: false, error: decision.error, code: EXIT.failed });
      err(`shardeck ${NAME} cancel: ${displayText(decision.error)}; nothing was sent\n`);
      return EXIT.failed;
    }
    const { plan, from } = decision;
    const requests = previews(guard, [plan]);
    const head = { schema: JSON_SCHEMA, command: `${NAME} cancel`, repository: from.repository, snapshot: from.snapshot, indices: names };
    if (!json) printPreviews(requests);
    if (values['dry-run']) {
      if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, requests });
      else out('dry run: nothing was sent\n');
      return EXIT.ok;
    }
    const confirmation = await confirmOnTerminal(`${NAME} cancel`, [plan], values, values.yes ? names.join(',') : undefined);
    if (!confirmation) return EXIT.failed;
    const [result] = await performMutations(guard, { type: 'mutate', plans: [plan], confirmation });
    if (result.auditWarning) err(`${paint('yellow', 'warning:')} ${displayText(result.auditWarning)}\n`);
    if (json)
      printJson({
        ...head,
        ok: result.ok,
        ...(result.ok ? {} : { error: result.message }),
        dryRun: false,
        sent: true,
        requests,
        results: [result],
      });
    else if (result.ok)
      out(`ok: ${displayText(result.verified?.message ?? result.message)}: the restore is cancelled; the snapshot is untouched\n`);
    else err(`shardeck ${NAME} cancel: ${displayText(result.message)}\n`);
    return result.ok ? EXIT.ok : EXIT.failed;
  } catch (e) {
    return reportFailure(`${NAME} cancel`, e, json);
  } finally {
    await close();
  }
}

export default restore;
