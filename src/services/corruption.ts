// Finding corrupt primaries on a red cluster: health -> unassigned primaries -> allocation explain
// per primary -> the node's paths and the index UUID -> the shard folder; plus the snapshots that
// hold the index. Reads only. shardeck usually runs on the storage node itself, so a few probes
// look at this host's files (does the folder exist, which java runs the node, is there an
// elasticsearch-shard); from another host they answer "not seen from here".
import path from 'node:path';
import type { EsApi } from '../cluster/api';
import { displayText } from '../domain/text/display-text';
import { defaultBackupDir } from './kept-copies';
import { processUidOf } from '../domain/host/host-paths';
import { defaultConfDir } from '../domain/host/host-env';
import { packageEsEnv } from '../boundary/host-files';
import { existsHere, folderNames, procExe, procOpenFiles, procText, readHead, readTail } from '../boundary/host-reads';
import { passwdName } from '../boundary/users';

/** A node's state file is small (a Lucene commit point, node-N.st): more is not one. */
const STATE_FILE_CAP = 1024 * 1024;
import { findCorruption, losslessOptions, type CorruptFinding, type SnapshotHolding } from '../domain/corruption/explain';
import {
  elsewhereRefusal,
  isElasticsearchCmdline,
  judgeLocality,
  newestSegmentsFile,
  parseStateNodeId,
  shardFolder,
  type HostView,
  type Locality,
  type NodeFacts,
} from '../domain/corruption/node';
import { archiveStamp, type PlanFacts } from '../domain/corruption/plan';
import type { PreviewConnection } from '../domain/mutation/preview';
import type { HealthStatus } from '../domain/types';

export interface CorruptShardReport extends CorruptFinding {
  indexUuid: string | null;
  /** The shard folder on the node holding the corrupt copy; null when its path.data is unknown. */
  folder: string | null;
  /** Whether that folder exists as seen from this host. */
  folderOnThisHost: boolean;
  /** The shard's doc count as _cat/shards last reports it; null (unknown) while it is unassigned. */
  docs: number | null;
  snapshots: SnapshotHolding[];
  /** What recovers it without loss, best first. */
  options: string[];
  nodeFacts: NodeFacts | null;
  /** The java binary of the running node (from /proc on this host), or null. */
  java: string | null;
  /** Whether <path.home>/bin/elasticsearch-shard exists on this host; null when not looked at. */
  hasShardTool: boolean | null;
  /** The user the engine's process runs as (the file steps run as it), when it runs on this host. */
  dataOwner: string | null;
  /** The node's config folder (its package configuration's ES_PATH_CONF, else the default), for elasticsearch-shard. */
  confDir: string | null;
  /** The node's log lines that name the index with a corruption, last ones, when the log is readable here. */
  logEvidence: string[];
  /** Whether the node holding the copy is the Elasticsearch of this host (the checklist runs only then), and why not. */
  local: Locality;
  /** The node that runs on this host, when one of the cluster's does. */
  localNode: string | null;
}

export interface CorruptionReport {
  status: HealthStatus;
  unassignedPrimaries: number;
  corrupt: CorruptShardReport[];
}

/** /proc/<pid> on this host is an Elasticsearch JVM (true), another process (false), or none / unreadable (null). */
function pidIsElasticsearch(pid: number): boolean | null {
  try {
    const cmdline = procText(pid, 'cmdline', 'latin1');
    return cmdline === null ? null : isElasticsearchCmdline(cmdline);
  } catch {
    return null;
  }
}

/** An Elasticsearch process with this pid runs on this host. */
export function elasticsearchRunsAs(pid: number): boolean {
  return pidIsElasticsearch(pid) === true;
}

/** The node of the cluster that runs on this host: its pid is an Elasticsearch JVM here holding its own data's lock. */
export function localNodeOf(nodes: NodeFacts[]): NodeFacts | undefined {
  return nodes.find((n) => {
    if (n.pid === undefined || !elasticsearchRunsAs(n.pid)) return false;
    const files = openFiles(n.pid);
    return n.dataPaths.some((p) => files?.has(path.join(p, 'node.lock')) && stateNodeId(p) === n.id);
  });
}

const openFiles = procOpenFiles;

/** The node id written under <dataPath>/_state on this host (newest Lucene commit, else node-N.st). */
export function stateNodeId(dataPath: string): string | null {
  const dir = path.join(dataPath, '_state');
  const names = folderNames(dir);
  if (!names) return null; // not on this host, or not readable
  const files = [newestSegmentsFile(names), ...names.filter((n) => /^node-\d+\.st$/.test(n))].filter((n): n is string => Boolean(n));
  for (const f of files) {
    // The engine's user owns these: a FIFO or a link planted there is refused, never waited on (issue 40 N3).
    const text = readHead(path.join(dir, f), STATE_FILE_CAP, 'latin1');
    const id = text === null ? null : parseStateNodeId(text);
    if (id) return id;
  }
  return null;
}

