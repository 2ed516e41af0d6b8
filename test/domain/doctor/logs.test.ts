// Log to remedy on the seed's exact messages (and the wording Elasticsearch 8.19 really logs for
// the JNA case, seen on a node with a noexec temp folder: test/integration/doctor.test.ts).
import { describe, expect, it } from 'vitest';
import { LOG_RULES, logFindings, matchLog, parseLog } from '../../../src/domain/doctor/logs';

const LOG = [
  '[2026-11-20T08:00:00,001][INFO ][o.e.n.Node               ] [n1] started',
  '[2026-11-20T08:01:00,000][WARN ][o.e.n.NativeAccess       ] [n1] Unable to load native provider. Native methods will be disabled.',
  'java.lang.UnsatisfiedLinkError: /tmp/es/jna123.tmp: failed to map segment from shared object',
  '\tat java.base/jdk.internal.loader.NativeLibraries.load(Native Method)',
  '[2026-11-20T09:00:00,000][WARN ][o.e.b.JNANatives         ] [n1] Unable to load JNA native support library, native methods will be disabled.',
  '[2026-11-21T10:00:00,000][DEBUG][o.e.a.s.TransportSearchAction] [n1] [service_v9_a][0] failed: Trying to create too many scroll contexts. Must be less than or equal to: [500]. This limit can be set by changing the [search.max_open_scroll_context] setting.',
  '[2026-11-21T10:05:00,000][DEBUG][o.e.a.s.TransportSearchAction] [n1] [service_v9_a][1] failed: Trying to create too many scroll contexts. Must be less than or equal to: [500].',
  '[2026-11-22T11:00:00,000][WARN ][o.e.i.e.Engine           ] [n1] [service_v9_b][0] failed engine [merge failed]',
  'org.apache.lucene.index.CorruptIndexException: codec mismatch: actual codec=1 vs expected codec=2',
  '[2026-11-22T11:00:01,000][INFO ][o.e.c.r.a.AllocationService] [n1] ... reason: no_valid_shard_copy',
  '[2026-11-23T12:00:00,000][WARN ][r.suppressed             ] [n1] path: /service_v9_c/_doc, params: {index=service_v9_c} org.elasticsearch.cluster.block.ClusterBlockException: index [service_v9_c] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block];',
].join('\n');

describe('log to remedy', () => {
  it('splits entries at time stamps; a stack trace belongs to its entry', () => {
    const e = parseLog(LOG);
    expect(e).toHaveLength(8);
    expect(e[1].text).toMatch(/failed to map segment/);
    expect(e[1].t).toBe(new Date('2026-11-20T08:01:00.000').getTime());
  });

  it('counts every message of the seed table with first and last time', () => {
    const m = Object.fromEntries(matchLog(parseLog(LOG)).map((x) => [x.rule.id, x]));
    expect(m['scroll-contexts']).toMatchObject({
      count: 2,
      first: new Date('2026-11-21T10:00:00').getTime(),
      last: new Date('2026-11-21T10:05:00').getTime(),
    });
    expect(m.jna.count).toBe(2);
    expect(m.corrupt.count).toBe(2);
    expect(m['cluster-block'].count).toBe(1);
    expect(m['cluster-block'].example).toMatch(/ClusterBlockException/);
  });

  it('gives the remedy and the key or command that applies it', () => {
    const f = Object.fromEntries(logFindings({ file: '/var/log/es/c.log', entries: parseLog(LOG) }).map((x) => [x.id, x]));
    expect(f['log.scroll-contexts']).toMatchObject({ severity: 'warn', fix: { key: 'L', command: 'shardeck scroll-limit 1000' } });
    expect(f['log.scroll-contexts'].finding).toMatch(
      /2 times in the log, first 20\d\d-11-21T\d\d:00:00Z, last .*: open scroll contexts above the limit/,
    );
    expect(f['log.scroll-contexts'].remedy).toMatch(/raise search.max_open_scroll_context .* 5m to e.g. 1m/);
    expect(f['log.jna'].remedy).toMatch(/ES_TMPDIR in the sysconfig file/);
    expect(f['log.cluster-block'].fix).toMatchObject({ key: 'U', command: 'shardeck unblock' });
    expect(f['log.corrupt'].fix).toMatchObject({ key: 'C', command: 'shardeck recover-corrupt' });
    expect(f['log.corrupt'].evidence[0]).toBe('/var/log/es/c.log');
  });

  it('a line older than a day is said as old, not judged, and offers no fix (issue 47)', () => {
    const entries = parseLog(LOG);
    const last = matchLog(entries).find((m) => m.rule.id === 'corrupt')!.last!;
    const fresh = Object.fromEntries(logFindings({ file: 'c.log', entries }, last + 3_600_000).map((x) => [x.id, x]));
    expect(fresh['log.corrupt']).toMatchObject({ severity: 'warn', fix: { key: 'C' } });
    const stale = Object.fromEntries(logFindings({ file: 'c.log', entries }, last + 3 * 86_400_000).map((x) => [x.id, x]));
    expect(stale['log.corrupt'].severity).toBe('unknown');
    expect(stale['log.corrupt'].finding).toMatch(/\(old: nothing since \d day\(s\); what is true now is in the other findings\)$/);
    expect(stale['log.corrupt'].fix).toBeUndefined();
    expect(stale['log.corrupt'].remedy).toMatch(/recover from replicas/);
  });

  it('a cluster block in the log is blamed on the block it names; only the flood-stage one on the disk (issue 41)', () => {
    const handSet = parseLog(
      '[2026-11-27T10:00:00,001][WARN ][o.e.x] [n1] failed: ClusterBlockException: index [x1] blocked by: [FORBIDDEN/13/cluster read-only / allow delete (api)];',
    );
    const f = logFindings({ file: 'c.log', entries: handSet }).find((x) => x.id === 'log.cluster-block')!;
    expect(f.finding).toMatch(/the block cluster\.blocks\.read_only_allow_delete refused it, not the disk$/);
    expect(f.remedy).toMatch(/PUT \/_cluster\/settings \{"persistent":\{"cluster\.blocks\.read_only_allow_delete":null\}\}/);
    expect(f.fix).toBeUndefined();
  });

  it('ok when none is there; unknown when the log is not here', () => {
    // One ok finding per rule (an empty list would say nothing, so the ids are named).
    const quiet = logFindings({ file: 'x.log', entries: parseLog('[2026-11-20T08:00:00,001][INFO ][o] [n1] started') });
    expect(quiet.map((f) => [f.id, f.severity])).toEqual(LOG_RULES.map((r) => [`log.${r.id}`, 'ok']));
    expect(quiet.map((f) => f.id)).toEqual(['log.scroll-contexts', 'log.jna', 'log.cluster-block', 'log.corrupt']);
    expect(logFindings({ file: null, notHere: 'no node of this cluster runs on this host' })[0]).toMatchObject({
      severity: 'unknown',
      id: 'log.file',
    });
  });
});
