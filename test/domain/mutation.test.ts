import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { resolveConnection } from '../../src/config/connection';
import { Guard } from '../../src/services/guard';
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
    // The connection as a session holds it, password included: the preview must not take it.
    const conn = { url: 'https://host:9200/', user: 'elastic', password: 'changeme-7Qx', caFile: '/etc/ca.crt' };
    const p = buildPreview({ ...plan, body: { q: "it's" } }, conn);
    expect(p.curl).toBe(
      `curl -X PUT 'https://host:9200/x/_settings' -u 'elastic:***' --cacert '/etc/ca.crt' -H 'Content-Type: application/json' -d '{"q":"it'\\''s"}'`,
    );
    expect(JSON.stringify(p)).not.toContain('changeme-7Qx');
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

describe('a real password never reaches the preview, the curl line or the audit record', () => {
  /** A loopback port nothing listens on: the send fails at once, and the guard still records it. */
  const closedPort = () =>
    new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as net.AddressInfo;
        srv.close(() => resolve(port));
      });
    });

  it('through the path a session takes: --user and --password-env -> connection -> client -> Guard', async () => {
    const PASSWORD = 'pw-Zq81!x-never-shown';
    process.env.SHARDECK_TEST_ES_PASSWORD = PASSWORD;
    const conn = await resolveConnection({ url: `http://127.0.0.1:${await closedPort()}`, user: 'ops-admin', 'password-env': 'SHARDECK_TEST_ES_PASSWORD' }, undefined);
    expect(conn.password).toBe(PASSWORD); // it really travels with the connection the guard is given
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-mutation-'));
    const auditFile = path.join(dir, 'audit.log');
    const guard = new Guard({ client: createClient(conn), conn, profile: 'ops', auditFile });
    const forms = [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(`ops-admin:${PASSWORD}`).toString('base64')];

    const preview = guard.preview(plan);
    expect(preview.curl).toContain(`-u 'ops-admin:***'`);
    const out = await guard.execute(plan, { by: 'key' });
    expect(out.ok).toBe(false); // nothing listens: refused, and recorded
    const record = fs.readFileSync(auditFile, 'utf8');
    expect(JSON.parse(record)).toMatchObject({ profile: 'ops', request: { method: 'PUT', path: '/x/_settings' }, outcome: { ok: false } });
    for (const text of [JSON.stringify(preview), preview.curl, JSON.stringify(out), record])
      for (const f of forms) expect(text).not.toContain(f);
    fs.rmSync(dir, { recursive: true, force: true });
    delete process.env.SHARDECK_TEST_ES_PASSWORD;
  });
});
