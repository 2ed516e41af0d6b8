// Requests of the guarded changes: the one function that sends a mutation (only services/guard.ts
// calls it) and the reads the wizards need beyond the live panes (what a pattern matches, an
// index template, allocation explain, per-index replica counts).
import { errors, type Client } from '@elastic/elasticsearch';
import { healthWaitQuery } from '../domain/corruption/plan';
import type { MutationRequest } from '../domain/mutation';
import { classifyError, ConnError, errorText, read, redactUrl } from './connection';

export type MutationResponse =
  | { ok: true; status: number; body: unknown }
  /**
   * answered: Elasticsearch answered with an error (it handled the request). Otherwise `maybeSent`
   * says whether the request may have reached the node: false only when the connection could not
   * be made at all (refused, unknown host, TLS handshake); a timeout or a connection that dropped
   * after sending leaves the outcome to be read back.
   */
  | { ok: false; error: ConnError; answered: boolean; maybeSent: boolean };

const NOT_CONNECTED = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|CERT|certificate|self[- ]signed|unable to verify|wrong version number|EPROTO/i;

/** Sends a mutation once. The client has maxRetries 0, so a failure is never resent. */
export async function sendMutation(client: Client, url: string, req: MutationRequest): Promise<MutationResponse> {
  try {
    const res = await client.transport.request(
      { method: req.method, path: req.path, querystring: req.querystring, body: req.body as Record<string, unknown> | undefined },
      { meta: true },
    );
    return { ok: true, status: res.statusCode ?? 200, body: res.body };
  } catch (e) {
    const error = classifyError(e, url);
    if (e instanceof errors.ResponseError) return { ok: false, error, answered: true, maybeSent: true };
    const text = errorText(e);
    // classifyError reads a hang-up on http:// as "the node speaks HTTPS" (right at first contact);
    // a mutation is sent after reads on the same URL worked, so here it is a dropped connection.
    const dropped = error.kind === 'tls-mismatch' && /other side closed|socket hang up|ECONNRESET/i.test(text);
    return {
      ok: false,
      error: dropped ? new ConnError('unreachable', `${redactUrl(url)} closed the connection before answering`) : error,
      answered: false,
      maybeSent: !NOT_CONNECTED.test(text),
    };
  }
}

export async function getJson<T = any>(client: Client, url: string, path: string, querystring: Record<string, string> = {}): Promise<T> {
  return (await read<T>(client, url, { method: 'GET', path, querystring })).body;
}

/**
 * The concrete indices an expression matches, hidden ones included; null when Elasticsearch says
 * a named index does not exist.
 */
export async function resolveIndices(client: Client, url: string, expr: string): Promise<string[] | null> {
  try {
    const rows = await getJson<{ index: string }[]>(client, url, `/_cat/indices/${encodeURIComponent(expr)}`, {
      format: 'json',
      h: 'index',
      expand_wildcards: 'all',
    });
    return rows.map((r) => r.index);
  } catch (e) {
    if (e instanceof ConnError && e.status === 404 && e.esType === 'index_not_found_exception') return null;
    throw e;
  }
}

/** number_of_replicas of each index an expression matches. */
export async function replicasOf(client: Client, url: string, expr: string): Promise<Record<string, number>> {
  const body = await getJson<Record<string, { settings: Record<string, string> }>>(
    client,
    url,
    `/${encodeURIComponent(expr)}/_settings/index.number_of_replicas`,
    { flat_settings: 'true', expand_wildcards: 'all' },
  );
  return Object.fromEntries(Object.entries(body).map(([i, v]) => [i, Number(v.settings['index.number_of_replicas'])]));
}

/** The index template's own definition (index_template of GET _index_template/<name>), or null. */
export async function getIndexTemplate(client: Client, url: string, name: string): Promise<Record<string, unknown> | null> {
  try {
    const body = await getJson<{ index_templates: { name: string; index_template: Record<string, unknown> }[] }>(
      client,
      url,
      `/_index_template/${encodeURIComponent(name)}`,
    );
    return body.index_templates.find((t) => t.name === name)?.index_template ?? null;
  } catch (e) {
    if (e instanceof ConnError && e.status === 404) return null;
    throw e;
  }
}

export interface ShardRef {
  index: string;
  shard: number;
  primary: boolean;
}

/**
 * Allocation explain of one shard, or of the first unassigned one when none is given. Resolves
 * null when there is no unassigned shard to explain (Elasticsearch answers 400 for that).
 */
export async function allocationExplain(client: Client, url: string, shard?: ShardRef): Promise<Record<string, unknown> | null> {
  try {
    const res = await client.transport.request(
      { method: 'POST', path: '/_cluster/allocation/explain', querystring: {}, body: shard },
      { meta: true },
    );
    return res.body as Record<string, unknown>;
  } catch (e) {
    const err = classifyError(e, url);
    if (!shard && err.status === 400 && /there are no unassigned shards/i.test(err.esReason ?? err.message)) return null;
    throw err;
  }
}

/**
 * GET _cluster/health/<index> until it is yellow or `waitMs` is over, each request asking
 * Elasticsearch to wait a few seconds (healthWaitQuery): one long wait_for_status would outlast
 * the client's request timeout, which a single request cannot raise. A wait that runs out
 * answers 408 with the health body (timed_out: true); the last one is returned.
 */
export async function waitForIndexHealth(client: Client, url: string, index: string, waitMs: number): Promise<{ status: string; timed_out: boolean }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    let body: { status: string; timed_out: boolean };
    try {
      const res = await client.transport.request(
        { method: 'GET', path: `/_cluster/health/${encodeURIComponent(index)}`, querystring: healthWaitQuery(deadline - Date.now()) },
        { meta: true, ignore: [408] },
      );
      body = res.body as { status: string; timed_out: boolean };
    } catch (e) {
      throw classifyError(e, url);
    }
    if (!body.timed_out || Date.now() >= deadline) return body;
  }
}
