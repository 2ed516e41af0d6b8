// Allocation explain: why a shard is (not) where it is.
import type { ShardRef } from '../domain/wizards/allocation';
import { classifyError, type EsTransport } from './connection';

export function allocationApi({ client, url }: EsTransport) {
  return {
    /**
     * Allocation explain of one shard, or of the first unassigned one when none is given. Resolves
     * null when there is no unassigned shard to explain (Elasticsearch answers 400 for that).
     */
    async allocationExplain(shard?: ShardRef): Promise<Record<string, any> | null> {
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
