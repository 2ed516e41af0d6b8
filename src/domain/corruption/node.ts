// What the node holding the corrupt copy says about itself (path.data, pid, host), and whether it
// is the Elasticsearch of this host: the checklist may only start there.

type Json = Record<string, any>;

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
  if (withFolder.length === 0)
    return { ok: false, reason: `the shard folder under ${who}'s path.data ${facts.dataPaths.join(', ')} does not exist on this host` };
  const d = withFolder[0];
  if (d.nodeId === null)
    return { ok: false, reason: `${d.path}/_state on this host names no node id, so it cannot be told to belong to ${who}` };
  if (d.nodeId !== facts.id) return { ok: false, reason: `${d.path} on this host belongs to node id ${d.nodeId}, not to ${who}` };
  if (view.pidIsElasticsearch === null)
    return { ok: false, reason: `no process ${facts.pid} runs on this host, so ${who} does not run here` };
  if (!view.pidIsElasticsearch)
    return { ok: false, reason: `process ${facts.pid} on this host is not Elasticsearch, so ${who} does not run here` };
  if (d.lockedByPid === null) return { ok: false, reason: `the open files of process ${facts.pid} cannot be read (run shardeck as root)` };
  if (!d.lockedByPid)
    return { ok: false, reason: `process ${facts.pid} on this host does not hold ${d.path}/node.lock, so it is not ${who}` };
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
  // eslint-disable-next-line no-control-regex -- \x16 is the length byte (22) before the id in segments_N
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
  return cmdline
    .split('\0')
    .some((a) => a === 'org.elasticsearch.bootstrap.Elasticsearch' || a.endsWith('/org.elasticsearch.bootstrap.Elasticsearch'));
}
