// The doctor's own reads (issue 41): the two samples it compares (node counters, the elected master
// and term, the running tasks), ILM and SLM where the node has them, the licence, dangling indices,
// and every repository's snapshots with the repositories whose listing failed. A node without an
// API (the test distribution has no ILM, no SLM) answers 400/404/405: that is said as why, never
// thrown; a 403 names the privilege. Parsers in domain/doctor/.
import { doctorSample, SAMPLE_STATE_FILTER, SAMPLE_STATS_FILTER, type DoctorSample } from '../domain/doctor/sample';
import { ILM_EXPLAIN_FILTER, parseIlm, type IlmView } from '../domain/doctor/ilm';
import { type SlmView, type SnapshotsView } from '../domain/doctor/snapshots';
import { parseDangling, parseLicense, type DanglingView, type LicenseView } from '../domain/doctor/config';
import { parseRepositories, parseSlmPolicies, parseSnapshots, slmMissing, type SnapshotInfo } from '../domain/snapshots';
import { ConnError, getJson, read, type EsTransport } from './connection';
import { parseIndicatorDetail, type IndicatorDetail } from '../domain/doctor/health-report';
import { healthReportIndicatorRequest, TASKS_FILTER } from './resources';

/** Why an optional API gave nothing: not on this node (400/404/405/410), not allowed (403), or the error itself. */
function whyNot(e: unknown, api: string, privilege: string): string {
  if (e instanceof ConnError && slmMissing(e.status))
    return `not on this node (GET ${api} answered ${e.status}: its distribution has no such module)`;
  if (e instanceof ConnError && e.status === 403) return `not allowed to read GET ${api} (needs ${privilege})`;
  return `GET ${api} failed: ${(e as Error).message}`;
}

const SNAPSHOT_FILTER = [
  'snapshot',
  'repository',
  'uuid',
  'state',
  'indices',
  'shards',
  'start_time_in_millis',
  'end_time_in_millis',
  'failures',
]
  .map((f) => `snapshots.${f}`)
  .join(',');

export function doctorApi(es: EsTransport) {
  const readSnapshots = async (): Promise<SnapshotsView> => {
    const repositories = parseRepositories(await getJson(es, '/_snapshot', { filter_path: '*.type,*.settings' }));
    // One repository at a time: one that cannot be read fails GET _snapshot/_all/_all whole (a 500 repository_exception).
    const snapshots: SnapshotInfo[] = [];
    const failures: Record<string, string> = {};
    for (const r of repositories) {
      try {
        snapshots.push(
          ...parseSnapshots(
            await getJson(es, `/_snapshot/${encodeURIComponent(r.name)}/_all`, { verbose: 'true', filter_path: SNAPSHOT_FILTER }),
            r.name,
          ),
        );
      } catch (e) {
        failures[r.name] = e instanceof ConnError && e.esType ? `${e.esType}: ${e.esReason ?? e.message}` : (e as Error).message;
      }
    }
    return { repositories, snapshots: snapshots.sort((x, y) => (y.startMs ?? 0) - (x.startMs ?? 0)), failures };
  };
  return {
    /**
     * What the node asked knows of the elected master by itself (the cluster state's master_node,
     * local=true: answered without a master), with the cluster's name; null when it cannot say.
     */
    async localMaster(): Promise<{ master: string | null; clusterName: string } | null> {
      try {
        const b = await getJson(es, '/_cluster/state/master_node', { local: 'true', filter_path: 'cluster_name,master_node' });
        return { master: typeof b?.master_node === 'string' ? b.master_node : null, clusterName: String(b?.cluster_name ?? '?') };
      } catch {
        return null;
      }
    },
    /** The verbose master_is_stable indicator (8.7+; answered without a master), or undefined. */
    async masterIndicator(): Promise<IndicatorDetail | undefined> {
      try {
        return parseIndicatorDetail((await read(es, healthReportIndicatorRequest('master_is_stable'))).body as never, 'master_is_stable');
      } catch {
        return undefined;
      }
    },
    /** One sample: node counters, master and term, tasks (read together, at `t`). */
    async doctorSample(): Promise<DoctorSample> {
      const t = Date.now();
      const [stats, state, tasks] = await Promise.all([
        getJson(es, '/_nodes/stats/jvm,os,process,thread_pool,indices/search,indexing', { filter_path: SAMPLE_STATS_FILTER }),
        getJson(es, '/_cluster/state/master_node,metadata', { filter_path: SAMPLE_STATE_FILTER }),
        getJson(es, '/_tasks', { detailed: 'true', group_by: 'none', filter_path: TASKS_FILTER }),
      ]);
      return doctorSample(t, stats, state, tasks);
    },
    /** ILM's mode and every managed index's step, or why not. */
    async ilm(): Promise<IlmView> {
      try {
        const status = await getJson(es, '/_ilm/status');
        const explain = await getJson(es, '/_all/_ilm/explain', {
          only_managed: 'true',
          expand_wildcards: 'all',
          filter_path: ILM_EXPLAIN_FILTER,
        });
        return parseIlm(status, explain);
      } catch (e) {
        return { available: false, why: whyNot(e, '_ilm/status', 'the read_ilm or manage_ilm privilege') };
      }
    },
    /** SLM's mode and policies, or why not. */
    async slm(): Promise<SlmView> {
      try {
        const status = await getJson(es, '/_slm/status');
        const policies = parseSlmPolicies(await getJson(es, '/_slm/policy'));
        return {
          available: true,
          mode: String(status?.operation_mode ?? 'UNKNOWN'),
          policies: policies.available ? policies.policies : [],
        };
      } catch (e) {
        return { available: false, why: whyNot(e, '_slm/status', 'the read_slm or manage_slm privilege') };
      }
    },
    /** The licence, or why not (a distribution without x-pack's licence service). */
    async license(): Promise<LicenseView> {
      try {
        return parseLicense(await getJson(es, '/_license'));
      } catch (e) {
        return { available: false, why: whyNot(e, '_license', 'the monitor privilege') };
      }
    },
    /** Dangling indices (on disk, unknown to the cluster), or why not. */
    async dangling(): Promise<DanglingView> {
      try {
        return parseDangling(await getJson(es, '/_dangling'));
      } catch (e) {
        return { available: false, why: whyNot(e, '_dangling', 'the manage privilege') };
      }
    },
    /** Every repository and its snapshots (newest first), with the repositories whose listing failed. */
    async doctorSnapshots(): Promise<SnapshotsView> {
      try {
        return await readSnapshots();
      } catch (e) {
        return { repositories: [], snapshots: [], failures: {}, unreadable: whyNot(e, '_snapshot', 'the monitor_snapshot privilege') };
      }
    },
  };
}
