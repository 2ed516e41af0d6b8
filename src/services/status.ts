// One cluster's status report (the facts of `shardeck status`), read through the facade: for the
// status command and for every cluster of the fleet (services/fleet.ts).
import type { EsApi } from '../cluster/api';
import type { ConnError } from '../cluster/connection';
import { buildStatusReport, STATUS_SCHEMA, type StatusReport, type UnreachableReport } from '../domain/status';

/**
 * Health first: if it fails, the node is unreachable or refuses us, and nothing else will work
 * (an unreachable report). A later read that fails throws (the caller says which).
 */
export async function readStatus(
  api: Pick<EsApi, 'data'> & Partial<Pick<EsApi, 'checkVersion'>>,
): Promise<StatusReport | UnreachableReport> {
  const r = api.data;
  let health;
  try {
    health = await r('health');
    // A major shardeck does not know (domain/capabilities.ts): one clear refusal, as "unknown".
    await api.checkVersion?.();
  } catch (e) {
    const err = e as ConnError;
    return { schema: STATUS_SCHEMA, reachable: false, status: 'unknown', error: { kind: err.kind ?? 'unknown', message: err.message } };
  }
  const [healthReport, allocation, settings, blocks, nodes, shutdown] = await Promise.all([
    r('healthReport').catch(() => undefined), // 8.7+ only; its absence is not an outage
    r('allocation'),
    r('settings'),
    r('blocks'),
    r('nodes'),
    // No shutdown module (the test distribution), no privilege: no records, nothing said, never a failure.
    r('nodeShutdown').catch(() => []),
  ]);
  // The shard list grows with the cluster; only fetch it when there is something to explain.
  const shards = health.status === 'green' ? undefined : await r('shards');
  return buildStatusReport({ health, healthReport, allocation, settings, blocks, nodes, shards, shutdown });
}
