// The doctor's inputs: the node's own facts through the facade (EsApi), and what this host shows of
// each node that runs here (jvm.options and jvm.options.d, ES_JAVA_OPTS of the running process, the
// temp folder's mount and owner, the log). A node whose process is not on this host gets "not on
// this host" and no guess. Reads only.
import os from 'node:os';
import path from 'node:path';
import type { EsApi } from '../cluster/api';
import { NotRegularFileError, readCapped } from '../boundary/files';
import { folderFacts, folderNames, procText } from '../boundary/host-reads';
import { groupName } from '../boundary/users';
import { hostFacts } from '../boundary/host-facts';
import { parseHostKernel } from '../domain/doctor/host';
import type { ConsoleStore } from '../store/console';
import { MAX_EXPLAINS, unassignedCases, type ExplainedCase } from '../domain/doctor/shards';
import { buildDoctorReport, DOCTOR_SCHEMA, type DoctorLog, type DoctorReport, type HostNodeView } from '../domain/doctor/report';
import { noMasterFinding } from '../domain/doctor/master';
import { worstSeverity, type Severity } from '../domain/doctor/finding';
import type { DiskSample } from '../domain/doctor/forecast';
import type { NodeSample } from '../domain/nodes/node-history';
import type { NodeWatch } from '../domain/nodes/node-watch';
import type { DoctorSample } from '../domain/doctor/sample';
import { backlogSuspected, DEFAULT_TASK_THRESHOLDS, type TaskThresholds } from '../domain/doctor/tasks';
import { HOT_THREADS_DEFAULTS, type HotNode } from '../domain/nodes/hot-threads';
import type { BalanceView } from '../domain/doctor/load';
import { parseLog } from '../domain/doctor/logs';
import { nodeLogFile, type DoctorNode } from '../domain/doctor/node';
import type { OptionsFile } from '../domain/doctor/heap';
import { mountOf, parseMountInfo, type TmpView } from '../domain/doctor/tmp';
import { elasticsearchRunsAs, envOfPid, runsOnThisHost, userName } from './corruption';
import { ConnError } from '../cluster/connection';
import { deprecationLogFile, deprecationsReport, parseDeprecationLog, type DeprecationsReport } from '../domain/inspect/deprecations';
import { parseTemplates } from '../domain/templates';

/** The log is read from its end, at most this much (a log of years is not read whole). */
export const LOG_TAIL_BYTES = 32 * 1024 * 1024;

/** The real uid and gid of a process (/proc/<pid>/status), or null. */
function idsOfPid(pid: number): { uid: number; gid: number } | null {
  const st = procText(pid, 'status');
  if (st === null) return null;
  const uid = /^Uid:\s+(\d+)/m.exec(st)?.[1];
  const gid = /^Gid:\s+(\d+)/m.exec(st)?.[1];
  return uid && gid ? { uid: Number(uid), gid: Number(gid) } : null;
}

/** A jvm.options file is a few KB: more is not one. */
const MAX_OPTIONS_BYTES = 1024 * 1024;

/** Lines of an options file; null when it is not there, not a regular file (a FIFO, /dev/zero) or unreadable: never blocks. */
function readLines(file: string): string[] | null {
  try {
    // The engine's user owns its options files: a link planted in their place is not followed.
    return readCapped(file, MAX_OPTIONS_BYTES, { noFollow: true }).text.split('\n');
  } catch {
    return null;
  }
}

/** jvm.options, then jvm.options.d/*.options in name order: the order Elasticsearch reads them. */
export function jvmOptionFiles(confDir: string): OptionsFile[] {
  const out: OptionsFile[] = [];
  const main = path.join(confDir, 'jvm.options');
  const lines = readLines(main);
  if (lines) out.push({ path: main, lines });
  const dir = path.join(confDir, 'jvm.options.d');
  const names = (folderNames(dir) ?? []).filter((n) => n.endsWith('.options')).sort();
  for (const n of names) {
    const l = readLines(path.join(dir, n));
    if (l) out.push({ path: path.join(dir, n), lines: l });
  }
  return out;
}

