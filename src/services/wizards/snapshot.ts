// The snapshot session: reads what a repository or snapshot change needs (repositories, each
// node's path.repo, the exact indices), sends the one plan through the Guard, and follows a
// snapshot to its end (GET _snapshot/<repo>/<snap>/_status until it is no longer running).
import type { EsApi } from '../../cluster/api';
import { describeOutcome } from '../../domain/mutation/audit';
import {
  snapshotMachine,
  stillRunning,
  type SnapshotEffect,
  type SnapshotEvent,
  type SnapshotFacts,
  type SnapshotRequest,
  type SnapshotState,
} from '../../domain/wizards/snapshot';
import type { Guard } from '../guard';
import type { SnapshotRepository } from '../../domain/snapshots';
import { waitUntil } from '../wait';
import { recordCounts } from '../timeline';
import type { TimelineEntry } from '../../domain/timeline';
import { sendOne, WizardSession } from './session';

export interface SnapshotTuning {
  /** Between two reads of a running snapshot's progress (ms). */
  pollMs?: number;
  /** How long to follow a snapshot at most (ms). */
  followTimeoutMs?: number;
  onAuditWarning?: (warning: string) => void;
}

async function load(es: EsApi, guard: Guard, req: SnapshotRequest): Promise<SnapshotFacts> {
  const repositories = await es.repositories();
  if (req.kind === 'repo-add') return { repositories, pathRepo: await es.nodesPathRepo() };
  if (req.kind !== 'create') return { repositories };
  if (req.indices !== undefined) {
    const r = await guard.resolveTarget(req.indices);
    return r.ok ? { repositories, indices: r.indices } : { repositories, indicesError: r.error };
  }
  // Every open index but the system ones, each by name: what the preview lists is what is taken.
  const rows = await es.data('indices');
  return {
    repositories,
    indices: rows
      .filter((r) => r.status === 'open' && !r.system)
      .map((r) => r.name)
      .sort(),
  };
}

export function snapshotSession(es: EsApi, guard: Guard, req: SnapshotRequest, tuning: SnapshotTuning = {}) {
  return new WizardSession<SnapshotState, SnapshotEvent, SnapshotEffect>(snapshotMachine(req), async (f, send) => {
    if (f.type === 'load') send({ type: 'loaded', facts: await load(es, guard, f.request) });
    else if (f.type === 'send') {
      // A snapshot's documents, read right before it is sent: what a restore from it will be reckoned to lose against.
      const counts = req.kind === 'create' ? await countsBefore(es, f.plan.body, `${req.repository}/${req.name}`) : [];
      const sent = await sendOne(guard, f.plan, f.confirmation, { onAuditWarning: tuning.onAuditWarning });
      if ('refusal' in sent) {
        send({ type: 'sent', result: { summary: f.plan.summary, ok: false, message: sent.refusal.message } });
        return;
      }
      const { out } = sent;
      if (out.applied === 'yes') recordCounts(guard.previewConnection.url, counts);
      const nodes = Object.values((out.body as { nodes?: Record<string, { name?: string }> } | undefined)?.nodes ?? {}).map((n) =>
        String(n?.name ?? ''),
      );
      send({
        type: 'sent',
        result: {
          summary: f.plan.summary,
          ok: out.applied === 'yes',
          applied: out.applied,
          message: describeOutcome(out),
          verified: out.verified,
          ...(out.auditWarning ? { auditWarning: out.auditWarning } : {}),
        },
        ...(f.plan.path.endsWith('/_verify') && out.ok ? { nodes } : {}),
      });
    } else {
      await waitUntil(
        () => es.snapshotStatus(f.repository, f.name),
        (p) => !p || !stillRunning(p.state),
        {
          timeoutMs: tuning.followTimeoutMs ?? 6 * 3_600_000,
          intervalMs: tuning.pollMs ?? 1000,
          onPending: (p) => p && send({ type: 'progress', progress: p }),
        },
      );
      // The status ends (or is not there yet) before the listing says how it ended: a snapshot just
      // started, or just finished, reads IN_PROGRESS with 0 shards done there (seen: exit 5 for a
      // PARTIAL one). The listing is the authority on the end: read it until it is not running.
      const { value: snapshot } = await waitUntil(
        () => es.snapshotInfo(f.repository, f.name),
        (info) => !info || !stillRunning(info.state),
        { timeoutMs: tuning.followTimeoutMs ?? 6 * 3_600_000, intervalMs: tuning.pollMs ?? 1000 },
      );
      if (!snapshot) throw new Error(`snapshot ${f.repository}/${f.name} is no longer in the repository`);
      if (stillRunning(snapshot.state))
        throw new Error(`snapshot ${f.repository}/${f.name} still ${snapshot.state} after the follow timeout`);
      send({ type: 'finished', snapshot });
    }
  });
}

/**
 * The documents of each index a snapshot takes (_cat/indices docs.count, as the console counts
 * them), read just before it is sent; none of a red index (nothing to count). Best effort: a read
 * that fails takes nothing from the snapshot.
 */
async function countsBefore(es: EsApi, body: unknown, snapshot: string): Promise<TimelineEntry[]> {
  const names = new Set(String((body as { indices?: string } | undefined)?.indices ?? '').split(','));
  try {
    const at = new Date().toISOString();
    return (await es.data('indices'))
      .filter((r) => names.has(r.name) && r.status === 'open' && r.health !== 'red')
      .map((r) => ({ kind: 'count', time: at, index: r.name, docs: r.docsCount, snapshot }));
  } catch {
    return [];
  }
}

/** The console's way to open it: `services.open(snapshotWizard, request)` (services/wizards/index.ts). */
export const snapshotWizard = (es: EsApi, guard: Guard, tuning: SnapshotTuning, req: SnapshotRequest) =>
  snapshotSession(es, guard, req, tuning);

/**
 * The registered repositories, for a wizard that offers "snapshot first" (`services.open(snapshotRepositoriesRead)`):
 * the offer is made only when there is one.
 */
export const snapshotRepositoriesRead = (es: EsApi): Promise<SnapshotRepository[]> => es.repositories();
