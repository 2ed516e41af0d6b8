// Corruption recovery, the pure half: recognising a primary whose every copy is corrupt (from
// allocation explain, in the shape a real 8.19 node answers; see test/fixtures/corrupt/), where
// its folder is on disk, what recovers it without loss, and the offline checklist as the exact
// commands for this node. Nothing here runs anything.
import { buildPreview, curlLine, previewLines, shellQuote, type MutationPlan, type PreviewConnection } from './mutation';

type Json = Record<string, any>;

/** One copy of the shard that allocation explain found on a node. */
export interface ShardCopy {
  node: string;
  nodeId: string;
  inSync: boolean;
  /** The node's store exception named a corrupt_index_exception. */
  corrupt: boolean;
  /** The store exception's reason, when there is one. */
  error?: string;
}

export interface CorruptFinding {
  index: string;
  shard: number;
  /** allocation explain's can_allocate (no_valid_shard_copy when every copy is stale or corrupt). */
  canAllocate: string;
  /** Lucene reported corruption (corrupt_index_exception / CorruptIndexException). */
  corrupt: boolean;
  /** One line: the most specific reason Elasticsearch gave. */
  reason: string;
  /** The file Lucene named, when it named one. */
  file?: string;
  /** The node holding the corrupt copy (the one the checklist runs on). */
  node?: { name: string; id: string };
  copies: ShardCopy[];
}

/** The store exception chain of one copy, outermost first. */
function exceptionChain(e: Json | undefined): Json[] {
  const out: Json[] = [];
  for (let x = e; x && out.length < 10; x = x.caused_by) out.push(x);
  return out;
}

const CORRUPT_TEXT = /CorruptIndexException|corrupt_index_exception|corrupt file/;

/**
 * The corruption of a primary, or null when allocation explain shows none (the primary is
 * assigned, or unassigned for another reason such as NODE_LEFT or the disk watermarks).
 */
