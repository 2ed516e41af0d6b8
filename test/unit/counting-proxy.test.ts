// What the counting proxy calls a changing request: anything not known to be a read.
import { describe, expect, it } from 'vitest';
import { isChanging } from '../helpers/counting-proxy';

describe('isChanging', () => {
  it.each([
    ['GET', '/_cluster/health', false],
    ['HEAD', '/service_v9_a', false],
    ['POST', '/service_v9_a/_search?size=10', false],
    ['POST', '/service_v9_a/_count', false],
    ['POST', '/_search/scroll', false],
    ['POST', '/_cluster/allocation/explain', false],
    ['POST', '/_security/user/_has_privileges', false], // doctor asks which privileges the user lacks: a read
    ['POST', '/_security/user/_has_privilegesx', true],
    ['POST', '/_mget', false],
    ['POST', '/a/_msearch', false],
    ['POST', '/a/_field_caps', false],
    ['POST', '/service_v9_a/_refresh?expand_wildcards=all', true],
    ['GET', '/service_v9_a/_refresh', true],
    ['GET', '/service_v9_a/_flush', true],
    ['POST', '/a/_delete_by_query', true],
    ['POST', '/_cluster/reroute?retry_failed=true', true],
    ['POST', '/a/_forcemerge', true],
    ['POST', '/_tasks/n:1/_cancel', true],
    ['PUT', '/_cluster/settings', true],
    ['DELETE', '/_search/scroll', true],
    ['PATCH', '/x', true],
    ['POST', '/a/_search_something_else', true],
  ])('%s %s -> %s', (method, path, changing) => expect(isChanging(method, path)).toBe(changing));
});
