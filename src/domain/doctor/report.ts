// The doctor's report: every check family run on what the node and this host said, findings worst
// first, and the exit code of a monitoring check. Pure: services/doctor.ts gathers the inputs.
import { accessFindings, type AccessFacts } from './access';
import type { ClusterHealth, ClusterSettingsView, IndexBlocks, IndexRow, NodeDisk, NodeSearchStats, ShardRow } from '../types';
import { diskFindings, forecastFindings } from './disk';
import { doctorExitCode, sortFindings, worstSeverity, type Finding, type Severity } from './finding';
import { diskSamplesFromLog, forecastDisk, type DiskForecast, type DiskSample } from './forecast';
import { heapFindings, type OptionsFile } from './heap';
import { logFindings, type LogEntry } from './logs';
import { javaMajor, type DoctorNode } from './node';
import { scrollFindings } from './scroll';
import { pressureFindings, type PressureInputs } from './pressure';
import { pendingFindings } from './pending';
import { hotSpotFindings } from './hotspots';
import { hotSpots } from '../nodes/hot-spots';
import { fieldLimitFindings } from './fields';
import type { FieldCount } from '../inspect/field-limits';
import type { PendingTask } from '../inspect/pending-tasks';
import { shardFindings, type ExplainedCase } from './shards';
import { tmpFindings, type TmpView } from './tmp';
import { versionFindings, type Certificate } from './versions';
import { upgradeFindings } from './upgrade';
import type { DeprecationsReport } from '../inspect/deprecations';
import { ES_DEFAULT_REPLICAS, ES_DEFAULT_SHARDS, projectTemplate, type TemplatesView } from '../templates';
import { blockFindings } from './blocks';
import { capacityFindings, shardCapacity, type CapacityInputs } from './capacity';
import { shardSizeFindings } from './shard-sizes';
import { loadFindings, type BalanceView } from './load';
import { hostFindings, type HostKernel } from './host';
import { configFindings, type DanglingView, type LicenseView } from './config';
import { dataStreamLifecycleFindings, fileSettingsFindings, healthReportFindings, type HealthReportView } from './health-report';
import { masterFindings } from './master';
import { ilmFindings, type IlmView } from './ilm';
import { snapshotFindings, type SlmView, type SnapshotsView } from './snapshots';
import type { DoctorSample } from './sample';
import type { NodeWatch } from '../nodes/node-watch';
import { oldGenPercent } from '../nodes/node-pressure';
import { taskFindings, type TaskThresholds } from './tasks';
import type { HotNode } from '../nodes/hot-threads';

export const DOCTOR_SCHEMA = 1;

/** What this host shows of one node: its options files and temp folder, or why it is not here. */
export type HostNodeView =
  { here: true; jvmFiles: OptionsFile[]; esJavaOpts?: string; tmp: TmpView | null } | { here: false; reason: string };

export type DoctorLog = { file: string; entries: LogEntry[]; readFrom?: string } | { file: string | null; notHere: string };

export interface DoctorInputs {
  health: ClusterHealth;
  nodes: DoctorNode[];
  allocation: NodeDisk[];
  settings: ClusterSettingsView;
  blocks: IndexBlocks[];
  indices: IndexRow[];
  search: NodeSearchStats[];
  explained: ExplainedCase[];
  unexplained: number;
  scheme: 'http' | 'https';
  certificates: Certificate[] | null;
  hosts: Record<string, HostNodeView>;
  platformOnHost: { value: boolean | null; source: string };
  log: DoctorLog;
  /** Disk samples the console took while it ran, per node. */
  diskSamples?: Record<string, DiskSample[]>;
  /** Node pressure (thread pools, breakers, old-gen, CPU) and the console's samples; undefined: not read. */
  pressure?: PressureInputs;
  /** The master's queue of cluster-state updates (_cluster/pending_tasks); undefined: not read. */
  pending?: PendingTask[];
  /** Every index's mapped field count against its limit; undefined: not read. */
  fieldCounts?: FieldCount[];
  /** The privileges the user lacks (null: the node checks none); undefined: not asked. */
  access?: AccessFacts | null;
  /** Upgrade readiness (_migration/deprecations and the deprecation log); undefined: not asked. */
  deprecations?: DeprecationsReport;
  /** The index and component templates (what a new project index gets); undefined: not read. */
  templates?: TemplatesView;
  /** The health report (8.7+) with the verbose answer of each indicator not green, or why there is none; undefined: not read. */
  healthReport?: HealthReportView;
  /** The two reads a few seconds apart (node counters, master and term, tasks); undefined: not taken. */
  samples?: { first?: DoctorSample; second?: DoctorSample };
  /** The console's record of nodes and masters (undefined from the command line). */
  nodeWatch?: NodeWatch;
  /** Every shard copy (_cat/shards); undefined: not read. */
  shards?: ShardRow[];
  /** ILM and SLM where the node has them, or why not; undefined: not read. */
  ilm?: IlmView;
  slm?: SlmView;
  /** Every repository's snapshots and the listings that failed; undefined: not read. */
  snapshots?: SnapshotsView;
  /** How recent an index's last successful snapshot must be (--snapshot-every, the profile); undefined: not judged. */
  snapshotPeriod?: { ms: number; source: string };
  /** When a search or another task is long (--long-search, --long-task, the profile, the defaults). */
  taskThresholds?: TaskThresholds;
  /** The licence and dangling indices, or why not; undefined: not read. */
  license?: LicenseView;
  dangling?: DanglingView;
  /** This host's swap, swappiness and max_map_count (null: not readable); undefined: not read. */
  hostKernel?: HostKernel | null;
  /** The desired balance's stats (8.6+), or why not; undefined: not read. */
  balance?: BalanceView;
  /** The busiest threads of every node, read only when work was queuing; or why they could not be read. */
  hotThreads?: HotNode[];
  hotThreadsError?: string;
  now: number;
}

