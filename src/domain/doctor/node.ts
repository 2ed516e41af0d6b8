// What the doctor asks each node about itself: GET _nodes/settings,jvm,process (filtered) and
// _nodes/stats/os (RAM). Pure parsing.
import type { Certificate } from './versions';

type Json = Record<string, any>;

export interface DoctorNode {
  id: string;
  name: string;
  host?: string;
  version: string;
  pid?: number;
  home?: string;
  logs?: string;
  dataPaths: string[];
  clusterName?: string;
  /** xpack.security.http.ssl.enabled; null when not reported. */
  httpTls: boolean | null;
  javaVersion?: string;
  heapInitBytes: number;
  heapMaxBytes: number;
  compressedOops?: string;
  /** java.io.tmpdir from the JVM's arguments. */
  tmpDir: string | null;
  ramBytes: number | null;
  /** Full role names (master, data, data_frozen, ...); absent when the node did not say. */
  roles?: string[];
  /** bootstrap.memory_lock as set (elasticsearch.yml), and whether the JVM's memory is locked (process.mlockall). */
  memoryLock?: boolean;
  mlockall?: boolean;
}

export const DOCTOR_NODE_FILTER = [
  'nodes.*.name',
  'nodes.*.host',
  'nodes.*.version',
  'nodes.*.process.id',
  'nodes.*.settings.path',
  'nodes.*.settings.cluster.name',
  'nodes.*.settings.xpack.security.http.ssl.enabled',
  'nodes.*.jvm.version',
  'nodes.*.jvm.mem.heap_init_in_bytes',
  'nodes.*.jvm.mem.heap_max_in_bytes',
  'nodes.*.jvm.using_compressed_ordinary_object_pointers',
  'nodes.*.jvm.input_arguments',
  'nodes.*.roles',
  'nodes.*.settings.bootstrap.memory_lock',
  'nodes.*.process.mlockall',
].join(',');

function bool(v: unknown): boolean | null {
  return v === true || v === 'true' ? true : v === false || v === 'false' ? false : null;
}

export function parseDoctorNodes(info: Json, osStats: Json): DoctorNode[] {
  return Object.entries((info?.nodes ?? {}) as Record<string, Json>).map(([id, n]) => {
    const p = n.settings?.path ?? {};
    const args: string[] = n.jvm?.input_arguments ?? [];
    const tmp = [...args].reverse().find((a) => a.startsWith('-Djava.io.tmpdir='));
    const ram = osStats?.nodes?.[id]?.os?.mem?.total_in_bytes;
    return {
      id,
      name: String(n.name ?? id),
      ...(n.host ? { host: String(n.host) } : {}),
      version: String(n.version ?? '?'),
      ...(typeof n.process?.id === 'number' ? { pid: n.process.id } : {}),
      ...(p.home ? { home: String(p.home) } : {}),
      ...(p.logs ? { logs: String(p.logs) } : {}),
      dataPaths: Array.isArray(p.data) ? p.data.map(String) : p.data ? [String(p.data)] : [],
      ...(n.settings?.cluster?.name ? { clusterName: String(n.settings.cluster.name) } : {}),
      httpTls: bool(n.settings?.xpack?.security?.http?.ssl?.enabled) ?? (n.settings ? false : null),
      ...(n.jvm?.version ? { javaVersion: String(n.jvm.version) } : {}),
      heapInitBytes: Number(n.jvm?.mem?.heap_init_in_bytes ?? 0),
      heapMaxBytes: Number(n.jvm?.mem?.heap_max_in_bytes ?? 0),
      ...(n.jvm?.using_compressed_ordinary_object_pointers !== undefined
        ? { compressedOops: String(n.jvm.using_compressed_ordinary_object_pointers) }
        : {}),
      tmpDir: tmp ? tmp.slice('-Djava.io.tmpdir='.length) : null,
      ramBytes: typeof ram === 'number' ? ram : null,
      ...(Array.isArray(n.roles) ? { roles: (n.roles as unknown[]).map(String).sort() } : {}),
      ...(bool(n.settings?.bootstrap?.memory_lock) !== null ? { memoryLock: bool(n.settings.bootstrap.memory_lock)! } : {}),
      ...(typeof n.process?.mlockall === 'boolean' ? { mlockall: n.process.mlockall as boolean } : {}),
    };
  });
}

/** The Java major version of "17.0.15" (or "1.8.0_292" -> 8). */
export function javaMajor(version: string | undefined): number | null {
  if (!version) return null;
  const m = /^(?:1\.)?(\d+)/.exec(version);
  return m ? Number(m[1]) : null;
}

/** GET _ssl/certificates: [{path, subject_dn, expiry}], or null when the node has no such API (security off). */
export function parseCertificates(body: unknown): Certificate[] | null {
  if (!Array.isArray(body)) return null;
  const seen = new Set<string>();
  const out: Certificate[] = [];
  for (const c of body as Json[]) {
    const key = `${c.path}|${c.serial_number}`;
    if (seen.has(key) || !c.expiry) continue;
    seen.add(key);
    out.push({ path: String(c.path ?? '?'), subject: String(c.subject_dn ?? ''), expiry: Date.parse(c.expiry) });
  }
  return out;
}

/** The plain log Elasticsearch writes: <path.logs>/<cluster.name>.log. */
export function nodeLogFile(n: Pick<DoctorNode, 'logs' | 'clusterName'>): string | null {
  return n.logs && n.clusterName ? `${n.logs.replace(/\/+$/, '')}/${n.clusterName}.log` : null;
}