/** What this host shows of a node and the shard's folder under its data paths. */
function hostView(n: NodeFacts, uuid: string | null, shard: number): HostView {
  const files = n.pid === undefined ? null : openFiles(n.pid);
  return {
    pidIsElasticsearch: n.pid === undefined ? null : pidIsElasticsearch(n.pid),
    dataPaths: n.dataPaths.map((p) => ({
      path: p,
      nodeId: stateNodeId(p),
      shardFolderExists: uuid !== null && existsHere(shardFolder(p, uuid, shard)),
      lockedByPid: files === null ? null : files.has(path.join(p, 'node.lock')),
    })),
  };
}

/** The node runs on this host: its pid is an Elasticsearch JVM here holding its own data's lock. */
export function runsOnThisHost(n: { id: string; pid?: number; dataPaths: string[] }): boolean {
  if (n.pid === undefined || !elasticsearchRunsAs(n.pid)) return false;
  const files = openFiles(n.pid);
  return n.dataPaths.some((p) => files?.has(path.join(p, 'node.lock')) && stateNodeId(p) === n.id);
}

export { passwdName as userName, passwdUid as uidOfUser } from '../boundary/users';

/** The uid process `pid` runs as (/proc/<pid>/status, every uid agreeing), or null. */
export function processUid(pid: number): number | null {
  try {
    const status = procText(pid, 'status');
    return status === null ? null : processUidOf(status);
  } catch {
    return null;
  }
}

/** The user running process `pid`: the engine's user, read from the engine itself (never from a file's owner). */
export function processUser(pid: number): string | null {
  const uid = processUid(pid);
  return uid === null ? null : passwdName(uid);
}

/**
 * One variable of a process's environment (/proc/<pid>/environ: root or the same user), or
 * undefined. For what doctor shows only: the engine's user sets it, so nothing is run from it.
 */
export function envOfPid(pid: number, name: string): string | undefined {
  const e = procText(pid, 'environ')
    ?.split('\0')
    .find((x) => x.startsWith(`${name}=`));
  return e?.slice(name.length + 1);
}

export function javaOfPid(pid: number | undefined): string | null {
  return pid ? procExe(pid) : null;
}

/**
 * What <path.logs>/<cluster>.log (its last 4 MB) says of a corruption of the shard: each entry
 * that names [index][shard], with the CorruptIndexException line of its stack trace; the last `max`.
 */
export function corruptionLogLines(logFile: string, index: string, shard: number, max = 2): string[] {
  // The engine's user owns its log: a FIFO or a link in its place is never waited on or followed (issue 40 N3).
  const text = readTail(logFile, 4_000_000);
  if (text === null) return [];
  const cut = (l: string) => (l.length > 300 ? `${l.slice(0, 299)}…` : l);
  const lines = text.split('\n');
  const found: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('[') || !lines[i].includes(`[${index}][${shard}]`)) continue;
    // The entry's stack trace runs until the next line that starts a log entry.
    let cause: string | undefined;
    for (let j = i + 1; j < lines.length && !lines[j].startsWith('['); j++)
      if (/CorruptIndexException/.test(lines[j])) cause = lines[j].trim();
    if (cause || /CorruptIndexException|corrupt_index_exception/.test(lines[i]))
      found.push(cut(lines[i]), ...(cause ? [`  ${cut(cause)}`] : []));
  }
  return found.slice(-2 * max);
}

async function describe(
  es: EsApi,
  f: CorruptFinding,
  nodes: NodeFacts[],
  uuids: Map<string, string>,
  docs: number | null,
  clusterName: string,
): Promise<CorruptShardReport> {
  const facts = nodes.find((n) => n.id === f.node?.id) ?? (nodes.length === 1 ? nodes[0] : undefined) ?? null;
  const uuid = uuids.get(f.index) ?? null;
  const local = judgeLocality(facts, facts ? hostView(facts, uuid, f.shard) : null);
  // Which node runs here (its pid is an Elasticsearch JVM holding its own data's lock), to name it in a refusal.
  const localNode = localNodeOf(nodes)?.name ?? null;
  const candidates = facts && uuid ? facts.dataPaths.map((p) => shardFolder(p, uuid, f.shard)) : [];
  const onHost = candidates.find((c) => existsHere(c));
  const snapshots = await es.snapshotsHolding(f.index);
  return {
    ...f,
    indexUuid: uuid,
    folder: onHost ?? candidates[0] ?? null,
    folderOnThisHost: Boolean(onHost),
    docs,
    snapshots,
    options: losslessOptions(f, snapshots),
    nodeFacts: facts,
    java: onHost ? javaOfPid(facts?.pid) : null,
    hasShardTool: onHost && facts?.home ? existsHere(`${facts.home}/bin/elasticsearch-shard`) : null,
    // Who the engine runs as, from its process: a folder's owner (after links) could be anyone's, root's too.
    dataOwner: onHost && facts?.pid !== undefined && elasticsearchRunsAs(facts.pid) ? processUser(facts.pid) : null,
    // The package configuration first; the engine's own environment only because elasticsearch-shard
    // runs as the engine's user (never root: hostFactsRefusal), who gains nothing by setting it.
    confDir: onHost
      ? (packageEsEnv().ES_PATH_CONF ?? (facts?.pid ? envOfPid(facts.pid, 'ES_PATH_CONF') : undefined) ?? defaultConfDir(facts?.home))
      : null,
    logEvidence: facts?.logs ? corruptionLogLines(path.join(facts.logs, `${clusterName}.log`), f.index, f.shard) : [],
    local,
    localNode,
  };
}

