// The restore session: reads the snapshot and the indices it would restore over or beside, sends the
// close (in place) and the restore through the Guard, then follows the restore shard by shard
// (_recovery, type SNAPSHOT) until the restored indices are green, and counts their documents.
import type { EsApi } from '../../cluster/api';
import { ConnError } from '../../cluster/connection';
import { restoreRecoveries } from '../../domain/snapshots';
import {
  matchSnapshotIndices,
  restoreMachine,
  type RestoreField,
  targetName,
  type RestoreEffect,
  type RestoreEvent,
  type RestoreFacts,
  type RestoreForm,
  type RestoreProgress,
  type RestoreState,
} from '../../domain/wizards/restore';
import type { Guard } from '../guard';
import { lossAfterwards } from '../../domain/corruption/loss';
import type { HostSecrets } from '../../domain/host/host-env';
import { exorciseLossOf, planIndexCopy, restoreLossOf, takeIndexCopy } from '../red-copy';
import { waitUntil } from '../wait';
import { performMutations, WizardSession } from './session';

export interface RestoreTuning {
  /** Where the copy of a red original's shard folders goes (default: root's /var/backups/shardeck). */
  backupDir?: string;
  /** What is secret in shardeck's environment: kept out of the copy's host commands. */
  hostSecrets?: HostSecrets;
  /** The copy's steps as they run (the CLI prints them on stderr). */
  onCopyOutput?: (chunk: string) => void;
  /** The longest one read of the restore's progress waits on the node for green (ms). */
  pollMs?: number;
  /** How long to wait for the restored indices to be green (ms). */
  watchTimeoutMs?: number;
  onAuditWarning?: (warning: string) => void;
}

type Loaded = { facts: RestoreFacts } | { refused: { kind: 'input' | 'missing'; message: string; field?: RestoreField } };

/**
 * In place over a red original: the copy its shard folders get before it is deleted, and what
 * each way back loses (the restore from the counts on record, the repair from a copy CheckIndex
 * read, if one was).
 */
async function redFacts(es: EsApi, guard: Guard, index: string, form: RestoreForm, startMs: number | undefined, backupDir?: string) {
  const copy = await planIndexCopy(es, index, backupDir);
  const snapshot = { repository: form.repository, name: form.snapshot, ...(startMs !== undefined ? { startMs } : {}) };
  const restore = restoreLossOf(guard.previewConnection.url, index, snapshot);
  return { copy, loss: { restore: restore.loss, exorcise: exorciseLossOf(copy), before: restore.before } };
}

async function load(es: EsApi, guard: Guard, form: RestoreForm, backupDir?: string): Promise<Loaded> {
  let snapshot;
  try {
    snapshot = await es.snapshotInfo(form.repository, form.snapshot);
  } catch (e) {
    if (e instanceof ConnError && e.status === 404) return { refused: { kind: 'missing', message: e.esReason ?? e.message } };
    throw e;
  }
  if (!snapshot) return { refused: { kind: 'missing', message: `no snapshot ${form.snapshot} in ${form.repository}` } };
  const m = matchSnapshotIndices(form.indices, snapshot.indices, form.includeSystem);
  if (!m.ok) return { refused: { kind: 'input', message: m.error, field: 'indices' } };
  const [rows, aliases] = await Promise.all([
    es.data('indices').then((all) => new Map(all.map((r) => [r.name, r]))),
    es.indexAliases(m.indices),
  ]);
  const indices = await Promise.all(
    m.indices.map(async (index) => {
      const target = targetName(index, form);
      const t = rows.get(target);
      const original = rows.get(index);
      // An exact count of the original (the _cat figure may lag a refresh behind). A red original
      // (a corrupt primary: the checklist's restore route) cannot be counted (503): said, not thrown.
      let originalDocs: number | undefined;
      let unreadable: string | undefined;
      if (original?.status === 'open') {
        try {
          originalDocs = await es.count(index);
        } catch (e) {
          if (!(e instanceof ConnError && e.status === 503)) throw e;
          unreadable = `cannot be counted: ${e.esType ?? 'HTTP 503'} (a primary shard is not available)`;
        }
      }
      const red =
        form.mode === 'replace' && t?.health === 'red' ? await redFacts(es, guard, index, form, snapshot.startMs, backupDir) : null;
      return {
        index,
        target,
        ...(red ? red : {}),
        ...(t ? { existing: { status: t.status, health: t.health } } : {}),
        ...(originalDocs !== undefined ? { originalDocs } : {}),
        ...(unreadable ? { unreadable } : {}),
        ...(aliases[index] ? { aliases: aliases[index] } : {}),
      };
    }),
  );
  return { facts: { snapshot, indices } };
}

