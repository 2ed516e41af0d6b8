// Heap rules of the seed (Limits): Xms equals Xmx; at most 50% of physical RAM; at most 30% when the
// platform's cluster node shares the machine; never above the compressed-oops limit (~32 GB). And
// where the value comes from: Elasticsearch reads jvm.options, then every jvm.options.d/*.options in
// name order, then ES_JAVA_OPTS; for the JVM the last -Xms/-Xmx wins. Pure.
import { formatBytes } from '../text/format';
import { FIXES, type Finding } from './finding';

/** A configuration file as read on the host: its path and its lines. */
export interface OptionsFile {
  path: string;
  lines: string[];
}

/** One place that sets a heap size. */
export interface HeapSetting {
  flag: 'Xms' | 'Xmx';
  raw: string;
  bytes: number;
  /** "file:line" or "ES_JAVA_OPTS". */
  where: string;
  text: string;
}

export interface HeapOptions {
  /** The setting that wins for each flag (the last one read), when any sets it. */
  xms?: HeapSetting;
  xmx?: HeapSetting;
  /** Every setting read, in the order Elasticsearch reads them. */
  all: HeapSetting[];
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** A JVM size ("512m", "4g", "1073741824"), or null. */
export function parseJavaSize(raw: string): number | null {
  const m = /^(\d+)([kmgt]?)$/i.exec(raw.trim());
  return m ? Number(m[1]) * SIZE_UNITS[m[2].toLowerCase()] : null;
}

/** Whether a jvm.options line's version prefix ("8:", "9-:", "17-21:") applies to this Java major version. */
function versionApplies(prefix: string | undefined, javaMajor: number | null): boolean {
  if (prefix === undefined) return true;
  if (javaMajor === null) return true;
  const m = /^(\d+)(-(\d*))?$/.exec(prefix);
  if (!m) return false;
  const lo = Number(m[1]);
  if (m[2] === undefined) return javaMajor === lo;
  const hi = m[3] ? Number(m[3]) : Infinity;
  return javaMajor >= lo && javaMajor <= hi;
}

function heapFlag(opt: string): { flag: 'Xms' | 'Xmx'; raw: string } | null {
  const m = /^-(Xms|Xmx)(\S+)$/.exec(opt) ?? /^-XX:(InitialHeapSize|MaxHeapSize)=(\S+)$/.exec(opt);
  if (!m) return null;
  const flag = m[1] === 'Xms' || m[1] === 'InitialHeapSize' ? 'Xms' : 'Xmx';
  return { flag, raw: m[2] };
}

/**
 * The heap settings of jvm.options (first), the jvm.options.d files (in the order given: the caller
 * sorts them by name as Elasticsearch does) and ES_JAVA_OPTS (last), and which one wins.
 */
export function resolveHeapOptions(files: readonly OptionsFile[], esJavaOpts: string | undefined, javaMajor: number | null): HeapOptions {
  const all: HeapSetting[] = [];
  for (const f of files) {
    f.lines.forEach((line, i) => {
      const t = line.trim();
      if (!t || t.startsWith('#')) return;
      const m = /^(?:(\d+(?:-\d*)?):)?(-\S+)$/.exec(t);
      if (!m || !versionApplies(m[1], javaMajor)) return;
      const h = heapFlag(m[2]);
      const bytes = h && parseJavaSize(h.raw);
      if (h && bytes !== null) all.push({ flag: h.flag, raw: h.raw, bytes, where: `${f.path}:${i + 1}`, text: t });
    });
  }
  for (const opt of (esJavaOpts ?? '').split(/\s+/).filter(Boolean)) {
    const h = heapFlag(opt);
    const bytes = h && parseJavaSize(h.raw);
    if (h && bytes !== null) all.push({ flag: h.flag, raw: h.raw, bytes, where: 'ES_JAVA_OPTS', text: opt });
  }
  const last = (flag: 'Xms' | 'Xmx') => [...all].reverse().find((s) => s.flag === flag);
  return { xms: last('Xms'), xmx: last('Xmx'), all };
}

/** The heap as the running node reports it (GET _nodes/jvm). */
export interface NodeHeap {
  node: string;
  heapInitBytes: number;
  heapMaxBytes: number;
  /** "true" / "false" / "unknown" as the node says (jvm.using_compressed_ordinary_object_pointers). */
  compressedOops?: string;
  /** Physical RAM of the node's host. */
  ramBytes: number | null;
}

export interface HeapInputs {
  heap: NodeHeap;
  /** The options files read on this host (jvm.options first), or why they could not be. */
  options: { files: OptionsFile[]; esJavaOpts?: string; javaMajor: number | null } | { notHere: string };
  /** Whether the platform's cluster node runs on this machine, and how that is known. */
  platformOnHost: { value: boolean | null; source: string };
}

/** The compressed-oops cutoff: above ~32 GB the JVM falls back to 64-bit pointers. */
export const OOPS_LIMIT_BYTES = 32 * 1024 ** 3;

export function heapFindings(i: HeapInputs): Finding[] {
  const { heap } = i;
  const n = heap.node;
  const out: Finding[] = [];
  const opts = 'files' in i.options ? resolveHeapOptions(i.options.files, i.options.esJavaOpts, i.options.javaMajor) : null;
  const overrideFile = opts?.all.find((s) => s.where.includes('/jvm.options.d/'))?.where.replace(/:\d+$/, '');
  const where = overrideFile ?? 'a file of jvm.options.d named after the platform (it overrides jvm.options)';
  const lineOf = (s?: HeapSetting) =>
    s ? [`${s.where}: ${s.text}${s.where === 'ES_JAVA_OPTS' ? ' (environment of the node; wins over the files)' : ''}`] : [];
  const restart = 'then restart the engine (shardeck service restart)';

  // Xms equals Xmx: from what the node runs with.
  const same = heap.heapInitBytes === heap.heapMaxBytes;
  out.push({
    id: `heap.xms-xmx.${n}`,
    family: 'heap',
    severity: same ? 'ok' : 'warn',
    node: n,
    finding: same
      ? `heap minimum equals maximum (${formatBytes(heap.heapMaxBytes)})`
      : `heap minimum ${formatBytes(heap.heapInitBytes)} differs from maximum ${formatBytes(heap.heapMaxBytes)}: the JVM resizes the heap under load`,
    evidence: [
      `node reports heap_init ${heap.heapInitBytes} B, heap_max ${heap.heapMaxBytes} B`,
      ...lineOf(opts?.xms),
      ...lineOf(opts?.xmx),
    ],
    ...(same ? {} : { remedy: `set -Xms and -Xmx to the same value in ${where}, ${restart}`, fix: FIXES.restart() }),
  });

  // Share of RAM: 50%, or 30% with the platform's cluster node on the same machine.
  if (heap.ramBytes && heap.ramBytes > 0) {
    const shared = i.platformOnHost.value === true;
    const limit = shared ? 30 : 50;
    const pct = (heap.heapMaxBytes / heap.ramBytes) * 100;
    const ok = pct <= limit + 0.05;
    out.push({
      id: `heap.ram.${n}`,
      family: 'heap',
      severity: ok ? 'ok' : 'warn',
      node: n,
      finding: `heap ${formatBytes(heap.heapMaxBytes)} is ${pct.toFixed(0)}% of ${formatBytes(heap.ramBytes)} RAM (at most ${limit}%${shared ? ": the platform's cluster node shares this machine" : ''})`,
      evidence: [
        `heap_max ${heap.heapMaxBytes} B, RAM ${heap.ramBytes} B`,
        `platform's cluster node on this machine: ${i.platformOnHost.value === null ? 'unknown' : i.platformOnHost.value ? 'yes' : 'no'} (${i.platformOnHost.source})`,
        ...lineOf(opts?.xmx),
      ],
      ...(ok
        ? {}
        : {
            remedy: `lower -Xms and -Xmx to at most ${formatBytes(Math.floor((heap.ramBytes * limit) / 100))} (${limit}% of RAM) in ${where}, ${restart}`,
            fix: FIXES.restart(),
          }),
    });
  }

  // Compressed oops.
  const over = heap.heapMaxBytes >= OOPS_LIMIT_BYTES || heap.compressedOops === 'false';
  out.push({
    id: `heap.oops.${n}`,
    family: 'heap',
    severity: over ? 'critical' : 'ok',
    node: n,
    finding: over
      ? `heap ${formatBytes(heap.heapMaxBytes)} is past the compressed-oops limit (~32 GB): a bigger heap holds less`
      : `heap below the compressed-oops limit (~32 GB)`,
    evidence: [
      `heap_max ${heap.heapMaxBytes} B`,
      ...(heap.compressedOops ? [`using_compressed_ordinary_object_pointers: ${heap.compressedOops}`] : []),
    ],
    ...(over ? { remedy: `set -Xmx below 31g (never more than 32 GB) in ${where}, ${restart}`, fix: FIXES.restart() } : {}),
  });

  // Which file sets the heap, and whether the running node uses it.
  if (!opts) {
    out.push({
      id: `heap.options.${n}`,
      family: 'heap',
      severity: 'unknown',
      node: n,
      finding: `jvm.options not on this host: ${(i.options as { notHere: string }).notHere}`,
      evidence: [],
    });
  } else {
    const shadowed = opts.all.filter((s) => s !== opts.xms && s !== opts.xmx);
    const winners = [opts.xms, opts.xmx].filter((s): s is HeapSetting => Boolean(s));
    const stale = (opts.xmx && opts.xmx.bytes !== heap.heapMaxBytes) || (opts.xms && opts.xms.bytes !== heap.heapInitBytes);
    const wins = winners.map((s) => `-${s.flag}${s.raw} from ${s.where}`).join(', ');
    out.push({
      id: `heap.options.${n}`,
      family: 'heap',
      severity: stale ? 'warn' : 'ok',
      node: n,
      finding:
        winners.length === 0
          ? 'no -Xms/-Xmx in jvm.options, jvm.options.d or ES_JAVA_OPTS: Elasticsearch sizes the heap itself'
          : stale
            ? `the options say ${wins}, but the node runs with ${formatBytes(heap.heapInitBytes)}/${formatBytes(heap.heapMaxBytes)}: changed since it started`
            : `heap set by ${wins}${shadowed.length ? ` (overrides ${shadowed.map((s) => `-${s.flag}${s.raw} at ${s.where}`).join(', ')})` : ''}`,
      evidence: [...winners.map((s) => `wins: ${s.where}: ${s.text}`), ...shadowed.map((s) => `overridden: ${s.where}: ${s.text}`)],
      ...(stale
        ? { remedy: `the new heap applies at the next start: restart the engine (shardeck service restart)`, fix: FIXES.restart() }
        : {}),
    });
  }
  return out;
}