export function findCorruption(r: Json): CorruptFinding | null {
  if (r.primary !== true || r.current_state !== 'unassigned') return null;
  const copies: ShardCopy[] = ((r.node_allocation_decisions as Json[] | undefined) ?? [])
    .filter((n) => n.store)
    .map((n) => {
      const chain = exceptionChain(n.store.store_exception);
      const deepestCorrupt = [...chain].reverse().find((x) => x.type === 'corrupt_index_exception');
      return {
        node: String(n.node_name),
        nodeId: String(n.node_id),
        inSync: Boolean(n.store.in_sync),
        corrupt: Boolean(deepestCorrupt),
        ...(chain.length ? { error: String((deepestCorrupt ?? chain[chain.length - 1]).reason) } : {}),
      };
    });
  const details = String(r.unassigned_info?.details ?? '');
  const detailNodeId = /failed shard on node \[([^\]]+)\]/.exec(details)?.[1];
  // While Elasticsearch still retries the allocation, the store reads fine and only the failure
  // details tell that the copy on that node is the corrupt one.
  if (CORRUPT_TEXT.test(details))
    for (const c of copies) if (c.nodeId === detailNodeId && !c.corrupt) Object.assign(c, { corrupt: true, error: /CorruptIndexException: ([^\n]+)/.exec(details)?.[1] ?? c.error });
  const corrupt = copies.some((c) => c.corrupt) || CORRUPT_TEXT.test(details);
  const canAllocate = String(r.can_allocate ?? '');
  if (!corrupt && canAllocate !== 'no_valid_shard_copy') return null;
  const holder = copies.find((c) => c.corrupt) ?? copies.find((c) => c.inSync);
  const reason =
    holder?.error ?? (/CorruptIndexException: ([^\n]+)/.exec(details)?.[1] || details.split('\n')[0] || String(r.allocate_explanation ?? canAllocate));
  const file = /path="([^"]+)"/.exec(reason)?.[1] ?? /path="([^"]+)"/.exec(details)?.[1];
  return {
    index: String(r.index),
    shard: Number(r.shard),
    canAllocate,
    corrupt,
    reason,
    ...(file ? { file } : {}),
    ...(holder ? { node: { name: holder.node, id: holder.nodeId } } : detailNodeId ? { node: { name: detailNodeId, id: detailNodeId } } : {}),
    copies,
  };
}

/** What one node tells about itself: GET _nodes/settings,jvm,process (filtered). */
export interface NodeFacts {
  id: string;
  name: string;
  /** path.data: one path, or several on old multi-path nodes. */
  dataPaths: string[];
  home?: string;
  logs?: string;
  pid?: number;
  bundledJdk?: boolean;
  /** The host the node reports (its publish address's host), to say where to run shardeck instead. */
  host?: string;
}

export function parseNodeFacts(body: Json): NodeFacts[] {
  return Object.entries((body?.nodes ?? {}) as Record<string, Json>).map(([id, n]) => {
    const p = n.settings?.path ?? {};
    const data = p.data;
    return {
      id,
      name: String(n.name ?? id),
      dataPaths: Array.isArray(data) ? data.map(String) : data ? [String(data)] : [],
      ...(p.home ? { home: String(p.home) } : {}),
      ...(p.logs ? { logs: String(p.logs) } : {}),
      ...(typeof n.process?.id === 'number' ? { pid: n.process.id } : {}),
      ...(typeof n.jvm?.using_bundled_jdk === 'boolean' ? { bundledJdk: n.jvm.using_bundled_jdk } : {}),
      ...(n.host ? { host: String(n.host) } : {}),
    };
  });
}

/** Where Elasticsearch keeps one shard under a data path: <path.data>/indices/<index uuid>/<shard>. */
export function shardFolder(dataPath: string, indexUuid: string, shard: number): string {
  return `${dataPath.replace(/\/+$/, '')}/indices/${indexUuid}/${shard}`;
}

// --- is the shard's node the Elasticsearch of this host? ------------------------------------------
// The checklist stops "the engine" of this host and rewrites a folder of this host. Run from
// another storage node, it would stop a healthy node and touch nothing that is corrupt. So it
// starts only when three facts, read on this host, point at the node holding the corrupt copy:
// the shard folder exists under its path.data; that path.data carries the node's id (Elasticsearch
// writes node_id into <path.data>/_state); and the pid the node reports is an Elasticsearch JVM
// here that holds <path.data>/node.lock open (only one process can: the one using that data).

/** What this host shows of one data path of a node. */
export interface DataPathView {
  path: string;
  /** The node id written under <path>/_state on this host; null when absent or unreadable. */
  nodeId: string | null;
  /** <path>/indices/<uuid>/<shard> exists on this host. */
  shardFolderExists: boolean;
  /** The reported pid holds <path>/node.lock open; null when /proc/<pid>/fd cannot be read. */
  lockedByPid: boolean | null;
}

/** What this host shows of the node holding the shard. */
export interface HostView {
  /** /proc/<pid>/cmdline is an Elasticsearch server JVM; null when there is no such process here. */
  pidIsElasticsearch: boolean | null;
  dataPaths: DataPathView[];
}

export type Locality = { ok: true; dataPath: string } | { ok: false; reason: string };

/** Whether the node `facts` is the Elasticsearch of this host, and where its data is; else why not. */
export function judgeLocality(facts: NodeFacts | null, view: HostView | null): Locality {
  if (!facts || !view) return { ok: false, reason: 'the cluster did not say which node holds the copy' };
  const who = `node ${facts.name} (id ${facts.id}${facts.pid ? `, pid ${facts.pid}` : ''})`;
  if (facts.dataPaths.length === 0 || facts.pid === undefined) return { ok: false, reason: `${who} did not report its path.data and pid` };
  const withFolder = view.dataPaths.filter((d) => d.shardFolderExists);
  if (withFolder.length === 0) return { ok: false, reason: `the shard folder under ${who}'s path.data ${facts.dataPaths.join(', ')} does not exist on this host` };
  const d = withFolder[0];
  if (d.nodeId === null) return { ok: false, reason: `${d.path}/_state on this host names no node id, so it cannot be told to belong to ${who}` };
  if (d.nodeId !== facts.id) return { ok: false, reason: `${d.path} on this host belongs to node id ${d.nodeId}, not to ${who}` };
  if (view.pidIsElasticsearch === null) return { ok: false, reason: `no process ${facts.pid} runs on this host, so ${who} does not run here` };
  if (!view.pidIsElasticsearch) return { ok: false, reason: `process ${facts.pid} on this host is not Elasticsearch, so ${who} does not run here` };
  if (d.lockedByPid === null) return { ok: false, reason: `the open files of process ${facts.pid} cannot be read (run shardeck as root)` };
  if (!d.lockedByPid) return { ok: false, reason: `process ${facts.pid} on this host does not hold ${d.path}/node.lock, so it is not ${who}` };
  return { ok: true, dataPath: d.path };
}

/** The refusal to start the checklist on a host that does not run the shard's node (one sentence). */
export function elsewhereRefusal(index: string, shard: number, holder: NodeFacts | null, reason: string, localNode?: string): string {
  const where = holder ? `node ${holder.name}${holder.host ? ` on host ${holder.host}` : ''}` : 'another node';
  return (
    `the corrupt copy of ${index} shard ${shard} is on ${where}, not on this host's Elasticsearch${localNode ? ` (node ${localNode})` : ''}: ${reason}; ` +
    `run shardeck recover-corrupt on ${holder?.host ? `${holder.host}, ` : ''}the host of node ${holder?.name ?? '?'}, as root; nothing was run`
  );
}

/**
 * The node id Elasticsearch keeps under <path.data>/_state: the Lucene commit's user data
 * (segments_N: "node_id" then its 22-character id, each a length-prefixed string) or the older
 * node-N.st (SMILE: "node_id", a short-string token, the id). Text read as latin1.
 */
export function parseStateNodeId(bytes: string): string | null {
  return /node_id[\x16U]([A-Za-z0-9_-]{22})/.exec(bytes)?.[1] ?? null;
}

/** The newest segments_N of a list of file names (N in base 36), or null. */
export function newestSegmentsFile(names: string[]): string | null {
  const gens = names.filter((n) => /^segments_[0-9a-z]+$/.test(n)).map((n) => ({ n, g: parseInt(n.slice('segments_'.length), 36) }));
  gens.sort((a, b) => b.g - a.g);
  return gens[0]?.n ?? null;
}

/** /proc/<pid>/cmdline (NUL-separated) is an Elasticsearch server JVM. */
export function isElasticsearchCmdline(cmdline: string): boolean {
  return cmdline.split('\0').some((a) => a === 'org.elasticsearch.bootstrap.Elasticsearch' || a.endsWith('/org.elasticsearch.bootstrap.Elasticsearch'));
}

// --- how long the last step waits ----------------------------------------------------------------

/**
 * The longest wait one health request asks of Elasticsearch. The client's request timeout (15 s
 * by default) cannot be raised for one request: the connection pool enforces the client's own
 * (undici headersTimeout), so a 120 s wait_for_status in one request is cut at 15 s. The last
 * step asks again and again, each wait well inside that timeout, until its whole wait is over.
 */
export const HEALTH_WAIT_STEP_S = 5;

/** The querystring of one health request of the last step, `remainingMs` before its deadline. */
export function healthWaitQuery(remainingMs: number): Record<string, string> {
  const s = Math.min(HEALTH_WAIT_STEP_S, Math.max(1, Math.ceil(remainingMs / 1000)));
  return { wait_for_status: 'yellow', timeout: `${s}s` };
}

/** How long the shard may take to come back after the restart, by default (s). */
export const DEFAULT_SHARD_WAIT_S = 120;

export interface SnapshotHolding {
  repository: string;
  snapshot: string;
  state: string;
  endTime?: string;
}

/** The snapshots of one repository (GET _snapshot/<repo>/_all) that hold the index. */
export function snapshotsHolding(index: string, repository: string, body: Json): SnapshotHolding[] {
  return ((body?.snapshots as Json[] | undefined) ?? [])
    .filter((s) => ((s.indices as string[] | undefined) ?? []).includes(index))
    .map((s) => ({ repository, snapshot: String(s.snapshot), state: String(s.state), ...(s.end_time ? { endTime: String(s.end_time) } : {}) }));
}

/** What recovers the shard without losing documents, best first; empty when nothing does. */
export function losslessOptions(f: CorruptFinding, snapshots: SnapshotHolding[]): string[] {
  const out: string[] = [];
  for (const c of f.copies.filter((x) => !x.corrupt))
    out.push(
      c.inSync
        ? `node ${c.node} holds an in-sync copy that is not corrupt: bring that node back or explain why it is refused (shardeck explain ${f.index} ${f.shard} primary)`
        : `node ${c.node} holds a stale copy that is not corrupt: promoting it (allocate_stale_primary) loses the writes it missed`,
    );
  for (const s of snapshots.filter((x) => x.state === 'SUCCESS' || x.state === 'PARTIAL'))
    out.push(
      `snapshot ${s.repository}/${s.snapshot} (${s.state}${s.endTime ? `, ended ${s.endTime}` : ''}) holds ${f.index}: close or delete the index, then POST _snapshot/${s.repository}/${s.snapshot}/_restore {"indices":"${f.index}"} (writes after the snapshot are lost)`,
    );
  out.push(`a file-level backup of the shard folder taken before the corruption: with the node stopped, put it back in place of the folder`);
  return out;
}

/** Everything the checklist needs to know about this node and shard. */
export interface PlanFacts {
  index: string;
  shard: number;
  node: { name: string; id: string };
  /** The shard folder (<path.data>/indices/<uuid>/<shard>). */
  folder: string;
  /** path.home of the node (bin/, lib/). */
  home: string;
  /** The java binary the node runs with; null when unknown (then $ES_JAVA_HOME/bin/java). */
  java: string | null;
  /** The system user that owns the data; the file steps run as it. */
  esUser: string;
  /** The node's config directory (ES_PATH_CONF), for elasticsearch-shard. */
  confDir: string;
  serviceStop?: string;
  serviceStart?: string;
  backupDir: string;
  /** A timestamp for the archive's name (e.g. 20261122T0805Z). */
  stamp: string;
  conn: PreviewConnection;
  /** Whether <home>/bin/elasticsearch-shard exists; null when it could not be looked at. */
  hasShardTool: boolean | null;
  /** The node's pid on this host when the checklist started: the stop step checks it is gone. */
  pid?: number;
}

/**
 * How the runner carries a step out: a shell command on this host, a request through the guarded
 * path, or a read it does itself with the profile's credentials (the command shown for those is
 * the equivalent an operator would type, credentials elided).
 */
export type StepKind = 'shell' | 'request' | 'read';

export interface PlanStep {
  id: string;
  kind: StepKind;
  title: string;
  /** A shell command for the node's host, or a request sent through the guarded path. */
  command?: string;
  request?: MutationPlan;
  /** Why, and what to look for. */
  note: string;
  /** Documents are lost by this step (confirmation asks for the shard's name). */
  losesData?: boolean;
  /** Only when the check before it says so. */
  conditional?: boolean;
}

export interface RecoveryPlan {
  archive: string;
  steps: PlanStep[];
  /** elasticsearch-shard remove-corrupted-data in place of the CheckIndex and marker steps. */
  alternative: PlanStep[] | null;
}

export const DEFAULT_SERVICE_STOP = 'systemctl stop elasticsearch';
export const DEFAULT_SERVICE_START = 'systemctl start elasticsearch';

function parentOf(p: string): { dir: string; base: string } {
  const i = p.replace(/\/+$/, '').lastIndexOf('/');
  return { dir: p.slice(0, i) || '/', base: p.slice(i + 1) };
}

/** allocate_stale_primary with accept_data_loss: what makes Elasticsearch take the repaired copy. */
export function stalePrimaryPlan(index: string, shard: number, node: string): MutationPlan {
  return {
    method: 'POST',
    path: '/_cluster/reroute',
    querystring: {},
    body: { commands: [{ allocate_stale_primary: { index, shard, node, accept_data_loss: true } }] },
    risk: 'destructive',
    target: index,
    summary: `allocate the repaired copy of ${index} shard ${shard} on ${node} as primary, accepting the documents lost`,
  };
}

export function recoveryPlan(f: PlanFacts): RecoveryPlan {
  const q = shellQuote;
  const as = `runuser -u ${q(f.esUser)} --`;
  const java = f.java ? q(f.java) : '"$ES_JAVA_HOME/bin/java"';
  const { dir: indexDir, base: shardDir } = parentOf(f.folder);
  const archive = `${f.backupDir.replace(/\/+$/, '')}/${f.index}-${f.shard}-${f.stamp}.tar`;
  const checkIndex = `${as} ${java} -cp ${q(`${f.home}/lib/*`)} org.apache.lucene.index.CheckIndex ${q(`${f.folder}/index`)}`;
  const get = (path: string, querystring: Record<string, string> = {}) =>
    curlLine({ method: 'GET', path, querystring }, f.conn);
  const stale = stalePrimaryPlan(f.index, f.shard, f.node.name);
  const start: PlanStep[] = [
    { id: 'stop', kind: 'shell', title: 'Stop the engine', command: f.serviceStop ?? DEFAULT_SERVICE_STOP, note: 'nothing may write to the shard folder while it is repaired' },
    {
      id: 'backup',
      kind: 'shell',
      title: 'Back up the shard folder',
      command: `mkdir -p ${q(f.backupDir)} && tar -C ${q(indexDir)} -cf ${q(archive)} ${q(shardDir)}`,
      note: 'the repair removes segments for good: this archive is the way back',
    },
    {
      id: 'verify-backup',
      kind: 'shell',
      title: 'Verify the archive lists every file with the right size',
      command: `diff <(cd ${q(indexDir)} && find ${q(shardDir)} -type f -printf '%p %s\\n' | sort) <(tar -tvf ${q(archive)} | awk '$1 !~ /^d/ {print $6, $3}' | sort) && echo 'archive complete'`,
      note: 'no output but "archive complete" means every file is in the archive with its size; anything else: stop here',
    },
  ];
  const restart: PlanStep[] = [
    { id: 'start', kind: 'shell', title: 'Start the engine', command: f.serviceStart ?? DEFAULT_SERVICE_START, note: 'the node reads the repaired folder' },
    {
      id: 'wait',
      kind: 'read',
      title: 'Wait for the node to answer',
      command: `until ${get('/_cluster/health', { timeout: '5s' })} -sf -o /dev/null; do sleep 2; done`,
      note: 'loops until the node answers HTTP',
    },
    {
      id: 'allocation',
      kind: 'read',
      title: "Check the shard's allocation",
      command: `shardeck explain ${q(f.index)} ${f.shard} primary`,
      note: 'started: go to the last step; still no_valid_shard_copy: allocate it as a stale primary (next step)',
    },
    {
      id: 'reroute',
      kind: 'request',
      title: 'Allocate the repaired copy as primary (accept_data_loss)',
      request: stale,
      note: 'Elasticsearch does not trust a copy it saw fail; this tells it to, accepting that the documents of the removed segments are gone',
      losesData: true,
      conditional: true,
    },
    {
      id: 'verify',
      kind: 'read',
      title: 'Health and document count afterwards',
      command: `${get('/_cluster/health/' + f.index, { wait_for_status: 'yellow', timeout: `${DEFAULT_SHARD_WAIT_S}s` })} && ${get('/_cat/shards/' + f.index, { v: 'true', h: 'index,shard,prirep,state,docs,node' })}`,
      note: 'documents lost = the count CheckIndex reported before minus the count now',
    },
  ];
  const steps: PlanStep[] = [
    ...start,
    { id: 'check', kind: 'shell', title: 'Check the index with Lucene CheckIndex (read-only)', command: checkIndex, note: 'changes nothing; names the broken segments and the documents they hold (exit 1 when it finds corruption)' },
    { id: 'exorcise', kind: 'shell', title: 'Remove the broken segments (CheckIndex -exorcise)', command: `${checkIndex} -exorcise`, note: 'the documents of the broken segments are lost, unidentified', losesData: true },
    {
      id: 'markers',
      kind: 'shell',
      title: 'Remove the corruption markers',
      command: `${as} find ${q(`${f.folder}/index`)} -maxdepth 1 -name 'corrupted_*' -print -delete`,
      note: 'Elasticsearch refuses a folder that holds a corrupted_* marker',
    },
    ...restart,
  ];
  const javaHome = f.java ? q(f.java.replace(/\/bin\/java$/, '')) : '"$ES_JAVA_HOME"';
  const alternative: PlanStep[] | null =
    f.hasShardTool === false
      ? null
      : [
          ...start,
          {
            id: 'shard-tool',
            kind: 'shell',
            title: 'Remove the corrupted data with elasticsearch-shard',
            // The echo answers the tool's own "Confirm [y/N]": this step runs only once confirmed here.
            command: `echo y | ${as} env ES_PATH_CONF=${q(f.confDir)} ES_JAVA_HOME=${javaHome} ${q(`${f.home}/bin/elasticsearch-shard`)} remove-corrupted-data --index ${q(f.index)} --shard-id ${f.shard}`,
            note: 'removes the broken segments and the markers and gives the copy a new allocation id, so the reroute it prints is always needed (typing it by hand, leave out the echo to answer its question yourself)',
            losesData: true,
          },
          ...restart.map((s) => (s.id === 'reroute' ? { ...s, conditional: false } : s)),
        ];
  return { archive, steps, alternative };
}

/** A step's exact command ("$ ..."), or its request as every preview shows one (method, path, body, curl). */
export function stepCommandLines(step: PlanStep, conn: PreviewConnection): string[] {
  return step.request ? previewLines(buildPreview(step.request, conn)) : [`$ ${step.command}`];
}

/** The plan as the operator reads it: numbered steps, each with its exact command. */
export function planLines(p: RecoveryPlan, conn: PreviewConnection): string[] {
  const render = (steps: PlanStep[]) =>
    steps.flatMap((s, i) => [
      `${i + 1}. ${s.title}${s.conditional ? ' (only if the check before says so)' : ''}${s.losesData ? ' [LOSES DATA]' : ''}`,
      ...stepCommandLines(s, conn).map((l) => `   ${l}`),
      `   ${s.note}`,
    ]);
  const out = ['Offline repair with Lucene CheckIndex (nothing below has been run):', ...render(p.steps)];
  if (p.alternative) out.push('', 'Alternative: elasticsearch-shard remove-corrupted-data in place of CheckIndex and the markers:', ...render(p.alternative));
  return out;
}

// --- what the repair tools print --------------------------------------------------------------

export interface CheckIndexSegment {
  name: string;
  maxDoc: number;
  broken: boolean;
}

export interface CheckIndexResult {
  /** Live documents in the commit CheckIndex opened (before anything was removed). */
  totalDocs: number;
  segments: CheckIndexSegment[];
  brokenSegments: number;
  /** Documents in the broken segments: lost by the repair, and not identified. */
  lostDocs: number;
  /** -exorcise (or elasticsearch-shard) wrote a commit without the broken segments. */
  wroteNewSegments: boolean;
}

/**
 * The verdict of Lucene CheckIndex (also embedded in elasticsearch-shard's output; the first
 * report counts), or null when the output holds none: the tool failed before it could check.
 */
export function parseCheckIndex(text: string): CheckIndexResult | null {
  const total = /^\S+% total deletions; (\d+) documents; \d+ deletions/m.exec(text);
  const broken = /WARNING: (\d+) broken segments \(containing (\d+) documents\) detected/.exec(text);
  const clean = /No problems were detected with this index/.test(text);
  if (!total || (!broken && !clean)) return null;
  // Segment blocks of the first report only (elasticsearch-shard checks twice).
  const firstReport = text.slice(total.index, broken ? broken.index : undefined);
  const segments: CheckIndexSegment[] = [];
  const blocks = firstReport.split(/^(?=\d+ of \d+: name=)/m).slice(1);
  for (const b of blocks) {
    const m = /^\d+ of \d+: name=(\S+) maxDoc=(\d+)/.exec(b);
    if (m) segments.push({ name: m[1], maxDoc: Number(m[2]), broken: /\.\.\.FAILED|FAILED\n|exorciseIndex\(\) would remove/.test(b) });
  }
  return {
    totalDocs: Number(total[1]),
    segments,
    brokenSegments: broken ? Number(broken[1]) : 0,
    lostDocs: broken ? Number(broken[2]) : 0,
    wroteNewSegments: /Wrote new segments file/.test(text),
  };
}

/** The allocate_stale_primary that elasticsearch-shard prints after its repair, or null. */
export function parseShardToolReroute(text: string): { index: string; shard: number; node: string } | null {
  const at = text.indexOf('POST /_cluster/reroute');
  if (at < 0) return null;
  const open = text.indexOf('{', at);
  let depth = 0;
  for (let i = open; i >= 0 && i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) {
      try {
        const cmd = JSON.parse(text.slice(open, i + 1))?.commands?.[0]?.allocate_stale_primary;
        if (cmd && typeof cmd.index === 'string' && typeof cmd.node === 'string') return { index: cmd.index, shard: Number(cmd.shard), node: cmd.node };
      } catch {
        /* not the JSON we expect */
      }
      return null;
    }
  }
  return null;
}

// --- the checklist's progress (saved after every step, so a dropped session resumes) ----------

export type RecoveryMethod = 'checkindex' | 'shard-tool';

export interface StepRecord {
  status: 'done' | 'skipped' | 'failed';
  at: string;
  message: string;
}

export interface RecoveryProgress {
  version: 1;
  index: string;
  shard: number;
  method: RecoveryMethod;
  facts: PlanFacts;
  startedAt: string;
  steps: Record<string, StepRecord>;
  /** The shard's documents before the repair, as CheckIndex counted them. */
  check?: CheckIndexResult;
  /** elasticsearch-shard's reroute (node id), used in place of the planned one. */
  toolReroute?: { index: string; shard: number; node: string };
  /** Documents counted once the shard is back. */
  docsAfter?: number;
  finished?: boolean;
}

export function newProgress(method: RecoveryMethod, facts: PlanFacts, now: string): RecoveryProgress {
  return { version: 1, index: facts.index, shard: facts.shard, method, facts, startedAt: now, steps: {} };
}

/** The steps of the chosen method, the reroute taken from elasticsearch-shard once it printed one. */
export function progressSteps(p: RecoveryProgress): PlanStep[] {
  const plan = recoveryPlan(p.facts);
  const steps = p.method === 'shard-tool' ? plan.alternative ?? [] : plan.steps;
  const r = p.toolReroute;
  return r ? steps.map((s) => (s.id === 'reroute' ? { ...s, request: stalePrimaryPlan(r.index, r.shard, r.node) } : s)) : steps;
}

/** The first step neither done nor skipped; null when the checklist is complete. */
export function nextStep(p: RecoveryProgress): PlanStep | null {
  return progressSteps(p).find((s) => p.steps[s.id]?.status !== 'done' && p.steps[s.id]?.status !== 'skipped') ?? null;
}

/**
 * A failed step is recorded, and so are the steps it undoes: a backup that does not verify is
 * taken again, and a node that did not come back is started again, when the checklist resumes.
 */
export function recordStep(p: RecoveryProgress, id: string, rec: StepRecord): RecoveryProgress {
  const steps = { ...p.steps, [id]: rec };
  if (rec.status === 'failed') {
    if (id === 'verify-backup') delete steps.backup;
    if (id === 'wait') delete steps.start;
  }
  return { ...p, steps };
}

/** What to do after a step failed: where the data stands and how to go on. */
export function failureAdvice(stepId: string, p: RecoveryProgress): string {
  const archive = recoveryPlan(p.facts).archive;
  const advice: Record<string, string> = {
    stop: 'nothing was changed and the engine may still be running: check the service (or --stop-cmd), then run shardeck recover-corrupt --resume',
    backup: 'the shard folder is untouched and the partial archive was removed: free space or choose another place (--backup-dir DIR), then run shardeck recover-corrupt --resume',
    'verify-backup': `the archive ${archive} does not match the shard folder; it will be taken again: check the backup place, then run shardeck recover-corrupt --resume`,
    check: 'CheckIndex changed nothing: read its output above (wrong java or lib/? give --java), then run shardeck recover-corrupt --resume',
    exorcise: `CheckIndex -exorcise did not write a new commit, so the broken segments are still referenced; if in doubt, restore the folder from ${archive} before going on; then run shardeck recover-corrupt --resume`,
    'shard-tool': `elasticsearch-shard did not finish its repair; if in doubt, restore the folder from ${archive} before going on; then run shardeck recover-corrupt --resume`,
    markers: 'the corrupted_* markers are still there: remove them by hand or fix the permission, then run shardeck recover-corrupt --resume',
    start: 'the engine did not start: read its log and the service status, then run shardeck recover-corrupt --resume',
    wait: 'the node did not answer in time: read its log (path.logs); resuming starts it again and waits',
    allocation: 'the node answers but the shard could not be explained: run shardeck explain by hand, then shardeck recover-corrupt --resume',
    reroute: 'the stale-primary allocation was not accepted: read the answer above and shardeck explain, then run shardeck recover-corrupt --resume',
    verify: 'the shard is not back yet: watch shardeck status; shardeck recover-corrupt --resume checks again',
  };
  return advice[stepId] ?? 'run shardeck recover-corrupt --resume once the cause is fixed';
}

/** Before vs after: the loss CheckIndex predicted and the one counted. */
export function lossReport(p: RecoveryProgress): { docsBefore: number | null; docsAfter: number | null; lost: number | null; predictedLost: number | null } {
  const before = p.check?.totalDocs ?? null;
  const after = p.docsAfter ?? null;
  return { docsBefore: before, docsAfter: after, lost: before !== null && after !== null ? before - after : null, predictedLost: p.check?.lostDocs ?? null };
}
