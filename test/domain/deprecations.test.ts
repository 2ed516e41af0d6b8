// Upgrade readiness from what Elasticsearch reports: the _migration/deprecations answer (the
// reference's own example: the test distribution has no deprecation module) and a deprecation log
// recorded from a real 8.19.21 node started with a deprecated setting.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  deprecationLogFile,
  deprecationsApiMissing,
  deprecationsExit,
  deprecationsReport,
  fixFor,
  issueTitle,
  parseDeprecationLog,
  parseDeprecationsInfo,
} from '../../src/domain/inspect/deprecations';
import { upgradeFindings } from '../../src/domain/doctor/upgrade';
import { forbiddenSentence, parseUnauthorized } from '../../src/domain/privileges';

const fixture = (f: string) => fs.readFileSync(new URL(`../fixtures/deprecations/${f}`, import.meta.url), 'utf8');

describe('_migration/deprecations', () => {
  const issues = parseDeprecationsInfo(JSON.parse(fixture('reference-example.json')));

  it('reads every level, critical first, with message, details, doc link and a fix', () => {
    expect(issues.map((i) => [i.severity, i.level, i.target])).toEqual([
      ['critical', 'cluster', undefined],
      ['warning', 'index', 'logs:apache'],
    ]);
    expect(issues[0]).toMatchObject({
      source: 'api',
      message: "Cluster name cannot contain ':'",
      details: "This cluster is named [mycompany:logging], which contains the illegal character ':'.",
      url: expect.stringContaining('breaking-changes-7.0.html'),
      resolveDuringRollingUpgrade: false,
    });
    expect(issues[0].fix).toMatch(/cluster settings.*Elasticsearch says: This cluster is named/);
    expect(issues[1].fix).toMatch(/^index logs:apache: .*reindex/);
  });

  it('takes levels it does not know by name (8.x data streams, templates, ILM policies) and node issues', () => {
    const more = parseDeprecationsInfo({
      node_settings: [{ level: 'warning', message: 'Setting [path.shared_data] is deprecated', details: '(nodes impacted: [n1])' }],
      data_streams: { 'logs-a': [{ level: 'critical', message: 'Old data stream with a compatibility version < 8.0' }] },
      ilm_policies: { p: [{ level: 'warning', message: 'ILM action [freeze] is deprecated' }] },
      templates: { t: [{ level: 'warning', message: 'Configuring source mode in mappings is deprecated' }] },
    });
    expect(more.map((i) => `${i.severity} ${i.level} ${i.target ?? ''}`.trim())).toEqual([
      'critical data_stream logs-a',
      'warning ilm_policy p',
      'warning node',
      'warning template t',
    ]);
    expect(more.find((i) => i.level === 'node')!.fix).toMatch(/\[path\.shared_data\] in elasticsearch\.yml.*restart-node/);
  });

  it('a node without the module (405 on GET, or 400 "no handler") is "not served", other failures are not', () => {
    expect(deprecationsApiMissing(405, 'Incorrect HTTP method for uri [/_migration/deprecations] and method [GET], allowed: [POST]')).toBe(
      true,
    );
    expect(deprecationsApiMissing(400, 'no handler found for uri [/_migration/deprecations] and method [GET]')).toBe(true);
    expect(deprecationsApiMissing(400, 'something else')).toBe(false);
    expect(deprecationsApiMissing(500, undefined)).toBe(false);
  });

  it("a 403 names the privilege the API needs (manage), as Elasticsearch's reason gives it", () => {
    const u = parseUnauthorized(
      'action [cluster:admin/xpack/deprecation/info] is unauthorized for user [w] with effective roles [watcher], this action is granted by the cluster privileges [manage,all]',
    );
    expect(forbiddenSentence(u!)).toMatch(
      /^user w lacks the cluster privilege manage \(or all\) for cluster:admin\/xpack\/deprecation\/info/,
    );
  });
});

