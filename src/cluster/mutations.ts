// The one function that sends a change to the cluster. Only services/guard.ts calls it, after the
// preview, the confirmation and the audit record; the guard's read-back goes through the facade.
import * as errors from '@elastic/transport/errors';
import { urlForMessage } from '../domain/urls';
import type { MutationRequest } from '../domain/mutation/plan';
import { classifyError, ConnError, errorText, type EsTransport } from './connection';

export type MutationResponse =
  | { ok: true; status: number; body: unknown }
  /**
   * answered: Elasticsearch answered with an error (it handled the request). Otherwise `maybeSent`
   * says whether the request may have reached the node: false only when the connection could not
   * be made at all (refused, unknown host, TLS handshake); a timeout or a connection that dropped
   * after sending leaves the outcome to be read back.
   */
  | { ok: false; error: ConnError; answered: boolean; maybeSent: boolean };

const NOT_CONNECTED =
  /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|CERT|certificate|self[- ]signed|unable to verify|wrong version number|EPROTO/i;

/** Sends a mutation once. The client has maxRetries 0, so a failure is never resent. */
export async function sendMutation({ client, url }: EsTransport, req: MutationRequest): Promise<MutationResponse> {
  try {
    const res = await client.transport.request(
      { method: req.method, path: req.path, querystring: req.querystring, body: req.body },
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
      error: dropped ? new ConnError('unreachable', `${urlForMessage(url)} closed the connection before answering`) : error,
      answered: false,
      maybeSent: !NOT_CONNECTED.test(text),
    };
  }
}
