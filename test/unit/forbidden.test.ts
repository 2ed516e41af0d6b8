// A 403 of Elasticsearch becomes one sentence naming the privilege the user lacks, not the raw text.
import { errors } from '@elastic/elasticsearch';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/cluster/connection';

function forbidden(reason: string) {
  const body = { error: { root_cause: [{ type: 'security_exception', reason }], type: 'security_exception', reason }, status: 403 };
  return new errors.ResponseError({
    body,
    statusCode: 403,
    headers: { 'x-elastic-product': 'Elasticsearch' },
    warnings: null,
    meta: {} as never,
  });
}

describe('a 403', () => {
  it('names the privilege the user lacks and for what', () => {
    const e = classifyError(
      forbidden(
        'action [cluster:monitor/state] is unauthorized for user [w] with effective roles [index_only], this action is granted by the cluster privileges [monitor,manage,all]',
      ),
      'https://127.0.0.1:9200',
    );
    expect(e.kind).toBe('forbidden');
    expect(e.message).toBe(
      'user w lacks the cluster privilege monitor (or manage, all) for cluster:monitor/state: see the watcher and operator roles in the README',
    );
  });

  it("keeps the node's words when they do not say which privilege", () => {
    const e = classifyError(forbidden('something else entirely'), 'https://127.0.0.1:9200');
    expect(e.message).toBe('the user is not allowed to do this on https://127.0.0.1:9200 (403): something else entirely');
  });
});