function tmpView(pid: number, dir: string): TmpView | null {
  const ids = idsOfPid(pid);
  if (!ids) return null;
  // The node's own mount namespace.
  const mountinfo = procText(pid, 'mountinfo');
  if (mountinfo === null) return null;
  const mounts = parseMountInfo(mountinfo);
  const f = folderFacts(dir);
  const real = f?.real ?? dir;
  const exists = f?.isDirectory ?? false;
  const owner: TmpView['owner'] = f ? { uid: f.uid, gid: f.gid, user: userName(f.uid), group: groupName(f.gid), mode: f.mode } : null;
  return {
    path: dir,
    ...(real !== dir ? { realPath: real } : {}),
    exists,
    mount: mountOf(mounts, real),
    owner,
    engine: { ...ids, user: userName(ids.uid), group: groupName(ids.gid) },
  };
}

/** What this host shows of one node. */
export function hostNodeView(n: DoctorNode): HostNodeView {
  if (n.pid === undefined) return { here: false, reason: `node ${n.name} did not report its process id` };
  if (!runsOnThisHost({ id: n.id, pid: n.pid, dataPaths: n.dataPaths }))
    return {
      here: false,
      reason: elasticsearchRunsAs(n.pid)
        ? `process ${n.pid} here is an Elasticsearch, but its open files do not show node ${n.name}'s data lock (run shardeck as root to read them)`
        : `node ${n.name}${n.host ? ` (host ${n.host})` : ''} does not run on this host (no Elasticsearch process ${n.pid} here)`,
    };
  const confDir = envOfPid(n.pid, 'ES_PATH_CONF') || (n.home ? path.join(n.home, 'config') : null);
  return {
    here: true,
    jvmFiles: confDir ? jvmOptionFiles(confDir) : [],
    esJavaOpts: envOfPid(n.pid, 'ES_JAVA_OPTS'),
    tmp: n.tmpDir ? tmpView(n.pid, n.tmpDir) : null,
  };
}

