// Issue 41, the health report's indicators, the master and the nodes by role, ILM and snapshots:
// each rule where it fires and where it holds, on answers recorded from real 8.19 nodes
// (dev/record-doctor.ts: a yellow node's report and verbose indicators, file-based settings that
// failed, the doctor's two samples, a broken repository) and on plain values for what the test
// distribution lacks (ILM, SLM, a red or yellow master_is_stable, a second master).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  dataStreamLifecycleFindings,
  fileSettingsFindings,
  healthReportFindings,
  parseIndicatorDetail,
  type HealthReportView,
} from '../../../src/domain/doctor/health-report';
import {
  highAvailabilityFinding,
  masterLoadFinding,
  masterStableFinding,
  noMasterFinding,
  nodeLeftFinding,
} from '../../../src/domain/doctor/master';
import { ilmErrorFinding, ilmStatusFinding, parseIlm, type IlmView } from '../../../src/domain/doctor/ilm';
import {
  failingSnapshotFinding,
  missingSnapshotFinding,
  repositoryFinding,
  slmFinding,
  snapshotFindings,
  type SnapshotsView,
} from '../../../src/domain/doctor/snapshots';
import { doctorSample, parseSampleState, type DoctorSample } from '../../../src/domain/doctor/sample';
import { parseHealthReport } from '../../../src/domain/parse';
import { parseRepositories, parseSnapshots, type SnapshotInfo } from '../../../src/domain/snapshots';
import type { IndexRow, ShardRow } from '../../../src/domain/types';
import type { NodeSample } from '../../../src/domain/nodes/node-history';
import { FIXTURES } from '../../helpers/recorded';

const raw = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'doctor-ii', `${name}.json`), 'utf8'));
const sampleOf = (name: string, t: number): DoctorSample => {
  const r = raw(name);
  return doctorSample(t, r.stats, r.state, r.tasks);
};
const first = sampleOf('sample-first', 1_000_000);
const second = sampleOf('sample-second', 1_003_000);
const NOW = 1_795_900_000_000;

// A node past flood stage with its shard limit reached: disk and shards_capacity red (8.19's test
// distribution has no shards_availability indicator: its verbose read answers 404).
const red: HealthReportView = {
  available: true,
  report: parseHealthReport(raw('healthReport-red')),
  verbose: {
    disk: parseIndicatorDetail(raw('indicator-disk'), 'disk')!,
    shards_capacity: parseIndicatorDetail(raw('indicator-shards_capacity'), 'shards_capacity')!,
  },
};

