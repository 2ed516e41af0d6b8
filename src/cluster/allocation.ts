// Allocation explain: why a shard is (not) where it is.
import type { ShardRef } from '../domain/wizards/allocation';
import { allocationValuesOf, type AllocationValues } from '../domain/maintenance/allocation-limits';
import { parseRecoveryThrottle, THROTTLE_KEYS, type RecoveryThrottle } from '../domain/nodes/shard-recovery';
import { classifyError, getJson, type EsTransport } from './connection';

export function allocationApi(es: EsTransport) {
  const { client, url } = es;
  return {
    /** The allocation settings (enable, rebalance, excludes) per level, persistent and transient. */
    async allocationSettings(): Promise<AllocationValues> {
      // flat_settings without filter_path: filter_path cannot match dotted flat keys.
      return allocationValuesOf(await getJson(es, '/_cluster/settings', { flat_settings: 'true' }));
    },
    /** The recovery throttle (max bytes per second, concurrent recoveries per node) and where each value comes from. */
    async recoveryThrottle(): Promise<RecoveryThrottle> {
      return parseRecoveryThrottle(
        await getJson(es, '/_cluster/settings', {
          include_defaults: 'true',
          filter_path: THROTTLE_KEYS.map((k) => `*.${k}`).join(','),
        }),
      );
    },
    /**
     * Allocation explain of one shard, or of the first unassigned one when none is given. Resolves
     * null when there is no unassigned shard to explain (Elasticsearch answers 400 for that).
     */
    async allocationExplain(shard?: ShardRef & { current_node?: string }): Promise<Record<string, any> | null> {
      try {
        const res = await client.transport.request(
          { method: 'POST', path: '/_cluster/allocation/explain', querystring: {}, body: shard },
          { meta: true },
        );
        return res.body as Record<string, any>;
      } catch (e) {
        const err = classifyError(e, url);
        if (!shard && err.status === 400 && /there are no unassigned shards/i.test(err.esReason ?? err.message)) return null;
        throw err;
      }
    },
  };
}