/** The end of a log file as entries, or why it cannot be read. */
export function readLog(file: string): DoctorLog {
  try {
    // Non-blocking, a regular file only, its last LOG_TAIL_BYTES: a FIFO or /dev/zero named as the log never hangs the doctor.
    const r = readCapped(file, LOG_TAIL_BYTES, { tail: true });
    // Started mid-line: drop the partial first line.
    const text = r.truncated ? r.text.slice(r.text.indexOf('\n') + 1) : r.text;
    return {
      file,
      entries: parseLog(text),
      ...(r.truncated ? { readFrom: `its last ${Math.round(LOG_TAIL_BYTES / 1024 / 1024)} MB` } : {}),
    };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (e instanceof NotRegularFileError) return { file, notHere: `${file} is ${e.what}, not a log file: not read` };
    return {
      file,
      notHere:
        code === 'ENOENT'
          ? `${file} is not on this host`
          : code === 'EACCES'
            ? `${file} cannot be read (run as root or the engine's user)`
            : `${file}: ${(e as Error).message}`,
    };
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Whether the platform's cluster node shares this machine: the profile says so, or its platform URL points here. */
export function platformOnHost(
  profile: { platformOnHost?: boolean; platformUrl?: string } | undefined,
  flag?: boolean,
): { value: boolean | null; source: string } {
  if (flag !== undefined) return { value: flag, source: '--platform-on-host' };
  if (profile?.platformOnHost !== undefined) return { value: profile.platformOnHost, source: 'profile platformOnHost' };
  if (profile?.platformUrl) {
    try {
      const host = new URL(profile.platformUrl).hostname.toLowerCase();
      const here = LOOPBACK.has(host) || host === os.hostname().toLowerCase();
      return { value: here, source: `detected from the platform URL's host ${host}` };
    } catch {
      /* a bad URL says nothing */
    }
  }
  return { value: null, source: 'unknown: no platform URL in the profile (--platform-on-host yes|no)' };
}

/** The deprecation log is read from its end, at most this much. */
export const DEPRECATION_LOG_TAIL_BYTES = 16 * 1024 * 1024;

/** The node's own deprecation log (of the node running on this host), or why it is not read. */
function readDeprecationLog(nodes: DoctorNode[], hosts: Record<string, HostNodeView>) {
  const local = nodes.find((n) => hosts[n.name]?.here);
  if (!local) return { file: null, why: 'no node of this cluster runs on this host: its deprecation log is not read' };
  const file = deprecationLogFile(local);
  if (!file) return { file: null, why: `node ${local.name} did not report path.logs and cluster.name` };
  try {
    const r = readCapped(file, DEPRECATION_LOG_TAIL_BYTES, { tail: true });
    return { file, issues: parseDeprecationLog(r.truncated ? r.text.slice(r.text.indexOf('\n') + 1) : r.text) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { file, issues: [] }; // nothing deprecated was ever used: the node writes it on the first
    return { file, why: e instanceof NotRegularFileError ? `${file} is ${e.what}: not read` : `${file}: ${(e as Error).message}` };
  }
}

/**
 * Upgrade readiness: the issues of _migration/deprecations (a 403 or a node without the module is
 * said, not fatal) and of the deprecation log of the node on this host.
 */
export async function readDeprecations(
  es: EsApi,
  known?: { nodes: DoctorNode[]; hosts: Record<string, HostNodeView> },
): Promise<DeprecationsReport> {
  const nodes = known?.nodes ?? (await es.doctorNodes());
  const hosts = known?.hosts ?? Object.fromEntries(nodes.map((n) => [n.name, hostNodeView(n)]));
  let api: Awaited<ReturnType<EsApi['deprecations']>>;
  try {
    api = await es.deprecations();
  } catch (e) {
    // A 403 names the privilege (manage); either way the log is still worth reading.
    if (!(e instanceof ConnError)) throw e;
    api = { why: e.message };
  }
  return deprecationsReport(api, readDeprecationLog(nodes, hosts));
}

export interface DoctorOptions {
  /** --log FILE: read this log instead of the node's own. */
  logFile?: string;
  scheme: 'http' | 'https';
  platformOnHost: { value: boolean | null; source: string };
  diskSamples?: Record<string, DiskSample[]>;
  /** The console's samples per node (the Nodes pane's history). */
  nodeHistory?: Record<string, NodeSample[]>;
  /** The console's record of the nodes and masters it saw. */
  nodeWatch?: NodeWatch;
  /** How recent each index's last successful snapshot must be (--snapshot-every, the profile); unset: not judged. */
  snapshotPeriod?: { ms: number; source: string };
  /** When a search or another task is long (default: a minute, ten minutes). */
  taskThresholds?: TaskThresholds;
  /** The least time between the doctor's two reads of the node counters, master and tasks (default SAMPLE_GAP_MS). */
  sampleGapMs?: number;
  now?: number;
}

/** The doctor's two reads are at least this far apart ("a few seconds": rates of GC, searches, indexing failures, elections). */
export const SAMPLE_GAP_MS = 3000;

/** The second read, taken once at least `gapMs` has passed since the first. */
async function secondSample(es: EsApi, first: DoctorSample, gapMs: number): Promise<DoctorSample> {
  const wait = first.t + gapMs - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  return es.doctorSample();
}

/** Reads everything the checks need (bounded: one allocation explain per distinct case) and builds the report. */
export async function runDoctor(es: EsApi, o: DoctorOptions): Promise<DoctorReport> {
  const first = await es.doctorSample();
  const [health, allocation, settings, blocks, indices, figures, nodes, queueSizes, pending, fieldCounts, templates, shards] =
    await Promise.all([
      es.data('health'),
      es.data('allocation'),
      es.data('settings'),
      es.data('blocks'),
      es.data('indices'),
      es.data('nodeStats'),
      es.doctorNodes(),
      es.threadPoolQueueSizes(),
      es.data('pendingTasks'),
      es.fieldCounts(),
      // What a new project index gets (shard capacity); a user without the privilege still gets the rest.
      Promise.all([es.data('indexTemplates'), es.data('componentTemplates')])
        .then(([ix, comp]) => parseTemplates(ix, comp))
        .catch(() => undefined),
      es.data('shards'),
    ]);
  const explained: ExplainedCase[] = [];
  let unexplained = 0;
  if (health.status !== 'green' || health.unassignedShards > 0) {
    const { cases, unexplained: rest } = unassignedCases(shards, MAX_EXPLAINS);
    unexplained = rest;
    // One after the other: a red cluster's master is busy enough.
    for (const c of cases) {
      const s = c.shards[0];
      try {
        explained.push({ ...c, explain: await es.allocationExplain({ index: s.index, shard: s.shard, primary: s.primary }) });
      } catch (e) {
        explained.push({ ...c, explain: null, error: (e as Error).message });
      }
    }
  }
  const certificates = o.scheme === 'https' ? await es.sslCertificates() : null;
  const access = await es.missingPrivileges();
  const hosts = Object.fromEntries(nodes.map((n) => [n.name, hostNodeView(n)]));
  const local = nodes.find((n) => hosts[n.name].here);
  let log: DoctorLog;
  if (o.logFile) log = readLog(o.logFile);
  else if (local) {
    const file = nodeLogFile(local);
    log = file ? readLog(file) : { file: null, notHere: `node ${local.name} did not report path.logs and cluster.name` };
  } else log = { file: null, notHere: 'no node of this cluster runs on this host (give the log with --log FILE)' };
  const deprecations = await readDeprecations(es, { nodes, hosts });
  // What only some nodes have (ILM, SLM) or some users may read is said by the reads themselves, never thrown.
  const [healthReport, ilm, slm, snapshots, license, dangling, balance] = await Promise.all([
    es.healthReportView(),
    es.ilm(),
    es.slm(),
    es.doctorSnapshots(),
    es.license(),
    es.dangling(),
    // 8.6+, and the manage privilege: otherwise why not.
    es.data('desiredBalance').then(
      (summary): BalanceView => ({ summary }),
      (e: Error): BalanceView => ({ why: e.message }),
    ),
  ]);
  const second = await secondSample(es, first, o.sampleGapMs ?? SAMPLE_GAP_MS);
  // Work queuing in several places: what the nodes are busy with (the node samples for half a second).
  let hotThreads: HotNode[] | undefined;
  let hotThreadsError: string | undefined;
  if (backlogSuspected({ pending, first, second, pressure: figures.pressure }))
    await es.hotThreads(null, HOT_THREADS_DEFAULTS).then(
      (h) => (hotThreads = h),
      (e: Error) => (hotThreadsError = e.message),
    );
  return buildDoctorReport({
    health,
    nodes,
    allocation,
    settings,
    blocks,
    indices,
    search: figures.search,
    explained,
    unexplained,
    scheme: o.scheme,
    certificates,
    hosts,
    platformOnHost: o.platformOnHost,
    log,
    diskSamples: o.diskSamples,
    pressure: { pressure: figures.pressure, stats: figures.stats, queueSizes, history: o.nodeHistory },
    pending,
    fieldCounts,
    access,
    deprecations,
    templates,
    healthReport,
    samples: { first, second },
    nodeWatch: o.nodeWatch,
    shards,
    ilm,
    slm,
    snapshots,
    snapshotPeriod: o.snapshotPeriod,
    taskThresholds: o.taskThresholds ?? DEFAULT_TASK_THRESHOLDS,
    balance,
    license,
    dangling,
    // This host's kernel: judged for the nodes that run here only.
    hostKernel: parseHostKernel(hostFacts()),
    hotThreads,
    hotThreadsError,
    now: o.now ?? Date.now(),
  });
}

/**
 * When the cluster's health could not be read: a report of its one finding if the node asked knows
 * no elected master (the 15 s the health read waited were the master's, not the network's), else
 * null (unreachable as it was).
 */
export async function masterlessReport(es: EsApi, where: string): Promise<DoctorReport | null> {
  const local = await es.localMaster();
  if (!local || local.master !== null) return null;
  const findings = [noMasterFinding(where, await es.masterIndicator())];
  const counts: Record<Severity, number> = { critical: 0, warn: 0, unknown: 0, ok: 0 };
  for (const f of findings) counts[f.severity]++;
  return {
    schema: DOCTOR_SCHEMA,
    reachable: true,
    cluster: { name: local.clusterName, status: 'red', nodes: 0, dataNodes: 0 },
    worst: worstSeverity(findings),
    counts,
    findings,
  };
}

/**
 * The console's doctor run: the report into the store (one run at a time), with the disk samples
 * the poller kept. Failures are shown on the pane; the previous report stays.
 */
export async function runDoctorInto(
  store: ConsoleStore,
  es: EsApi,
  o: Omit<DoctorOptions, 'diskSamples' | 'nodeHistory' | 'nodeWatch'>,
): Promise<void> {
  const cur = store.getState().doctor;
  if (cur?.inFlight) return;
  store.setState({ doctor: { ...cur, inFlight: true, error: undefined } });
  try {
    const st = store.getState();
    const report = await runDoctor(es, { ...o, diskSamples: st.diskSamples, nodeHistory: st.nodeHistory, nodeWatch: st.nodeWatch });
    store.setState({ doctor: { report, fetchedAt: Date.now(), inFlight: false } });
  } catch (e) {
    store.setState({ doctor: { ...store.getState().doctor, inFlight: false, error: (e as Error).message } });
  }
}
