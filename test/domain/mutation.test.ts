import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { resolveConnection } from '../../src/config/connection';
import { Guard } from '../../src/services/guard';
import { describeOutcome, formatAuditRecord, parseAuditLog } from '../../src/domain/mutation/audit';
import { confirmationSatisfies } from '../../src/domain/mutation/confirmation';
import type { MutationPlan } from '../../src/domain/mutation/plan';
import { buildPreview } from '../../src/domain/mutation/preview';
import {
  checkIndexExpression,
  checkPlanPath,
  checkRequestLine,
  compareResolution,
  compareUuids,
  judgeResolution,
  pinIndices,
} from '../../src/domain/mutation/targets';

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
  it('gives a curl line that runs as shown: -u with the user alone (curl asks for the password), the CA, the body quoted for the shell', () => {
    // The connection as a session holds it, password included: the preview must not take it.
    const conn = { url: 'https://host:9200/', user: 'elastic', password: 'changeme-7Qx', caFile: '/etc/ca.crt' };
    const p = buildPreview({ ...plan, body: { q: "it's" } }, conn);
    expect(p.curl).toBe(
      `curl -X PUT 'https://host:9200/x/_settings' -u 'elastic' --cacert '/etc/ca.crt' -H 'Content-Type: application/json' -d '{"q":"it'\\''s"}'`,
    );
    expect(p.curl).not.toContain('***');
    expect(p.curl).not.toMatch(/changeme/);
    expect(JSON.stringify(p)).not.toContain('changeme-7Qx');
  });
  it('adds the query string and -k when TLS verification is off', () => {
    const p = buildPreview(
      { ...plan, method: 'POST', path: '/_cluster/reroute', querystring: { retry_failed: 'true' }, body: undefined },
      { url: 'https://h:9200', insecure: true },
    );
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
  });
  it('--yes confirms a reversible change; a destructive one only with its text given ahead (--expect N, --accept-data-loss INDEX)', () => {
    expect(confirmationSatisfies(plan, { by: 'yes-flag' })).toBe(true);
    const del = { ...plan, risk: 'destructive' as const, target: 'service_v9_old' };
    expect(confirmationSatisfies(del, { by: 'yes-flag' })).toBe(false);
    expect(confirmationSatisfies(del, { by: 'yes-flag', text: 'service_v9_other' })).toBe(false);
    expect(confirmationSatisfies(del, { by: 'yes-flag', text: 'service_v9_old' })).toBe(true);
    const count = { ...del, confirmText: '1234' };
    expect(confirmationSatisfies(count, { by: 'yes-flag', text: '1234' })).toBe(true);
    expect(confirmationSatisfies(count, { by: 'yes-flag', text: 'service_v9_old' })).toBe(false);
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
    expect(judgeResolution('*x*', ['ax', '.x'])).toMatchObject({
      ok: false,
      error: expect.stringMatching(/1 system \(dot\) index \(\.x\)/),
    });
    expect(judgeResolution('*x*', ['bx', 'ax'])).toEqual({ ok: true, expression: '*x*', indices: ['ax', 'bx'], isPattern: true });
  });

  it('no request may target every index: not even the flood-stage unblock', () => {
    const unblockAll = {
      method: 'PUT' as const,
      path: '/*/_settings',
      querystring: {},
      body: { 'index.blocks.read_only_allow_delete': null },
    };
    expect(checkPlanPath(unblockAll)).toMatch(/every index/);
    expect(checkPlanPath({ ...unblockAll, path: '/_all/_settings' })).toMatch(/every index/);
    expect(checkPlanPath({ ...unblockAll, method: 'DELETE', path: '/*' })).toMatch(/every index/);
    expect(checkPlanPath({ method: 'PUT', path: '/_cluster/settings', querystring: {} })).toBeNull();
    expect(checkPlanPath({ method: 'DELETE', path: '/_all', querystring: {} })).toMatch(/every index/);
    expect(checkPlanPath({ ...unblockAll, querystring: { expand_wildcards: 'all' } })).toMatch(/^"\*" would match every index/);
    expect(checkPlanPath({ ...unblockAll, path: '/*/_mapping' })).toMatch(/^"\*" would match every index/);
    expect(checkPlanPath({ ...unblockAll, method: 'POST' })).toMatch(/^"\*" would match every index/);
  });

  it('blanks around names are not names: a blank expression names nothing, a spaced wildcard is still a wildcard', () => {
    expect(checkIndexExpression('   ')).toBe('no index given: name an index or a pattern such as service_v9_*');
    expect(checkIndexExpression('service_v9_a, *')).toBe(
      '"*" would match every index: name the indices or a narrower pattern such as service_v9_*',
    );
    expect(checkIndexExpression(' service_v9_a , service_v9_b ')).toBeNull();
  });

  it("the guard's last check reads the path's first segment, decoded, as the index expression", () => {
    const req = (path: string) => ({ method: 'PUT' as const, path, querystring: {} });
    expect(checkPlanPath(req('/service_v9_a/_settings'))).toBeNull();
    expect(checkPlanPath(req('service_v9_a/_settings'))).toBeNull();
    // Encoded, the wildcard and the exclusion are still what Elasticsearch reads.
    expect(checkPlanPath(req('/%2A/_settings'))).toBe(
      '"*" would match every index: name the indices or a narrower pattern such as service_v9_*',
    );
    expect(checkPlanPath(req('/service_v9_a%2C-service_v9_b/_settings'))).toBe(
      '"-service_v9_b" is an exclusion, which hides what is matched: name the indices to change instead',
    );
    expect(checkPlanPath(req('/_all/_settings'))).toBe(
      '"_all" would match every index: name the indices or a narrower pattern such as service_v9_*',
    );
    expect(checkPlanPath(req('/.security-7/_settings'))).toBe(
      '".security-7" names system (dot) indices: add --include-system if you really mean them',
    );
    expect(checkPlanPath(req('/.security-7/_settings'), { includeSystem: true })).toBeNull();
    expect(checkPlanPath(req('/'))).toBe('no index given: name an index or a pattern such as service_v9_*');
    // An API path (_cluster, _nodes) names no index.
    expect(checkPlanPath(req('/_cluster/settings'))).toBeNull();
    expect(checkPlanPath(req('/_nodes/n1/_repositories_metering'))).toBeNull();
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

describe('the previewed indices, not the pattern', () => {
  const verify = { path: '/service_v9_*/_settings/index.number_of_replicas', querystring: {}, check: () => ({ ok: true, message: '' }) };
  const pat: MutationPlan = { ...plan, path: '/service_v9_*/_settings', target: 'service_v9_*', verify };

  it('pinIndices names the resolved indices in the path and the read-back, and keeps the expression', () => {
    const p = pinIndices(pat, 'service_v9_*', ['service_v9_b', 'service_v9_a']);
    expect(p.path).toBe('/service_v9_a,service_v9_b/_settings');
    expect(p.verify?.path).toBe('/service_v9_a,service_v9_b/_settings/index.number_of_replicas');
    expect(p.resolved).toEqual({ expression: 'service_v9_*', indices: ['service_v9_a', 'service_v9_b'] });
    expect(p.target).toBe('service_v9_*');
    expect(checkPlanPath(p)).toBeNull();
  });

  it('compareResolution names indices that appeared or went away since the preview', () => {
    const was = { expression: 'service_v9_*', indices: ['service_v9_a', 'service_v9_b'] };
    expect(compareResolution(was, ['service_v9_b', 'service_v9_a'])).toBeNull();
    expect(compareResolution(was, ['service_v9_a', 'service_v9_b', 'service_v9_new'])).toBe(
      '"service_v9_*" now also matches 1 index the preview did not show (service_v9_new): nothing was sent; preview again and confirm what it matches now',
    );
    expect(compareResolution(was, ['service_v9_a'])).toMatch(/no longer matches 1 previewed index \(service_v9_b\)/);
    expect(compareResolution(was, null)).toMatch(/no longer matches 2 previewed indices \(service_v9_a, service_v9_b\)/);
  });

  it('refuses a request line over 4 KB instead of sending the pattern', () => {
    const many = Array.from({ length: 300 }, (_, i) => `service_v9_project_${String(i).padStart(4, '0')}`);
    const p = pinIndices(pat, 'service_v9_*', many);
    expect(checkRequestLine(p)).toMatch(
      /^naming the 300 indices "service_v9_\*" matches takes a \d+-byte request line, over Elasticsearch's 4096-byte limit: narrow the pattern/,
    );
    expect(checkPlanPath(p)).toMatch(/4096-byte limit/);
    expect(checkRequestLine(pinIndices(pat, 'service_v9_*', many.slice(0, 50)))).toBeNull();
    // The limit itself: "PUT " + path + " HTTP/1.1" of exactly 4096 bytes passes, one more does not.
    const line = (n: number) => ({ method: 'PUT' as const, path: '/' + 'a'.repeat(n - 'PUT / HTTP/1.1'.length), querystring: {} });
    expect(checkRequestLine(line(4096))).toBeNull();
    expect(checkRequestLine(line(4097))).toBe(
      "this request takes a 4097-byte request line, over Elasticsearch's 4096-byte limit: narrow the pattern (e.g. service_v9_a*) and run it in parts; nothing was sent",
    );
    expect(checkRequestLine({ ...line(4090), querystring: { q: 'xxxxxx' } })).toMatch(/takes a 4099-byte request line/);
  });
});

describe('audit log: a sending record before, an outcome line after', () => {
  const sending = {
    id: 'r1',
    phase: 'sending',
    time: '2026-11-22T07:00:00.000Z',
    profile: 'prod',
    url: 'https://h:9200',
    request: { method: 'PUT', path: '/x/_settings', querystring: {}, body: { a: 1 } },
    risk: 'reversible',
    target: 'x',
    summary: 's',
    confirmedBy: 'key',
  };
  const line = (o: unknown) => JSON.stringify(o);

  it('joins an outcome line onto its sending record (one record, one formatted line)', () => {
    const text = [
      line(sending),
      line({ of: 'r1', time: '2026-11-22T07:00:01.000Z', outcome: { ok: true, status: 200, durationMs: 5, applied: 'yes' } }),
    ].join('\n');
    const { records, unreadable } = parseAuditLog(text);
    expect(unreadable).toBe(0);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ id: 'r1', outcomeTime: '2026-11-22T07:00:01.000Z', outcome: { ok: true, applied: 'yes' } });
    expect(records[0]).not.toHaveProperty('phase');
    expect(formatAuditRecord(records[0])).toBe('2026-11-22T07:00:00.000Z prod PUT /x/_settings {"a":1} -> ok 200');
  });

  it('a sending record without an outcome (the process died mid-request) reads "outcome unknown"', () => {
    const { records } = parseAuditLog(line(sending) + '\n');
    expect(records[0].outcome).toBeUndefined();
    expect(formatAuditRecord(records[0])).toBe(
      '2026-11-22T07:00:00.000Z prod PUT /x/_settings {"a":1} -> outcome unknown (no answer recorded)',
    );
    const host = { ...sending, request: undefined, command: 'systemctl stop elasticsearch' };
    expect(formatAuditRecord(parseAuditLog(line(host)).records[0])).toBe(
      '2026-11-22T07:00:00.000Z prod $ systemctl stop elasticsearch -> outcome unknown (no answer recorded)',
    );
  });

  it('no answer: the read-back says applied, not applied or unknown', () => {
    const out = (applied: string) =>
      formatAuditRecord(
        parseAuditLog(
          [
            line(sending),
            line({ of: 'r1', time: 't', outcome: { ok: false, error: 'timed out', durationMs: 9, applied, readBack: 'r' } }),
          ].join('\n'),
        ).records[0],
      );
    expect(out('yes')).toMatch(/-> no answer \(timed out\); read back: applied$/);
    expect(out('no')).toMatch(/-> no answer \(timed out\); read back: not applied$/);
    expect(out('unknown')).toMatch(/-> no answer \(timed out\); read back: applied or not: unknown$/);
  });

  it('keeps old one-line records as they are; an outcome without its sending record is unreadable', () => {
    const old = { ...sending, id: undefined, phase: undefined, outcome: { ok: true, status: 200, durationMs: 3 } };
    const { records, unreadable } = parseAuditLog(
      [line(old), line({ of: 'nope', time: 't', outcome: { ok: true, durationMs: 1 } })].join('\n'),
    );
    expect(records).toHaveLength(1);
    expect(unreadable).toBe(1);
    expect(formatAuditRecord(records[0])).toMatch(/-> ok 200$/);
  });
});

