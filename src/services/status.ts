// One cluster's status report (the facts of `shardeck status`), read through the facade: for the
// status command and for every cluster of the fleet (services/fleet.ts).
import type { EsApi } from '../cluster/api';
import type { ConnError } from '../cluster/connection';
import { buildStatusReport, STATUS_SCHEMA, type StatusReport, type UnreachableReport } from '../domain/inspect/status';

/**
 * What a status read fetches: `full` (shardeck status) everything; `row` (a fleet row: health, disk,
 * blocks) leaves out what a fleet row never shows (the health report, which the node works out
 * per read, the node versions and the shard list of a cluster that is not green), so a fleet's
 * rows come sooner and cost its clusters less.
 */
export type StatusParts = 'full' | 'row';

/**
 * Every read goes out at once (one round trip, not health, then the version, then the rest: a fleet
 * row or `status` waits for its slowest read, not for three in turn). Health still decides: if it
 * fails, the node is unreachable or refuses us, and the others' failures say nothing more (an
 * unreachable report); then the version check; a later read that fails throws (the caller says which).
 */
export async function readStatus(
  api: Pick<EsApi, 'data'> & Partial<Pick<EsApi, 'checkVersion'>>,
  parts: StatusParts = 'full',
): Promise<StatusReport | UnreachableReport> {
  const r = api.data;
  const full = parts === 'full';
  const healthRead = r('health');
  const versionRead = api.checkVersion?.();
  const rest = Promise.all([
    full ? r('healthReport').catch(() => undefined) : undefined, // 8.7+ only; its absence is not an outage
    r('allocation'),
    r('settings'),
    r('blocks'),
    full ? r('nodes') : [],
    // No shutdown module (the test distribution), no privilege: no records, nothing said, never a failure.
    full ? r('nodeShutdown').catch(() => []) : [],
  ]);
  // Looked at only once health and the version passed: an unreachable node fails them all.
  rest.catch(() => undefined);
  versionRead?.catch(() => undefined);
  let health;
  try {
    health = await healthRead;
    // A major shardeck does not know (domain/capabilities.ts): one clear refusal, as "unknown".
    await versionRead;
  } catch (e) {
    const err = e as ConnError;
    return { schema: STATUS_SCHEMA, reachable: false, status: 'unknown', error: { kind: err.kind ?? 'unknown', message: err.message } };
  }
  // The shard list grows with the cluster; only fetch it when there is something to explain, and
  // as soon as health says so (not after the rest: the health report alone waits for the version).
  const shardsRead = health.status === 'green' || !full ? undefined : r('shards');
  const [[healthReport, allocation, settings, blocks, nodes, shutdown], shards] = await Promise.all([rest, shardsRead]);
  return buildStatusReport({ health, healthReport, allocation, settings, blocks, nodes, shards, shutdown });
}