export interface DoctorReport {
  schema: typeof DOCTOR_SCHEMA;
  reachable: true;
  cluster: { name: string; status: string; nodes: number; dataNodes: number };
  worst: Severity;
  counts: Record<Severity, number>;
  findings: Finding[];
}

export interface DoctorUnreachable {
  schema: typeof DOCTOR_SCHEMA;
  reachable: false;
  error: { kind: string; message: string };
  /** When the user may not read the cluster's health (403): the privileges of the two roles it lacks. */
  access?: AccessFacts;
}

export function forecasts(
  i: Pick<DoctorInputs, 'allocation' | 'settings' | 'log' | 'diskSamples' | 'now'>,
): Record<string, DiskForecast | null> {
  const fromLog = 'entries' in i.log ? diskSamplesFromLog(i.log.entries) : {};
  return Object.fromEntries(
    i.allocation.map((d) => {
      const seen = forecastDisk(d.node, i.diskSamples?.[d.node] ?? [], i.settings.watermarks, i.now, 'console');
      return [d.node, seen ?? forecastDisk(d.node, fromLog[d.node] ?? [], i.settings.watermarks, i.now, 'log')];
    }),
  );
}

export function buildDoctorReport(i: DoctorInputs): DoctorReport {
  const findings: Finding[] = [];
  for (const n of i.nodes) {
    const host = i.hosts[n.name] ?? { here: false, reason: 'not looked at' };
    findings.push(
      ...heapFindings({
        heap: {
          node: n.name,
          heapInitBytes: n.heapInitBytes,
          heapMaxBytes: n.heapMaxBytes,
          compressedOops: n.compressedOops,
          ramBytes: n.ramBytes,
        },
        options: host.here
          ? { files: host.jvmFiles, esJavaOpts: host.esJavaOpts, javaMajor: javaMajor(n.javaVersion) }
          : { notHere: host.reason },
        platformOnHost: i.platformOnHost,
      }),
      ...tmpFindings({
        node: n.name,
        tmpDir: n.tmpDir,
        view: host.here && host.tmp ? host.tmp : { notHere: host.here ? 'the node does not name its temp folder' : host.reason },
      }),
    );
  }
  if (i.hostKernel !== undefined)
    findings.push(
      ...hostFindings(
        i.nodes.map((n) => {
          const host = i.hosts[n.name];
          const counters = i.samples?.second?.nodes.find((x) => x.id === n.id);
          return {
            name: n.name,
            here: host?.here === true,
            ...(host && !host.here ? { notHere: host.reason } : {}),
            ...(n.memoryLock !== undefined ? { memoryLock: n.memoryLock } : {}),
            ...(n.mlockall !== undefined ? { mlockall: n.mlockall } : {}),
            maxFileDescriptors: counters?.maxFileDescriptors ?? null,
            openFileDescriptors: counters?.openFileDescriptors ?? null,
          };
        }),
        i.hostKernel,
      ),
    );
  findings.push(...diskFindings(i.allocation, i.settings.watermarks, i.blocks));
  findings.push(...blockFindings(i.settings, i.blocks));
  if (i.shards)
    findings.push(
      ...configFindings({
        settings: i.settings,
        disks: i.allocation,
        shards: i.shards,
        nodes: i.nodes,
        license: i.license,
        dangling: i.dangling,
        now: i.now,
      }),
    );
  findings.push(...capacityFindings(capacityInputs(i)));
  if (i.shards) findings.push(...shardSizeFindings(i.shards, i.indices, shardCapacity(capacityInputs(i))));
  findings.push(
    ...forecastFindings(
      i.allocation.map((d) => d.node),
      forecasts(i),
    ),
  );
  findings.push(...shardFindings({ health: i.health, indices: i.indices, explained: i.explained, unexplained: i.unexplained }));
  findings.push(...scrollFindings(i.search, i.settings.maxOpenScrollContext));
  if (i.pressure) findings.push(...pressureFindings(i.pressure));
  if (i.pressure)
    findings.push(
      ...loadFindings({
        pressure: i.pressure.pressure,
        queueSizes: i.pressure.queueSizes,
        first: i.samples?.first,
        second: i.samples?.second,
        history: i.pressure.history,
        balance: i.balance,
      }),
    );
  if (i.pending) findings.push(...pendingFindings(i.pending));
  findings.push(...hotSpotFindings(hotSpots(i.allocation, i.pressure?.pressure)));
  if (i.fieldCounts) findings.push(...fieldLimitFindings(i.fieldCounts));
  findings.push(
    ...versionFindings(
      i.nodes.map((n) => ({ name: n.name, version: n.version, httpTls: n.httpTls })),
      i.scheme,
      i.certificates,
      i.now,
    ),
  );
  if (i.access !== undefined) findings.push(...accessFindings(i.access));
  findings.push(...logFindings(i.log, i.now));
  if (i.deprecations) findings.push(...upgradeFindings(i.deprecations));
  findings.push(...healthFindings(i));
  if (i.samples?.second && i.taskThresholds)
    findings.push(
      ...taskFindings({
        thresholds: i.taskThresholds,
        pending: i.pending ?? [],
        first: i.samples.first,
        second: i.samples.second,
        pressure: i.pressure?.pressure,
        hotThreads: i.hotThreads,
        hotThreadsError: i.hotThreadsError,
      }),
    );
  const sorted = sortFindings(findings);
  const counts: Record<Severity, number> = { critical: 0, warn: 0, unknown: 0, ok: 0 };
  for (const f of sorted) counts[f.severity]++;
  return {
    schema: DOCTOR_SCHEMA,
    reachable: true,
    cluster: { name: i.health.clusterName, status: i.health.status, nodes: i.health.numberOfNodes, dataNodes: i.health.numberOfDataNodes },
    worst: worstSeverity(sorted),
    counts,
    findings: sorted,
  };
}