describe('what the operator is told after sending', () => {
  const noAnswer = { ok: false, error: { message: 'http://h:9200 did not answer in time' } };
  it('an answer is reported as it is; a refusal or a connection never made was not read back', () => {
    expect(describeOutcome({ ok: true, applied: 'yes', status: 200 })).toBe('done (200)');
    expect(describeOutcome({ ok: false, applied: 'no', status: 400, error: { message: 'bad value' } })).toBe(
      'bad value: nothing was retried',
    );
    expect(describeOutcome({ ok: false, applied: 'no', error: { message: 'connection refused' } })).toBe(
      'connection refused: nothing was retried',
    );
  });
  it('no answer: applied / not applied / unknown from the read-back, never resent', () => {
    expect(
      describeOutcome({ ...noAnswer, applied: 'yes', verified: { ok: true, message: 'every matched index now has 0 replicas' } }),
    ).toBe(
      'no answer (http://h:9200 did not answer in time), but the cluster read back shows it applied (every matched index now has 0 replicas); it was not resent',
    );
    expect(describeOutcome({ ...noAnswer, applied: 'no', verified: { ok: false, message: 'still not 1 replicas: a' } })).toMatch(
      /^no answer \(.*\), and the cluster read back shows it NOT applied \(still not 1 replicas: a\); it may still arrive .*; it was not resent$/,
    );
    expect(describeOutcome({ ...noAnswer, applied: 'unknown' })).toMatch(
      /^no answer \(.*\), and whether it was applied is unknown: check the cluster .*; it was not resent$/,
    );
  });
  it('an applied change whose outcome could not be recorded says so, and is still done', () => {
    expect(describeOutcome({ ok: true, applied: 'yes', status: 200, auditWarning: 'its outcome could not be written' })).toBe(
      'done (200) (warning: its outcome could not be written)',
    );
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
    const conn = await resolveConnection(
      { url: `http://127.0.0.1:${await closedPort()}`, user: 'ops-admin', 'password-env': 'SHARDECK_TEST_ES_PASSWORD' },
      undefined,
    );
    expect(conn.password).toBe(PASSWORD); // it really travels with the connection the guard is given
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-mutation-'));
    const auditFile = path.join(dir, 'audit.log');
    const guard = new Guard({ client: createClient(conn), conn, profile: 'ops', auditFile });
    const forms = [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(`ops-admin:${PASSWORD}`).toString('base64')];

    const preview = guard.preview(plan);
    expect(preview.curl).toContain(`-u 'ops-admin' `);
    const out = await guard.execute(plan, { by: 'key' });
    expect(out.ok).toBe(false); // nothing listens: refused, and recorded
    const record = fs.readFileSync(auditFile, 'utf8');
    expect(parseAuditLog(record).records).toMatchObject([
      { profile: 'ops', request: { method: 'PUT', path: '/x/_settings' }, outcome: { ok: false } },
    ]);
    for (const text of [JSON.stringify(preview), preview.curl, JSON.stringify(out), record])
      for (const f of forms) expect(text).not.toContain(f);
    fs.rmSync(dir, { recursive: true, force: true });
    delete process.env.SHARDECK_TEST_ES_PASSWORD;
  });

  it('after a wait, the same names must still be the same indices (UUIDs)', () => {
    const before = new Map([
      ['a', 'u1'],
      ['b', 'u2'],
    ]);
    expect(
      compareUuids(
        'a,b',
        before,
        new Map([
          ['b', 'u2'],
          ['a', 'u1'],
        ]),
      ),
    ).toBeNull();
    expect(
      compareUuids(
        'a,b',
        before,
        new Map([
          ['a', 'u1'],
          ['b', 'u9'],
        ]),
      ),
    ).toMatch(/"a,b": b was deleted and re-created since the preview .*nothing was sent/);
    expect(compareUuids('a,b', before, new Map([['a', 'u1']]))).toMatch(/no longer matches 1 previewed index \(b\)/);
    expect(compareUuids('a,b', before, null)).toMatch(/no longer matches 2 previewed indices/);
  });
});
