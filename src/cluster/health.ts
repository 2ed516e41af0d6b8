// Cluster and index health beyond the polled snapshot: the counts the wizards watch, a quick
// "does the node answer", and bounded waits on the node for an index's health (yellow after a restart, green after a restore).
import { healthWaitQuery } from '../domain/corruption/plan';
import type { HealthStatus } from '../domain/types';
import { classifyError, getJson, type EsTransport } from './connection';

export interface HealthSummary {
  status: HealthStatus;
  /** Shards initializing or relocating. */
  moving: number;
  dataNodes: number;
  unassigned: number;
}

export function healthApi(es: EsTransport) {
  return {
    /** Health of the cluster, or of the indices an expression matches. */
    async health(target?: string): Promise<HealthSummary> {
      const h = await getJson(
        es,
        target ? `/_cluster/health/${encodeURIComponent(target)}` : '/_cluster/health',
        target ? { expand_wildcards: 'all' } : {},
      );
      return {
        status: h.status,
        moving: h.initializing_shards + h.relocating_shards,
        dataNodes: h.number_of_data_nodes,
        unassigned: h.unassigned_shards,
      };
    },

    /** The cluster's UUID (GET /): what the change lock is keyed by, however the cluster is reached. */
    async clusterUuid(): Promise<string> {
      const valid = (u: unknown): u is string => typeof u === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(u) && u !== '_na_';
      // The cluster state's metadata first (monitor privilege, as every other read here); GET / where that is refused.
      const state = await getJson<{ metadata?: { cluster_uuid?: string } }>(es, '/_cluster/state/metadata', {
        filter_path: 'metadata.cluster_uuid',
      }).catch(() => null);
      if (valid(state?.metadata?.cluster_uuid)) return state.metadata.cluster_uuid;
      const u = (await getJson<{ cluster_uuid?: string }>(es, '/')).cluster_uuid;
      if (!valid(u)) throw new Error('the cluster did not give its UUID');
      return u;
    },

    /** The cluster's name, as a production confirmation asks for it (the test distribution answers GET / with 405). */
    async clusterName(): Promise<string> {
      const name = (await getJson<{ cluster_name?: unknown }>(es, '/_cluster/health', { filter_path: 'cluster_name' })).cluster_name;
      if (typeof name !== 'string' || !name) throw new Error('the node did not give its cluster name');
      return name;
    },

    /** The cluster's status, asked with a short master timeout (after a restart: does the node answer yet). */
    async healthStatus(): Promise<string> {
      return (await getJson<{ status: string }>(es, '/_cluster/health', { timeout: '2s' })).status;
    },

    /**
     * GET _cluster/health/<index>, asking Elasticsearch to wait up to `waitMs` (a few seconds at most,
     * healthWaitQuery: one long wait_for_status would outlast the client's request timeout) until it
     * is yellow. A wait that runs out answers 408 with the health body (timed_out: true).
     */
    indexHealthWithin: (index: string, waitMs: number) => healthWaiting(index, healthWaitQuery(waitMs)),

    /**
     * GET _cluster/health/<targets>, answered as soon as they are green or after `waitMs` (then 408
     * with the health body): a watch sees green when it comes, not at its next poll.
     */
    greenWithin: (targets: string, waitMs: number) =>
      healthWaiting(targets, { wait_for_status: 'green', timeout: `${Math.max(1, Math.round(waitMs))}ms`, expand_wildcards: 'all' }),
  };

  async function healthWaiting(target: string, querystring: Record<string, string>): Promise<{ status: string; timed_out: boolean }> {
    try {
      const res = await es.client.transport.request(
        { method: 'GET', path: `/_cluster/health/${encodeURIComponent(target)}`, querystring },
        { meta: true, ignore: [408] },
      );
      return res.body as { status: string; timed_out: boolean };
    } catch (e) {
      throw classifyError(e, es.url);
    }
  }
}
