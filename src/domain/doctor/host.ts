// The host a node runs on (issue 41; Elasticsearch's bootstrap checks, which a single-node or
// loopback-bound node such as the platform's does not enforce): the JVM's memory not locked while
// the host swaps (bootstrap.memory_lock and process.mlockall from the node; /proc/swaps and
// vm.swappiness from this host), file descriptors below 65,535 (the node's own limit), and
// vm.max_map_count below 262,144 (this host's kernel). A host setting is judged only for a node
// that runs on this host; the others are said, not guessed. Pure: boundary/host-facts.ts reads.
import { formatCount } from '../text/format';
import type { Finding } from './finding';

export interface SwapArea {
  file: string;
  type: string;
  sizeKb: number;
  usedKb: number;
}

/** This host's kernel settings as read (null: not readable here). */
export interface HostKernel {
  swaps: SwapArea[] | null;
  swappiness: number | null;
  maxMapCount: number | null;
}

/** /proc/swaps: a header line, then "Filename Type Size Used Priority" rows. */
export function parseSwaps(text: string | null): SwapArea[] | null {
  if (text === null) return null;
  return text
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 4 && f[0] !== '')
    .map((f) => ({ file: f[0], type: f[1], sizeKb: Number(f[2]) || 0, usedKb: Number(f[3]) || 0 }));
}

const intOrNull = (t: string | null): number | null => {
  const v = t === null ? NaN : Number(t.trim());
  return Number.isInteger(v) ? v : null;
};

export function parseHostKernel(t: { swaps: string | null; swappiness: string | null; maxMapCount: string | null }): HostKernel {
  return { swaps: parseSwaps(t.swaps), swappiness: intOrNull(t.swappiness), maxMapCount: intOrNull(t.maxMapCount) };
}

/** Elasticsearch's bootstrap checks: at least 65,535 file descriptors, vm.max_map_count at least 262,144. */
export const MIN_FILE_DESCRIPTORS = 65_535;
export const MIN_MAX_MAP_COUNT = 262_144;
/** Swappiness at or below this keeps the kernel from swapping the heap out in normal conditions (Elastic's advice: 1). */
export const LOW_SWAPPINESS = 1;

export interface HostNodeFacts {
  name: string;
  /** Whether it runs on this host (then this host's kernel is its kernel). */
  here: boolean;
  /** Why not here, when not. */
  notHere?: string;
  memoryLock?: boolean;
  mlockall?: boolean;
  maxFileDescriptors: number | null;
  openFileDescriptors: number | null;
}

export function memoryLockFinding(n: HostNodeFacts, kernel: HostKernel | null): Finding {
  const id = `host.memory-lock.${n.name}`;
  const evidence = [
    `bootstrap.memory_lock ${n.memoryLock === undefined ? 'not set (false)' : String(n.memoryLock)}, process.mlockall ${n.mlockall ?? 'not reported'}`,
  ];
  if (n.mlockall === true)
    return { id, family: 'host', severity: 'ok', node: n.name, finding: "the JVM's memory is locked: it cannot be swapped out", evidence };
  if (!n.here || !kernel?.swaps)
    return {
      id,
      family: 'host',
      severity: 'unknown',
      node: n.name,
      finding: `memory not locked; whether its host swaps is not known here (${n.here ? 'its swap areas could not be read' : (n.notHere ?? 'not on this host')})`,
      evidence,
    };
  const active = kernel.swaps.filter((s) => s.sizeKb > 0);
  evidence.push(
    active.length
      ? `swap areas: ${active.map((s) => `${s.file} ${formatCount(s.sizeKb)} kB (${formatCount(s.usedKb)} kB used)`).join(', ')}`
      : 'swap areas: none',
    `vm.swappiness ${kernel.swappiness ?? '-'}`,
  );
  if (!active.length)
    return { id, family: 'host', severity: 'ok', node: n.name, finding: 'memory not locked, but this host has no swap', evidence };
  if (kernel.swappiness !== null && kernel.swappiness <= LOW_SWAPPINESS)
    return {
      id,
      family: 'host',
      severity: 'ok',
      node: n.name,
      finding: `memory not locked and swap is on, but vm.swappiness is ${kernel.swappiness}: the heap is swapped out only under memory pressure`,
      evidence,
    };
  return {
    id,
    family: 'host',
    severity: 'warn',
    node: n.name,
    finding: `memory lock off while swap is on (vm.swappiness ${kernel.swappiness ?? '?'}): parts of the heap can be swapped out, and a GC then takes seconds${n.memoryLock ? ' (bootstrap.memory_lock is set, but the lock failed: the node logs "Unable to lock JVM Memory")' : ''}`,
    evidence,
    remedy:
      'turn swap off on this host (swapoff -a and its line in /etc/fstab), or vm.swappiness=1, or bootstrap.memory_lock: true in elasticsearch.yml with LimitMEMLOCK=infinity in the service, then restart the engine',
  };
}

