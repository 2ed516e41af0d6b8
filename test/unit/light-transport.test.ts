// The requests go through shardeck's own node:http transport (src/cluster/transport.ts): the
// Elasticsearch client is not loaded by any command. Its undici connection compiled a WebAssembly
// HTTP parser whose background compile held a one-shot command's exit back by 70-500 ms (Node waits
// for it), and the client was ~1 MB of code to load before the first request.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { queryString } from '../../src/cluster/transport';

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('the light request path', () => {
  it('no file of src/ loads the Elasticsearch client or undici at run time (type imports aside)', () => {
    const offenders = sources(path.join(__dirname, '../../src')).filter((f) =>
      /^\s*import\s+(?!type\b)[^;]*from\s+'(@elastic\/elasticsearch|undici)(\/[^']*)?'/m.test(fs.readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('the query string: undefined values dropped, arrays comma-joined, values encoded', () => {
    expect(queryString({ h: ['index', 'health'], format: 'json', skip: undefined })).toBe('h=index%2Chealth&format=json');
    expect(queryString({ q: 'a b&c' })).toBe('q=a%20b%26c');
    expect(queryString(undefined)).toBe('');
  });
});