describe('health.report: the indicators no rule of its own judges', () => {
  it('a red indicator is critical, with its impacts and diagnoses (cause, action, affected indices) from its verbose answer', () => {
    expect(raw('indicator-shards_availability').status).toBe(404);
    const [disk, capacity] = healthReportFindings(red);
    expect(disk).toMatchObject({ id: 'health.report.disk', family: 'health', severity: 'critical' });
    expect(disk.finding).toBe(
      '2 indices are not allowed to be updated. The cluster is recovering and ingest capabilities should be restored within a few minutes. (health report: red)',
    );
    expect(disk.evidence).toEqual([
      '_health_report disk: red: 2 indices are not allowed to be updated. The cluster is recovering and ingest capabilities should be restored within a few minutes.',
      'impact: Cannot insert or update documents in the affected indices [service_v9_docs, service_v9_yellow]. (ingest)',
      'cause: 2 indices reside on nodes that have run or are likely to run out of disk space, this can temporarily disable writing on these indices.',
      'action: Enable autoscaling (if applicable), add disk capacity or free up disk space to resolve this. If you have already taken action please wait for the rebalancing to complete. (https://ela.st/fix-data-disk)',
      'affected indices: service_v9_docs, service_v9_yellow',
    ]);
    expect(disk.remedy).toMatch(/^Enable autoscaling/);
    expect(capacity).toMatchObject({ id: 'health.report.shards_capacity', severity: 'critical' });
    expect(capacity.remedy).toBe(
      'Increase the number of nodes in your cluster or remove some non-frozen indices to reduce the number of shards in the cluster.',
    );
  });

  it('holds when every indicator is green; the indicators a rule owns are left to it', () => {
    const green: HealthReportView = { available: true, report: parseHealthReport(raw('healthReport-file-settings')), verbose: {} };
    const fs1 = healthReportFindings(green);
    expect(fs1).toHaveLength(1);
    expect(fs1[0]).toMatchObject({ id: 'health.report', severity: 'ok' });
    expect(fs1[0].finding).toBe('health report green: disk, shards_capacity green');
  });

  it('before 8.7 there is none: said, with what could not be judged', () => {
    const [f] = healthReportFindings({ available: false, why: 'the health report needs 8.7 (this node runs 8.6.2)' });
    expect(f).toMatchObject({ id: 'health.report', severity: 'unknown' });
    expect(f.evidence[1]).toMatch(/^not judged without it/);
  });

  it('data_stream_lifecycle: the indicator when there; a node without it is said, not judged', () => {
    expect(dataStreamLifecycleFindings(red)[0]).toMatchObject({ severity: 'unknown' });
    expect(dataStreamLifecycleFindings(red)[0].finding).toMatch(/^this node reports no data_stream_lifecycle indicator/);
    const dsl: HealthReportView = {
      available: true,
      report: { status: 'yellow', indicators: [] },
      verbose: {
        data_stream_lifecycle: parseIndicatorDetail(
          {
            indicators: {
              data_stream_lifecycle: {
                status: 'yellow',
                symptom: '2 backing indices have repeatedly encountered errors whilst trying to advance in its lifecycle',
                details: { stagnating_backing_indices_count: 2 },
                diagnosis: [{ cause: 'c', action: 'a', affected_resources: { indices: ['.ds-logs-1', '.ds-logs-2'] } }],
              },
            },
          },
          'data_stream_lifecycle',
        )!,
      },
    };
    const [f] = dataStreamLifecycleFindings(dsl);
    expect(f).toMatchObject({ id: 'health.data-stream-lifecycle', severity: 'warn', remedy: 'a' });
    expect(f.evidence).toContain('stagnating backing indices: 2');
  });
});

describe('health.file-settings', () => {
  it('settings.json that failed to apply (recorded: an unknown setting) is a warning naming the error, first line only', () => {
    const failed = { ...second, ...parseSampleState(raw('state-file-settings-error')) };
    const [f] = fileSettingsFindings(red, failed);
    expect(f).toMatchObject({ id: 'health.file-settings', severity: 'warn' });
    expect(f.finding).toBe(
      'file-based settings failed to apply (validation, version 1): the cluster runs on the last settings that applied (version -1)',
    );
    expect(f.evidence[1]).toBe(
      'error: Error processing cluster_settings state change: java.lang.IllegalArgumentException: persistent setting [no.such.setting], not recognized',
    );
  });

  it('holds with none applied and none failed (the recorded quiet state)', () => {
    expect(fileSettingsFindings(red, second)[0]).toMatchObject({
      severity: 'ok',
      finding: 'no file-based settings applied (config/operator/settings.json absent), none failed',
    });
  });
});

