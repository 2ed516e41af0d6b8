// Reads that carry a query body (_count, _search): POST, because a GET body is dropped by some
// proxies. They change nothing, so they do not go through the guard.
import type { Client } from '@elastic/elasticsearch';
import { classifyError } from './connection';

export async function postRead<T = any>(client: Client, url: string, path: string, body: unknown, querystring: Record<string, string> = {}): Promise<T> {
  try {
    const res = await client.transport.request({ method: 'POST', path, querystring, body: body as Record<string, unknown> }, { meta: true });
    return res.body as T;
  } catch (e) {
    throw classifyError(e, url);
  }
}