export function fileDescriptorFinding(n: HostNodeFacts): Finding {
  const id = `host.file-descriptors.${n.name}`;
  if (n.maxFileDescriptors === null)
    return {
      id,
      family: 'host',
      severity: 'unknown',
      node: n.name,
      finding: 'the node does not report its file descriptor limit',
      evidence: [],
    };
  const evidence = [
    `process.max_file_descriptors ${formatCount(n.maxFileDescriptors)}, open ${n.openFileDescriptors === null ? '-' : formatCount(n.openFileDescriptors)}`,
  ];
  if (n.maxFileDescriptors >= MIN_FILE_DESCRIPTORS)
    return {
      id,
      family: 'host',
      severity: 'ok',
      node: n.name,
      finding: `file descriptors limit ${formatCount(n.maxFileDescriptors)}`,
      evidence,
    };
  return {
    id,
    family: 'host',
    severity: 'warn',
    node: n.name,
    finding: `file descriptors limit ${formatCount(n.maxFileDescriptors)}, below ${formatCount(MIN_FILE_DESCRIPTORS)}: with many shards and segments the node fails with "Too many open files"`,
    evidence,
    remedy: `raise it for the engine's user to ${formatCount(MIN_FILE_DESCRIPTORS)} or more (LimitNOFILE=65535 in the service, or nofile in /etc/security/limits.conf), then restart the engine`,
  };
}

export function maxMapCountFinding(local: HostNodeFacts | undefined, kernel: HostKernel | null): Finding {
  if (!local)
    return {
      id: 'host.max-map-count',
      family: 'host',
      severity: 'unknown',
      finding: 'no node of this cluster runs on this host: its vm.max_map_count is not visible from here',
      evidence: [],
    };
  const v = kernel?.maxMapCount ?? null;
  if (v === null)
    return {
      id: 'host.max-map-count',
      family: 'host',
      severity: 'unknown',
      node: local.name,
      finding: 'vm.max_map_count could not be read here',
      evidence: [],
    };
  const evidence = [`vm.max_map_count ${formatCount(v)} (proc/sys/vm/max_map_count) on the host of ${local.name}`];
  if (v >= MIN_MAX_MAP_COUNT)
    return {
      id: 'host.max-map-count',
      family: 'host',
      severity: 'ok',
      node: local.name,
      finding: `vm.max_map_count ${formatCount(v)}`,
      evidence,
    };
  return {
    id: 'host.max-map-count',
    family: 'host',
    severity: 'warn',
    node: local.name,
    finding: `vm.max_map_count ${formatCount(v)}, below ${formatCount(MIN_MAX_MAP_COUNT)}: the node memory-maps its index files and fails with out-of-memory errors once the maps run out`,
    evidence,
    remedy: `sysctl -w vm.max_map_count=${MIN_MAX_MAP_COUNT} now, and vm.max_map_count=${MIN_MAX_MAP_COUNT} in /etc/sysctl.d/ so it stays after a reboot`,
  };
}

export function hostFindings(nodes: readonly HostNodeFacts[], kernel: HostKernel | null): Finding[] {
  return [
    ...nodes.flatMap((n) => [memoryLockFinding(n, kernel), fileDescriptorFinding(n)]),
    maxMapCountFinding(
      nodes.find((n) => n.here),
      kernel,
    ),
  ];
}