/**
 * The corrupt primaries of the cluster, or of one shard when `only` is given (then it is looked
 * at even when health is not red, and reported only if corrupt).
 */
export async function detectCorruption(es: EsApi, only?: { index: string; shard: number }): Promise<CorruptionReport> {
  const [health, shards] = await Promise.all([es.data('health'), es.data('shards')]);
  const primaries = shards.filter(
    (s) => s.primary && s.state === 'UNASSIGNED' && (!only || (s.index === only.index && s.shard === only.shard)),
  );
  const status = health.status;
  const report: CorruptionReport = { status, unassignedPrimaries: primaries.length, corrupt: [] };
  if (primaries.length === 0 || (!only && status !== 'red')) return report;
  const findings: { finding: CorruptFinding; docs: number | null }[] = [];
  for (const p of primaries) {
    const body = await es.allocationExplain({ index: p.index, shard: p.shard, primary: true });
    const finding = body ? findCorruption(body) : null;
    if (finding) findings.push({ finding, docs: p.docs });
  }
  if (findings.length === 0) return report;
  const [nodes, uuids] = await Promise.all([es.nodeFacts(), es.indexUuids([...new Set(findings.map((f) => f.finding.index))])]);
  for (const { finding, docs } of findings) report.corrupt.push(await describe(es, finding, nodes, uuids, docs, health.clusterName));
  return report;
}

/** The facts of the plan from what detection found, the profile and the operator's overrides; a string says what is missing. */
export function planFacts(
  c: CorruptShardReport,
  profile: { serviceStop?: string; serviceStart?: string } | undefined,
  conn: PreviewConnection,
  overrides: Partial<PlanFacts> = {},
): PlanFacts | string {
  const home = c.nodeFacts?.home;
  if (!c.folder || !c.node)
    return `the node did not report where ${c.index} shard ${c.shard} lives (path.data, index UUID): run on the node holding it`;
  if (!home) return 'the node did not report its path.home (bin/, lib/): run on the node holding the shard';
  return {
    index: c.index,
    shard: c.shard,
    node: c.node,
    folder: c.folder,
    home,
    java: c.java ?? (c.nodeFacts?.bundledJdk ? `${home}/jdk/bin/java` : null),
    esUser: c.dataOwner ?? 'elasticsearch',
    confDir: c.confDir ?? '/etc/elasticsearch',
    serviceStop: profile?.serviceStop,
    serviceStart: profile?.serviceStart,
    // Never beside the data: the engine's user can write there and plant links at the archive's name.
    backupDir: defaultBackupDir(),
    stamp: archiveStamp(),
    conn,
    hasShardTool: c.hasShardTool,
    ...(c.local.ok && c.nodeFacts?.pid !== undefined ? { pid: c.nodeFacts.pid } : {}),
    ...overrides,
  };
}

/**
 * Why the checklist must not start on this host (one sentence), or null: it stops this host's
 * engine and rewrites a folder here, so the corrupt copy's node must be the one running here.
 */
export function startRefusal(c: CorruptShardReport): string | null {
  return c.local.ok ? null : elsewhereRefusal(c.index, c.shard, c.nodeFacts, c.local.reason, c.localNode ?? undefined);
}

/** What detection found about one shard, a fact per line (the first one names it). */
export function findingFactLines(c: CorruptShardReport): string[] {
  const t = displayText;
  return [
    `${t(c.index)} shard ${c.shard} primary${c.node ? ` on node ${t(c.node.name)}` : ''}: ${t(c.canAllocate)}${c.corrupt ? ' (corrupt)' : ''}`,
    `  reason: ${t(c.reason)}`,
    ...(c.file ? [`  file:   ${t(c.file)}`] : []),
    `  folder: ${c.folder ? t(c.folder) : 'unknown (the node did not report path.data or the index UUID)'}${c.folder ? (c.folderOnThisHost ? '' : ' (not seen from this host)') : ''}`,
    `  documents last seen: ${c.docs ?? 'unknown (an unassigned shard reports none; the read-only CheckIndex step counts them)'}`,
    c.local.ok
      ? '  this host: runs the node holding the copy (the checklist may run here)'
      : `  this host: NOT the node holding the copy: ${t(c.local.reason)}`,
    ...(c.logEvidence.length ? ["  the node's log:", ...c.logEvidence.map((l) => `    ${t(l)}`)] : []),
  ];
}
