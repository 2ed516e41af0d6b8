// Reads that carry a query body (_count, _search): POST, because a GET body is dropped by some
// proxies. They change nothing, so they do not go through the guard. Only reads belong here:
// anything that writes (a _refresh too) is a MutationPlan sent by services/guard.ts.
import type { Client } from '@elastic/elasticsearch';
import { classifyError, read } from './connection';

export async function postRead<T = any>(client: Client, url: string, path: string, body: unknown, querystring: Record<string, string> = {}): Promise<T> {
  try {
    const res = await client.transport.request({ method: 'POST', path, querystring, body: body as Record<string, unknown> }, { meta: true });
    return res.body as T;
  } catch (e) {
    throw classifyError(e, url);
  }
}

/**
 * index.refresh_interval of an index (its own or the default, e.g. "1s"); with several indices,
 * the distinct values joined. How far a count without a refresh may lag behind.
 */
export async function refreshIntervalOf(client: Client, url: string, expr: string): Promise<string | null> {
  const { body } = await read<Record<string, { settings?: Record<string, string>; defaults?: Record<string, string> }>>(client, url, {
    method: 'GET',
    path: `/${encodeURIComponent(expr)}/_settings/index.refresh_interval`,
    querystring: { flat_settings: 'true', include_defaults: 'true', expand_wildcards: 'all' },
  });
  const values = new Set(Object.values(body).map((i) => i.settings?.['index.refresh_interval'] ?? i.defaults?.['index.refresh_interval']).filter(Boolean));
  return values.size ? [...values].join(', ') : null;
}
