// search_curl's two halves that need no node: the one argv builder (both argument forms) and
// reading curl -i output (1xx heads skipped). The wrapper end to end: test/integration/search-curl.test.ts.
import { describe, expect, it } from 'vitest';
import { parseCurlResponse } from '../../src/cluster/search-curl';
import { curlLine, searchCurlArgv } from '../../src/domain/mutation/preview';

const req = {
  method: 'PUT' as const,
  path: '/service_v9_a/_settings',
  querystring: { expand_wildcards: 'all' },
  body: { index: { number_of_replicas: 1 } },
};

describe('searchCurlArgv', () => {
  it('curl form: the full URL; path form: the path and query only; the body inline or on stdin', () => {
    expect(searchCurlArgv(req, 'https://10.0.0.5:9200/', { command: 'search_curl', form: 'curl' })).toEqual([
      'search_curl',
      '-X',
      'PUT',
      'https://10.0.0.5:9200/service_v9_a/_settings?expand_wildcards=all',
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"index":{"number_of_replicas":1}}',
    ]);
    expect(searchCurlArgv(req, 'https://10.0.0.5:9200', { command: '/opt/x/search_curl', form: 'path' }, 'stdin')).toEqual([
      '/opt/x/search_curl',
      '-X',
      'PUT',
      '/service_v9_a/_settings?expand_wildcards=all',
      '-H',
      'Content-Type: application/json',
      '--data-binary',
      '@-',
    ]);
  });

  it('the preview line uses it and drops the credentials, the CA and -k', () => {
    const conn = { url: 'https://10.0.0.5:9200', user: 'elastic', caFile: '/etc/ca.crt', insecure: true };
    expect(curlLine(req, conn)).toMatch(/^curl -X PUT .* -u 'elastic' --cacert '\/etc\/ca.crt' -k /);
    expect(curlLine(req, { ...conn, searchCurl: { command: 'search_curl', form: 'curl' } })).toBe(
      `search_curl -X PUT 'https://10.0.0.5:9200/service_v9_a/_settings?expand_wildcards=all' -H 'Content-Type: application/json' -d '{"index":{"number_of_replicas":1}}'`,
    );
  });
});

describe('parseCurlResponse', () => {
  it('skips a 100 Continue head and reads status, headers and body', () => {
    const out = Buffer.from(
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nX-elastic-product: Elasticsearch\r\ncontent-type: application/json\r\n\r\n{"acknowledged":true}',
    );
    expect(parseCurlResponse(out)).toEqual({
      statusCode: 200,
      headers: { 'x-elastic-product': 'Elasticsearch', 'content-type': 'application/json' },
      body: Buffer.from('{"acknowledged":true}'),
    });
  });

  it('says what is wrong when the wrapper printed no HTTP head', () => {
    expect(() => parseCurlResponse(Buffer.from('{"a":1}'))).toThrow(/no HTTP response head/);
    expect(() => parseCurlResponse(Buffer.from('hello\r\n\r\n{}'))).toThrow(/where an HTTP status line was expected/);
  });
});