describe('master.stable', () => {
  it('the recorded node: one master, the same term in both reads, ok; from the command line the console is named', () => {
    const f = masterStableFinding({ first, second, now: NOW });
    expect(f).toMatchObject({
      id: 'master.stable',
      severity: 'ok',
      finding: 'master doctor-rec elected, no election while watched (term 1)',
    });
    expect(f.evidence[1]).toMatch(/needs the console's history/);
  });

  it('an election between the two reads (a higher term, or another master) warns', () => {
    expect(masterStableFinding({ first, second: { ...second, term: 3 }, now: NOW })).toMatchObject({
      severity: 'warn',
      finding: 'master elections while watched: 2 election(s) in 3.0 s (term 1 -> 3)',
    });
    const other = { ...second, masterId: 'other', nodes: [...second.nodes, { ...second.nodes[0], id: 'other', name: 'node-2' }] };
    expect(masterStableFinding({ first, second: other, now: NOW }).finding).toBe(
      'master elections while watched: the master changed from doctor-rec to node-2',
    );
  });

  it('no elected master is critical', () => {
    const f = masterStableFinding({ first, second: { ...second, masterId: null }, now: NOW });
    expect(f).toMatchObject({ severity: 'critical' });
    expect(f.remedy).toMatch(/quorum of the voting configuration/);
  });

  it("the console's masters: a second one seen warns", () => {
    const watch = {
      peak: 3,
      known: ['a', 'b', 'c'],
      masters: [
        { name: 'a', since: NOW - 600_000 },
        { name: 'b', since: NOW - 60_000 },
      ],
    };
    expect(masterStableFinding({ first, second, watch, now: NOW }).finding).toBe(
      'master elections while watched: the console saw 2 masters: a (10m ago), b (1m ago)',
    );
  });

  it('on 8.7+ the indicator speaks (recorded: green with its recent masters); a yellow one warns with its diagnoses', () => {
    const health: HealthReportView = {
      available: true,
      report: parseHealthReport(raw('healthReport-red')),
      verbose: { master_is_stable: parseIndicatorDetail(raw('indicator-master_is_stable'), 'master_is_stable')! },
    };
    const ok = masterStableFinding({ health, first, second, now: NOW });
    expect(ok).toMatchObject({ severity: 'ok', finding: 'master doctor-rec elected, no election while watched (term 1)' });
    expect(ok.evidence[0]).toBe('_health_report master_is_stable: green: The cluster has a stable master node; recent masters: doctor-rec');
    // Green, but the two reads saw an election: the reads speak.
    expect(masterStableFinding({ health, first, second: { ...second, term: 2 }, now: NOW }).severity).toBe('warn');
    health.verbose.master_is_stable = {
      indicator: {
        name: 'master_is_stable',
        status: 'yellow',
        symptom: 'The elected master node has changed 4 times in the last 30m',
        impacts: [],
        diagnoses: [{ cause: 'flapping', action: 'Check the logs of the master-eligible nodes', affectedIndices: [] }],
      },
      details: {},
    };
    expect(masterStableFinding({ health, first, second, now: NOW })).toMatchObject({
      severity: 'warn',
      remedy: 'Check the logs of the master-eligible nodes',
    });
  });
});

describe('master.stable when the health read found no master', () => {
  const ind = (status: 'green' | 'red') => ({
    indicator: {
      name: 'master_is_stable',
      status,
      symptom: status === 'green' ? 'The cluster has a stable master node' : 'No master node observed in the last 30s',
      impacts: [],
      diagnoses: status === 'red' ? [{ cause: 'no quorum', action: 'Start the master-eligible nodes', affectedIndices: [] }] : [],
    },
    details: { current_master: { node_id: null, name: null } },
  });

  it('critical in its own words while the indicator is still green (seen on 8.19: green with current_master null)', () => {
    const f = noMasterFinding('http://127.0.0.1:9200', ind('green'));
    expect(f).toMatchObject({ id: 'master.stable', severity: 'critical' });
    expect(f.evidence[1]).toBe(
      '_health_report master_is_stable: green: The cluster has a stable master node (current_master null: the indicator waits before it turns red)',
    );
    expect(noMasterFinding('x').severity).toBe('critical');
  });

  it('once the indicator is red, its diagnosis', () => {
    expect(noMasterFinding('x', ind('red'))).toMatchObject({ severity: 'critical', remedy: 'Start the master-eligible nodes' });
  });
});

describe('master.node-left', () => {
  it('holds on the recorded node', () => {
    expect(nodeLeftFinding({ first, second, now: NOW })).toMatchObject({
      severity: 'ok',
      finding: 'no node left (1 node(s): 1 master-eligible, 1 data)',
    });
  });

  it('a master-eligible node of the voting configuration gone, data nodes named by NODE_LEFT shards, nodes the console saw go with their roles', () => {
    const gone = { ...second, votingIds: [...second.votingIds, 'm2', 'm3'] };
    const shard = (n: number): ShardRow => ({
      index: 'service_v9_a',
      shard: n,
      primary: false,
      state: 'UNASSIGNED',
      node: null,
      docs: null,
      storeBytes: null,
      unassignedReason: 'NODE_LEFT',
      unassignedDetails: 'node_left [d9]',
    });
    const watch = { peak: 3, known: ['a', 'b', 'c'], left: { count: 1, names: ['c'], since: NOW - 40_000 }, roles: { c: 'dim' } };
    const f = nodeLeftFinding({ first, second: gone, shards: [shard(0), shard(1)], watch, now: NOW });
    expect(f).toMatchObject({ id: 'master.node-left', severity: 'warn' });
    expect(f.finding).toBe(
      'c (data, ingest, master) left 40s ago; master-eligible node(s) m2, m3 of the voting configuration are not in the cluster; data node(s) d9 left: 2 shard copies unassigned (NODE_LEFT)',
    );
  });
});

describe('master.load and master.ha', () => {
  it('the master loaded: CPU high in both reads, or its old generation above 85%', () => {
    const cpu = (s: DoctorSample, c: number) => ({ ...s, nodes: s.nodes.map((n) => ({ ...n, cpuPercent: c })) });
    const hot = (s: DoctorSample) => cpu(s, 97);
    // The recorded reads: 96% and more, the node just started on a busy machine.
    expect(masterLoadFinding({ first, second, now: NOW }).severity).toBe('warn');
    const [calm1, calm2] = [cpu(first, 20), cpu(second, 20)];
    expect(masterLoadFinding({ first: hot(first), second: hot(second), now: NOW })).toMatchObject({ severity: 'warn', node: 'doctor-rec' });
    expect(masterLoadFinding({ first: calm1, second: calm2, oldGen: { 'doctor-rec': 90 }, now: NOW }).finding).toMatch(
      /loaded \(old generation 90%\)/,
    );
    expect(masterLoadFinding({ first: calm1, second: calm2, oldGen: { 'doctor-rec': 40 }, now: NOW }).severity).toBe('ok');
    const sample = (cpu: number): NodeSample => ({
      t: 0,
      heapPercent: 1,
      oldGenPercent: 1,
      cpuPercent: cpu,
      diskPercent: 1,
      rejections: 0,
      searchPerSec: 0,
      indexPerSec: 0,
    });
    // The recorded second read says 96%: the console's six calm samples win over one busy read.
    expect(
      masterLoadFinding({ first, second, history: { 'doctor-rec': Array.from({ length: 6 }, () => sample(20)) }, now: NOW }).severity,
    ).toBe('ok');
  });

  it("one master-eligible node alone is information (the platform's single node); two of three warn; three hold", () => {
    expect(highAvailabilityFinding({ second, now: NOW })).toMatchObject({ severity: 'ok' });
    expect(highAvailabilityFinding({ second, now: NOW }).finding).toMatch(/^one node, master-eligible: not highly available/);
    const n = second.nodes[0];
    const three = (roles: string[][]) => ({ ...second, nodes: roles.map((r, i) => ({ ...n, id: `n${i}`, name: `n${i}`, roles: r })) });
    expect(highAvailabilityFinding({ second: three([['master', 'data'], ['master', 'data'], ['data']]), now: NOW })).toMatchObject({
      severity: 'warn',
      finding: '2 master-eligible node(s) for 3 nodes: losing either of them may stop elections, and the cluster with them',
    });
    expect(highAvailabilityFinding({ second: three([['master'], ['master'], ['master']]), now: NOW }).severity).toBe('ok');
  });
});

describe('ILM (the test distribution has none: tested on plain values)', () => {
  const none: IlmView = { available: false, why: 'not on this node (GET _ilm/status answered 405: its distribution has no such module)' };
  const explain = (x: Record<string, unknown>) =>
    parseIlm({ operation_mode: 'RUNNING' }, { indices: { 'logs-1': { index: 'logs-1', managed: true, policy: 'p', ...x } } });

  it('a node without ILM is said, not judged (the recorded 405)', () => {
    expect(raw('ilm-status').status).toBe(405);
    expect(ilmStatusFinding(undefined, none, NOW)).toMatchObject({ id: 'ilm.status', severity: 'unknown' });
    expect(ilmErrorFinding(none)).toMatchObject({ id: 'ilm.error', severity: 'unknown' });
  });

  it('ILM stopped warns; an index in one action over a day with 100 retries stagnates; else ok', () => {
    expect(ilmStatusFinding(undefined, { available: true, mode: 'STOPPED', indices: [] }, NOW)).toMatchObject({ severity: 'warn' });
    const stuck = explain({
      phase: 'hot',
      action: 'rollover',
      step: 'check-rollover-ready',
      action_time_millis: NOW - 2 * 86_400_000,
      failed_step_retry_count: 150,
    });
    expect(ilmStatusFinding(undefined, stuck, NOW).finding).toBe('1 index stagnates in one ILM action for over a day: logs-1');
    const young = explain({
      phase: 'hot',
      action: 'rollover',
      step: 'check-rollover-ready',
      action_time_millis: NOW - 3600_000,
      failed_step_retry_count: 150,
    });
    expect(ilmStatusFinding(undefined, young, NOW).severity).toBe('ok');
  });

  it('an index in the ERROR step warns with the reason it gave; none holds', () => {
    const err = explain({
      phase: 'hot',
      action: 'rollover',
      step: 'ERROR',
      failed_step: 'check-rollover-ready',
      step_info: { type: 'illegal_argument_exception', reason: 'index.lifecycle.rollover_alias [logs] does not point to index [logs-1]' },
    });
    const f = ilmErrorFinding(err);
    expect(f).toMatchObject({ severity: 'warn', finding: '1 index is in the ILM ERROR step: logs-1' });
    expect(f.evidence[0]).toBe(
      'logs-1 (policy p): failed at hot/rollover/check-rollover-ready: index.lifecycle.rollover_alias [logs] does not point to index [logs-1]',
    );
    expect(ilmErrorFinding(explain({ step: 'complete' })).severity).toBe('ok');
  });
});

describe('snapshots', () => {
  const repositories = parseRepositories({
    good: { type: 'fs', settings: { location: '/r/good' } },
    broken: { type: 'fs', settings: { location: '/r/broken' } },
  });
  const good = parseSnapshots(raw('snapshots-good').body, 'good');
  const brokenAnswer = raw('snapshots-broken').body.error;
  const view: SnapshotsView = { repositories, snapshots: good, failures: { broken: `${brokenAnswer.type}: ${brokenAnswer.reason}` } };
  const index = (name: string): IndexRow => ({
    name,
    health: 'green',
    status: 'open',
    primaries: 1,
    replicas: 0,
    docsCount: 1,
    docsDeleted: 0,
    storeBytes: 1,
    priStoreBytes: 1,
    system: false,
  });
  const end = good[0].endMs!;

  it('missing: an open index without a snapshot from the expected period warns; off when unset', () => {
    const indices = [index('service_v9_docs'), index('service_v9_new')];
    const f = missingSnapshotFinding(view, indices, 86_400_000, end + 3600_000);
    expect(f).toMatchObject({
      id: 'snapshots.missing',
      severity: 'warn',
      finding: '1 open index has no successful snapshot from the last 24.0h: service_v9_new',
    });
    expect(f.evidence).toContain('service_v9_new: in no snapshot');
    expect(missingSnapshotFinding(view, [index('service_v9_docs')], 86_400_000, end + 3600_000).severity).toBe('ok');
    expect(missingSnapshotFinding(view, indices, 86_400_000, end + 2 * 86_400_000).finding).toMatch(/^2 open indices/);
    expect(missingSnapshotFinding(view, indices, undefined, NOW)).toMatchObject({ severity: 'unknown' });
  });

  it('repository integrity: a repository whose listing fails (recorded: a broken index-N) warns, even when the indicator is green', () => {
    const f = repositoryFinding(undefined, view);
    expect(f).toMatchObject({ id: 'snapshots.repository', severity: 'warn' });
    expect(f.evidence).toEqual([
      'broken: its listing failed: repository_exception: [broken] cannot retrieve snapshots list from this repository',
    ]);
    const health: HealthReportView = {
      available: true,
      report: parseHealthReport(raw('healthReport-red')),
      verbose: {},
    };
    expect(repositoryFinding(health, view).severity).toBe('warn');
    expect(repositoryFinding(health, { ...view, failures: {} })).toMatchObject({
      severity: 'ok',
      finding: 'No snapshot repositories configured. (health report: green)',
    });
    expect(repositoryFinding(undefined, { ...view, failures: {} })).toMatchObject({
      severity: 'ok',
      finding: '2 repositories read without error',
    });
  });

  it("failing: a repository's two newest snapshots failed, or an SLM policy failing since its last success, warn", () => {
    const failed = (name: string, startMs: number): SnapshotInfo => ({
      ...good[0],
      name,
      state: 'PARTIAL',
      startMs,
      shards: { total: 2, ok: 1, failed: 1 },
      failures: [{ index: 'service_v9_docs', shard: 0, reason: 'IndexShardSnapshotFailedException', status: 'INTERNAL_SERVER_ERROR' }],
    });
    const two = { ...view, snapshots: [failed('s3', end + 2), failed('s2', end + 1), ...good] };
    expect(failingSnapshotFinding(two, undefined)).toMatchObject({
      severity: 'warn',
      finding: 'snapshots keep failing: the 2 newest snapshots of good failed',
    });
    expect(failingSnapshotFinding({ ...view, snapshots: [failed('s2', end + 1), ...good] }, undefined).severity).toBe('ok');
    const slm = {
      available: true as const,
      mode: 'RUNNING',
      policies: [
        {
          id: 'nightly',
          name: 'n',
          schedule: 's',
          repository: 'good',
          lastSuccessMs: 1,
          lastFailure: { timeMs: 2, reason: 'repository missing' },
        },
      ],
    };
    expect(failingSnapshotFinding(view, slm).finding).toMatch(/SLM policy nightly has failed since/);
  });

  it('SLM: a node without it is said (recorded 405); stopped with policies or a failing policy warns; the slm indicator when there', () => {
    expect(raw('slm-status').status).toBe(405);
    expect(slmFinding(undefined, { available: false, why: 'not on this node' })).toMatchObject({
      id: 'snapshots.slm',
      severity: 'unknown',
    });
    const policy = { id: 'nightly', name: 'n', schedule: 's', repository: 'good', lastSuccessMs: 5 };
    expect(slmFinding(undefined, { available: true, mode: 'STOPPED', policies: [policy] }).severity).toBe('warn');
    expect(slmFinding(undefined, { available: true, mode: 'STOPPED', policies: [] }).severity).toBe('ok');
    expect(
      slmFinding(undefined, { available: true, mode: 'RUNNING', policies: [{ ...policy, lastFailure: { timeMs: 9, reason: 'x' } }] })
        .severity,
    ).toBe('warn');
    expect(slmFinding(undefined, { available: true, mode: 'RUNNING', policies: [policy] }).severity).toBe('ok');
    const health: HealthReportView = {
      available: true,
      report: { status: 'yellow', indicators: [] },
      verbose: {
        slm: {
          indicator: {
            name: 'slm',
            status: 'yellow',
            symptom: 'Encountered [1] unhealthy snapshot lifecycle management policies.',
            impacts: [],
            diagnoses: [],
          },
          details: { unhealthy_policies: { count: 1, invocations_since_last_success: { nightly: 6 } } },
        },
      },
    };
    expect(slmFinding(health, undefined).evidence).toContain('policy nightly: 6 invocations since its last success');
  });

  it('nothing readable: every snapshot rule says why', () => {
    const fs1 = snapshotFindings({
      view: { repositories: [], snapshots: [], failures: {}, unreadable: 'not allowed' },
      indices: [],
      now: NOW,
    });
    expect(fs1.map((f) => [f.id, f.severity])).toEqual([
      ['snapshots.missing', 'unknown'],
      ['snapshots.failing', 'unknown'],
      ['snapshots.repository', 'unknown'],
      ['snapshots.slm', 'unknown'],
    ]);
  });
});
