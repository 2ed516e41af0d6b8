// The engine's temp folder (java.io.tmpdir, from ES_TMPDIR): Elasticsearch unpacks JNA's native
// library there and loads it, which a noexec mount or a folder the engine's user cannot use forbids
// ("Unable to load JNA native support library, native methods will be disabled"). Pure.
import { FIXES, type Finding } from './finding';

/** One line of /proc/self/mountinfo: where a file system is mounted and with which options. */
export interface Mount {
  mountPoint: string;
  options: string[];
  fsType: string;
}

/** /proc/self/mountinfo: "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue". */
export function parseMountInfo(text: string): Mount[] {
  const out: Mount[] = [];
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!right) continue;
    const f = left.split(' ');
    const r = right.split(' ');
    if (f.length < 6) continue;
    const unescape = (s: string) => s.replace(/\\(\d{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8)));
    // Per-mount options (noexec lives here) and the super block's options.
    out.push({ mountPoint: unescape(f[4]), options: [...f[5].split(','), ...(r[2] ?? '').split(',')], fsType: r[0] });
  }
  return out;
}

/** The mount holding a path: the longest mount point that is a prefix of it (the last one mounted wins a tie). */
export function mountOf(mounts: readonly Mount[], p: string): Mount | null {
  let best: Mount | null = null;
  for (const m of mounts) {
    const mp = m.mountPoint === '/' ? '/' : m.mountPoint.replace(/\/+$/, '');
    const under = mp === '/' || p === mp || p.startsWith(mp + '/');
    if (under && (!best || mp.length >= best.mountPoint.length)) best = m;
  }
  return best;
}

/** The temp folder as this host shows it. */
export interface TmpView {
  path: string;
  /** The folder the path resolves to, when a symlink leads elsewhere (its mount is the one that counts). */
  realPath?: string;
  exists: boolean;
  mount: Mount | null;
  owner: { uid: number; gid: number; user: string | null; group: string | null; mode: number } | null;
  /** The engine's user (the uid the node's process runs as). */
  engine: { uid: number; gid: number; user: string | null; group: string | null };
}

export interface TmpInputs {
  node: string;
  /** java.io.tmpdir of the node (from its JVM arguments), or null when it does not say. */
  tmpDir: string | null;
  view: TmpView | { notHere: string };
}

const REMEDY = (engine: string) =>
  `set ES_TMPDIR in the engine's sysconfig file (/etc/sysconfig/elasticsearch or /etc/default/elasticsearch) to a folder owned by ${engine} on a mount without noexec, then restart the engine (shardeck service restart)`;

export function tmpFindings(i: TmpInputs): Finding[] {
  const id = `tmp.folder.${i.node}`;
  if ('notHere' in i.view)
    return [
      {
        id,
        family: 'tmp',
        severity: 'unknown',
        node: i.node,
        finding: `temp folder not on this host: ${i.view.notHere}`,
        evidence: i.tmpDir ? [`java.io.tmpdir=${i.tmpDir}`] : [],
      },
    ];
  const v = i.view;
  const engine = `${v.engine.user ?? `uid ${v.engine.uid}`}:${v.engine.group ?? `gid ${v.engine.gid}`}`;
  const where = v.realPath && v.realPath !== v.path ? `${v.path} (-> ${v.realPath})` : v.path;
  const ev = [`java.io.tmpdir=${where}`];
  if (v.mount) ev.push(`mounted at ${v.mount.mountPoint} (${v.mount.fsType}) with ${v.mount.options.filter(Boolean).join(',')}`);
  if (v.owner)
    ev.push(
      `owner ${v.owner.user ?? v.owner.uid}:${v.owner.group ?? v.owner.gid} mode ${(v.owner.mode & 0o7777).toString(8)}; engine runs as ${engine}`,
    );
  const problems: string[] = [];
  if (!v.exists) problems.push(`${where} does not exist`);
  if (v.mount?.options.includes('noexec')) problems.push(`${where} is on a noexec mount (${v.mount.mountPoint})`);
  if (v.owner && v.owner.uid !== v.engine.uid && v.engine.uid !== 0) {
    // Another owner is fine only when the engine's user may still write and enter it.
    const o = v.owner;
    const viaGroup = o.gid === v.engine.gid && (o.mode & 0o030) === 0o030;
    const viaOther = (o.mode & 0o003) === 0o003;
    problems.push(
      `${where} is owned by ${o.user ?? o.uid}, not by the engine's user ${v.engine.user ?? v.engine.uid}${viaGroup || viaOther ? '' : ' (who cannot write in it)'}`,
    );
  }
  if (problems.length === 0)
    return [
      {
        id,
        family: 'tmp',
        severity: 'ok',
        node: i.node,
        finding: `temp folder ${where} is usable by the engine (exec allowed)`,
        evidence: ev,
      },
    ];
  return [
    {
      id,
      family: 'tmp',
      severity: 'warn',
      node: i.node,
      finding: `${problems.join('; ')}: JNA native methods are disabled`,
      evidence: ev,
      remedy: REMEDY(engine),
      fix: FIXES.restart(),
    },
  ];
}
