import { describe, expect, it } from 'vitest';
import {
  buildPreview,
  checkIndexExpression,
  checkPlanPath,
  confirmationSatisfies,
  formatAuditRecord,
  judgeResolution,
  parseAuditLog,
  UNBLOCK_ALL_REQUEST,
  type MutationPlan,
} from '../../src/domain/mutation';

const plan: MutationPlan = {
  method: 'PUT',
  path: '/x/_settings',
  querystring: {},
  body: { index: { number_of_replicas: 0 } },
  risk: 'reversible',
  target: 'x',
  summary: 'set replicas',
};

describe('preview', () => {
  it('gives the curl line with the password elided, the CA and the body quoted for the shell', () => {
    const p = buildPreview({ ...plan, body: { q: "it's" } }, { url: 'https://host:9200/', user: 'elastic', caFile: '/etc/ca.crt' });
    expect(p.curl).toBe(
      `curl -X PUT 'https://host:9200/x/_settings' -u 'elastic:***' --cacert '/etc/ca.crt' -H 'Content-Type: application/json' -d '{"q":"it'\\''s"}'`,
    );
    expect(p.curl).not.toMatch(/changeme/);
  });
  it('adds the query string and -k when TLS verification is off', () => {
    const p = buildPreview({ ...plan, method: 'POST', path: '/_cluster/reroute', querystring: { retry_failed: 'true' }, body: undefined }, { url: 'https://h:9200', insecure: true });
    expect(p.path).toBe('/_cluster/reroute?retry_failed=true');
    expect(p.curl).toBe(`curl -X POST 'https://h:9200/_cluster/reroute?retry_failed=true' -k`);
  });
});

describe('confirmation proportional to risk', () => {
  it('a keypress confirms a reversible change, not a destructive one', () => {
    expect(confirmationSatisfies(plan, { by: 'key' })).toBe(true);
    const del = { ...plan, risk: 'destructive' as const, target: 'service_v9_old' };
    expect(confirmationSatisfies(del, { by: 'key' })).toBe(false);
    expect(confirmationSatisfies(del, { by: 'typed', text: 'service_v9_ol' })).toBe(false);
    expect(confirmationSatisfies(del, { by: 'typed', text: 'service_v9_old' })).toBe(true);
    expect(confirmationSatisfies(del, { by: 'yes-flag' })).toBe(true);
  });
});

describe('targets', () => {
  it.each([
    ['', /no index given/],
    ['*', /every index/],
    ['**', /every index/],
    ['_all', /every index/],
    ['a,*', /every index/],
    ['a,,b', /empty name/],
    ['a,', /empty name/],
    ['a,-b', /exclusion/],
    ['_settings', /cannot start with _/],
    ['.security*', /system \(dot\) indices/],
    ['a b', /character/],
  ])('refuses %j', (expr, msg) => expect(checkIndexExpression(expr)).toMatch(msg));

  it('accepts names and narrow patterns, and dot names when asked', () => {
    expect(checkIndexExpression('service_v9_abc')).toBeNull();
    expect(checkIndexExpression('service_v9_*,logs-1')).toBeNull();
    expect(checkIndexExpression('.kibana_1', { includeSystem: true })).toBeNull();
  });

  it('judges what a pattern resolved to', () => {
    expect(judgeResolution('nope', null)).toMatchObject({ ok: false, error: expect.stringMatching(/no index matches "nope"/) });
    expect(judgeResolution('x_*', [])).toMatchObject({ ok: false, error: expect.stringMatching(/matches no index/) });
    expect(judgeResolution('*x*', ['ax', '.x'])).toMatchObject({ ok: false, error: expect.stringMatching(/1 system \(dot\) index \(\.x\)/) });
    expect(judgeResolution('*x*', ['bx', 'ax'])).toEqual({ ok: true, expression: '*x*', indices: ['ax', 'bx'], isPattern: true });
  });

  it('only the unblock request may target every index, and only with its exact body', () => {
    expect(checkPlanPath(UNBLOCK_ALL_REQUEST)).toBeNull();
    expect(checkPlanPath({ ...UNBLOCK_ALL_REQUEST, body: { 'index.blocks.read_only_allow_delete': false } })).toMatch(/every index/);
    expect(checkPlanPath({ ...UNBLOCK_ALL_REQUEST, method: 'DELETE', path: '/*' })).toMatch(/every index/);
    expect(checkPlanPath({ method: 'PUT', path: '/_cluster/settings', querystring: {} })).toBeNull();
    expect(checkPlanPath({ method: 'DELETE', path: '/_all', querystring: {} })).toMatch(/every index/);
  });
});

describe('audit log', () => {
  it('reads JSON lines, counts what it cannot read, formats one line per record', () => {
    const rec = {
      time: '2026-11-22T07:00:00.000Z',
      profile: 'prod',
      platformUser: 'ann',
      url: 'https://h:9200',
      request: { method: 'PUT', path: '/x/_settings', querystring: {}, body: { a: 1 } },
      risk: 'reversible',
      target: 'x',
      summary: 's',
      confirmedBy: 'key',
      outcome: { ok: false, status: 400, error: 'bad value', durationMs: 3 },
    };
    const { records, unreadable } = parseAuditLog(`${JSON.stringify(rec)}\nnot json\n\n`);
    expect(unreadable).toBe(1);
    expect(formatAuditRecord(records[0])).toBe('2026-11-22T07:00:00.000Z prod/ann PUT /x/_settings {"a":1} -> FAILED 400 bad value');
  });
});