export function restoreSession(es: EsApi, guard: Guard, form: RestoreForm, tuning: RestoreTuning = {}) {
  // Set once the restore is cancelled: the watch stops reading (its indices are being deleted).
  let stopped = false;
  return new WizardSession<RestoreState, RestoreEvent, RestoreEffect>(restoreMachine(form), async (f, send) => {
    if (f.type === 'stop') {
      stopped = true;
      const results = await performMutations(guard, { type: 'mutate', plans: [f.plan], confirmation: f.confirmation });
      for (const r of results) if (r.auditWarning) tuning.onAuditWarning?.(r.auditWarning);
      send({ type: 'applied', results });
    } else if (f.type === 'load') {
      const r = await load(es, guard, f.form, tuning.backupDir);
      send('facts' in r ? { type: 'loaded', facts: r.facts } : { type: 'refused', ...r.refused });
    } else if (f.type === 'copy') {
      // Each red original's folders on this host, with the checklist's backup and verify steps; nothing is sent before.
      const lines: string[] = [];
      for (const i of f.facts.indices.filter((x) => x.copy?.here.length)) {
        const taken = await takeIndexCopy(
          guard,
          i.copy!,
          f.confirmation,
          { output: (c) => tuning.onCopyOutput?.(c), info: (line) => send({ type: 'copyLine', line }) },
          tuning.hostSecrets ?? { envNames: [], values: [] },
          `deleting the red index ${i.index} for a restore in place from ${form.repository}/${form.snapshot}`,
        );
        lines.push(...taken.lines);
        if (!taken.ok) return send({ type: 'copied', ok: false, lines, message: taken.message });
      }
      send({ type: 'copied', ok: true, lines });
    } else if (f.type === 'mutate') {
      const results = await performMutations(guard, f);
      for (const r of results) if (r.auditWarning) tuning.onAuditWarning?.(r.auditWarning);
      send({ type: 'applied', results });
    } else {
      const targets = f.indices.map((i) => i.target);
      const pollMs = tuning.pollMs ?? 1000;
      const read = async (): Promise<RestoreProgress> => {
        if (stopped) return { recoveries: [], health: 'cancelled' };
        try {
          // The health read waits on the node until green (at most a poll): the restore is seen done when it is.
          const [recoveries, health] = await Promise.all([es.recoveries(false, targets), es.greenWithin(targets.join(','), pollMs)]);
          return { recoveries: restoreRecoveries(recoveries, targets), health: health.status };
        } catch (e) {
          if (stopped) return { recoveries: [], health: 'cancelled' };
          throw e;
        }
      };
      // Green alone is not enough: right after the restore is accepted, the health read may still
      // see the index as it was (seen on a red in-place target: the count that followed got 503).
      // Done when every target's restore shards are DONE and the targets are green.
      const restored = (p: RestoreProgress) =>
        p.health === 'green' &&
        targets.every((t) => p.recoveries.some((r) => r.index === t)) &&
        p.recoveries.every((r) => r.stage === 'DONE');
      const { value, met } = await waitUntil(read, (p) => restored(p) || stopped, {
        timeoutMs: tuning.watchTimeoutMs ?? 30 * 60_000,
        // Not green: the node has just waited a poll. Green with a recovery not yet DONE: a short pause.
        intervalMs: (p) => (p.health === 'green' ? Math.min(pollMs, 100) : 0),
        onPending: (progress) => send({ type: 'progress', progress }),
      });
      if (stopped) return;
      send({ type: 'progress', progress: value });
      // Not green in time: a target still red cannot be counted (503); the report says "not green", not the count's failure.
      const countOf = (target: string) =>
        met
          ? es.count(target)
          : es.count(target).catch((e: unknown) => {
              if (e instanceof ConnError && e.status === 503) return null;
              throw e;
            });
      const counts = await Promise.all(f.indices.map(async (i) => ({ ...i, after: await countOf(i.target) })));
      // In place over a red original: what was expected against what was counted, in the audit (and so the timeline).
      const losses = [];
      for (const { index, loss } of f.losses ?? []) {
        const after = counts.find((c) => c.index === index)?.after;
        if (after === null || after === undefined) continue;
        const a = lossAfterwards(index, 'restore', { lost: loss.restore.lost, docsBefore: loss.before?.docs ?? null }, after);
        await guard
          .runHostRead({ command: `GET /${encodeURIComponent(index)}/_count`, target: index, summary: a.text }, () =>
            Promise.resolve({ ok: true }),
          )
          .catch(() => undefined);
        losses.push({ index, expected: loss.restore.lost, lost: a.lost, text: a.text });
      }
      send({ type: 'settled', report: { counts, health: value.health, green: met, ...(losses.length ? { losses } : {}) } });
    }
  });
}

/** The console's way to open it: `services.open(restoreWizard, form)` (services/wizards/index.ts). */
export const restoreWizard = (es: EsApi, guard: Guard, tuning: RestoreTuning, form: RestoreForm) => restoreSession(es, guard, form, tuning);