describe('the deprecation log (recorded from 8.19.21 started with a deprecated setting)', () => {
  const issues = parseDeprecationLog(fixture('deprecation-log-8.19.21.json'));

  it('names the setting, when, and how to fix it', () => {
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      source: 'log',
      level: 'settings',
      severity: 'warning',
      code: 'cluster.routing.allocation.disk.watermark.enable_for_single_data_node',
      count: 1,
      first: '2026-11-26T07:32:37.236Z',
    });
    expect(issues[0].fix).toMatch(
      /^remove or replace \[cluster\.routing\.allocation\.disk\.watermark\.enable_for_single_data_node\] in elasticsearch\.yml/,
    );
  });

  it('groups repeats by what they are about, a CRITICAL line makes it critical, junk lines are skipped', () => {
    const line = fixture('deprecation-log-8.19.21.json').trim();
    const critical = line.replace('"WARN"', '"CRITICAL"').replace('07:32:37.236Z', '07:40:00.000Z');
    const api = JSON.stringify({
      '@timestamp': '2026-11-26T07:41:00.000Z',
      'log.level': 'WARN',
      'elasticsearch.event.category': 'api',
      'event.code': 'get_mapping_include_type_name',
      message: '[types removal] Using include_type_name is deprecated',
      'elasticsearch.http.request.x_opaque_id': 'nightly-job',
    });
    const out = parseDeprecationLog([line, 'not json', '{broken', critical, api].join('\n'));
    expect(out.map((i) => [i.severity, i.level, i.count])).toEqual([
      ['critical', 'settings', 2],
      ['warning', 'api', 1],
    ]);
    expect(out[0].last).toBe('2026-11-26T07:40:00.000Z');
    expect(out[1].details).toBe('request X-Opaque-Id nightly-job');
  });

  it('lines without an event code are grouped by their message; the fix says where a cluster setting is changed', () => {
    const plain = (at: string) => JSON.stringify({ '@timestamp': at, 'log.level': 'WARN', message: 'old thing used' });
    const out = parseDeprecationLog([plain('2026-11-26T07:40:00.000Z'), plain('2026-11-26T07:41:00.000Z')].join('\n'));
    expect(out.map((i) => [i.message, i.count, i.level])).toEqual([['old thing used', 2, 'other']]);
    expect(issueTitle(out[0])).toBe('other: old thing used (2 times)');
    expect(fixFor('cluster', undefined, undefined, 'search.x')).toMatch(
      /^change \[search\.x\] in the cluster settings \(PUT _cluster\/settings/,
    );
  });

  it('is found beside the plain log', () => {
    expect(deprecationLogFile({ logs: '/var/log/elasticsearch/', clusterName: 'prod' })).toBe(
      '/var/log/elasticsearch/prod_deprecation.json',
    );
    expect(deprecationLogFile({ logs: '/x' })).toBeNull();
  });
});

describe('the report, its exit code and the doctor section', () => {
  const api = parseDeprecationsInfo(JSON.parse(fixture('reference-example.json')));
  const log = { file: '/l/x_deprecation.json', issues: parseDeprecationLog(fixture('deprecation-log-8.19.21.json')) };

  it('counts by severity and exits 2 on a critical issue, 1 on warnings, 0 on none', () => {
    const r = deprecationsReport(api, log);
    expect(r.counts).toEqual({ critical: 1, warning: 2 });
    expect(deprecationsExit(r)).toBe(2);
    expect(deprecationsExit(deprecationsReport({ why: 'not served' }, log))).toBe(1);
    expect(deprecationsExit(deprecationsReport([], { file: null, why: 'not here' }))).toBe(0);
  });

  it('gives the doctor one finding per issue, critical ones critical, with the doc link and the fix', () => {
    const fs_ = upgradeFindings(deprecationsReport(api, log));
    expect(fs_.map((f) => [f.family, f.severity])).toEqual([
      ['upgrade', 'critical'],
      ['upgrade', 'warn'],
      ['upgrade', 'warn'],
    ]);
    expect(fs_[0].evidence).toContain(api[0].url);
    expect(fs_[0].remedy).toBe(api[0].fix);
  });

  it('says ok when what was read reports nothing, and "not checked" when nothing could be read', () => {
    expect(upgradeFindings(deprecationsReport({ why: 'not served' }, { file: '/l/x', issues: [] }))).toMatchObject([
      { severity: 'ok', finding: 'no deprecation reported by /l/x', evidence: ['API: not served'] },
    ]);
    expect(upgradeFindings(deprecationsReport({ why: 'not served' }, { file: null, why: 'not here' }))[0].severity).toBe('unknown');
  });
});