/** The health report's indicators, the master and the nodes by role, ILM, SLM and snapshots (issue 41). */
function healthFindings(i: DoctorInputs): Finding[] {
  const out: Finding[] = [];
  const { first, second } = i.samples ?? {};
  if (i.healthReport) out.push(...healthReportFindings(i.healthReport), ...dataStreamLifecycleFindings(i.healthReport));
  if (i.healthReport || second) out.push(...fileSettingsFindings(i.healthReport, second));
  if (second)
    out.push(
      ...masterFindings({
        health: i.healthReport,
        first,
        second,
        watch: i.nodeWatch,
        history: i.pressure?.history,
        oldGen: Object.fromEntries((i.pressure?.pressure ?? []).map((p) => [p.name, oldGenPercent(p)])),
        shards: i.shards,
        now: i.now,
      }),
    );
  if (i.ilm || i.healthReport) out.push(...ilmFindings(i.healthReport, i.ilm, i.now));
  if (i.snapshots || i.slm)
    out.push(
      ...snapshotFindings({
        health: i.healthReport,
        view: i.snapshots,
        slm: i.slm,
        indices: i.indices,
        periodMs: i.snapshotPeriod?.ms,
        periodSource: i.snapshotPeriod?.source,
        now: i.now,
      }),
    );
  return out;
}

/** Shard capacity from the open indices (primaries x copies), the data nodes and the platform's template. */
export function capacityInputs(i: Pick<DoctorInputs, 'indices' | 'health' | 'settings' | 'templates'>): CapacityInputs {
  const t = i.templates ? projectTemplate(i.templates) : null;
  return {
    openShards: i.indices.filter((x) => x.status === 'open').reduce((n, x) => n + x.primaries * (1 + x.replicas), 0),
    dataNodes: i.health.numberOfDataNodes,
    maxShardsPerNode: i.settings.maxShardsPerNode,
    template: t
      ? { name: t.name, shards: t.shards, replicas: t.replicas }
      : { name: null, shards: ES_DEFAULT_SHARDS, replicas: ES_DEFAULT_REPLICAS },
    source: 'counted from the open indices',
  };
}

export function doctorReportExit(r: DoctorReport | DoctorUnreachable): number {
  return r.reachable ? doctorExitCode(r.findings) : 3;
}
