// Configuration (issue 41): wildcard deletes allowed (action.destructive_requires_name false), copies
// of a shard on nodes of one host (several nodes per host without
// cluster.routing.allocation.same_shard.host), a licence expired or expiring (GET _license, where
// the node has it), dangling indices (GET _dangling) and the frozen tier's flood stage (judged on
// the settings and on nodes whose only data role is data_frozen: the test cluster has none). Pure.
import { compareText } from '../text/order';
import { formatBytes, formatCount } from '../text/format';
import { requiredFreeBytes } from '../nodes/disk';
import type { ClusterSettingsView, NodeDisk, ShardRow } from '../types';
import type { Finding } from './finding';

type Json = Record<string, any>;

export function destructiveFinding(settings: Pick<ClusterSettingsView, 'destructiveRequiresName'>): Finding {
  if (settings.destructiveRequiresName)
    return {
      id: 'config.destructive-requires-name',
      family: 'config',
      severity: 'ok',
      finding: 'action.destructive_requires_name is true: a delete must name its indices',
      evidence: ['action.destructive_requires_name = true'],
    };
  return {
    id: 'config.destructive-requires-name',
    family: 'config',
    severity: 'warn',
    finding: 'action.destructive_requires_name is false: one DELETE /* (or _all, or a wildcard) removes every index',
    evidence: ['action.destructive_requires_name = false'],
    remedy: 'PUT /_cluster/settings {"persistent":{"action.destructive_requires_name":null}} (true is the default of 8.x)',
  };
}

/** Copies of one shard on two nodes of the same host, with the host. */
export interface SameHostShard {
  index: string;
  shard: number;
  host: string;
  nodes: string[];
}

/** Each node's host (from _cat/allocation: its host, else its ip). */
export function hostsOf(disks: readonly NodeDisk[]): Record<string, string> {
  return Object.fromEntries(disks.map((d) => [d.node, d.host ?? d.ip ?? d.node]));
}

export function sameHostShards(shards: readonly ShardRow[], hosts: Record<string, string>): SameHostShard[] {
  const by = new Map<string, { index: string; shard: number; nodes: string[] }>();
  for (const s of shards) {
    if (!s.node || s.state === 'UNASSIGNED') continue;
    const k = `${s.index}\u0000${s.shard}`;
    const cur = by.get(k) ?? { index: s.index, shard: s.shard, nodes: [] };
    cur.nodes.push(s.node);
    by.set(k, cur);
  }
  const out: SameHostShard[] = [];
  for (const g of by.values()) {
    const perHost = new Map<string, string[]>();
    for (const n of g.nodes) {
      const h = hosts[n];
      if (h === undefined) continue;
      perHost.set(h, [...(perHost.get(h) ?? []), n]);
    }
    for (const [host, nodes] of perHost) if (nodes.length > 1) out.push({ index: g.index, shard: g.shard, host, nodes });
  }
  return out.sort((a, b) => compareText(a.index, b.index) || a.shard - b.shard);
}

export function sameHostFinding(
  settings: Pick<ClusterSettingsView, 'sameShardHost'>,
  disks: readonly NodeDisk[],
  shards: readonly ShardRow[],
): Finding {
  const hosts = hostsOf(disks);
  const perHost = new Map<string, string[]>();
  for (const [node, host] of Object.entries(hosts)) perHost.set(host, [...(perHost.get(host) ?? []), node]);
  const shared = [...perHost].filter(([, nodes]) => nodes.length > 1);
  const evidence = [
    `cluster.routing.allocation.same_shard.host = ${settings.sameShardHost === true}`,
    ...shared.map(([h, nodes]) => `host ${h}: data nodes ${nodes.sort().join(', ')}`),
  ];
  if (!shared.length) return { id: 'config.same-host', family: 'config', severity: 'ok', finding: 'one data node per host', evidence };
  if (settings.sameShardHost)
    return {
      id: 'config.same-host',
      family: 'config',
      severity: 'ok',
      finding: 'several data nodes share a host, and same_shard.host keeps the copies of a shard on different hosts',
      evidence,
    };
  const together = sameHostShards(shards, hosts);
  const remedy =
    'PUT /_cluster/settings {"persistent":{"cluster.routing.allocation.same_shard.host":true}}: Elasticsearch then moves one of the copies to another host (where there is one)';
  if (together.length)
    return {
      id: 'config.same-host',
      family: 'config',
      severity: 'warn',
      finding: `${formatCount(together.length)} shard${together.length === 1 ? ' has' : 's have'} a primary and a replica on one host: losing the host loses both`,
      evidence: [...evidence, ...together.slice(0, 6).map((t) => `${t.index} shard ${t.shard}: ${t.nodes.join(' and ')} on ${t.host}`)],
      remedy,
    };
  return {
    id: 'config.same-host',
    family: 'config',
    severity: 'warn',
    finding: 'several data nodes share a host without same_shard.host: a primary and its replica may be put on one host',
    evidence,
    remedy,
  };
}

export type LicenseView =
  { available: true; status: string; type: string; expiryMs: number | null; issuedTo: string } | { available: false; why: string };

/** GET _license. */
export function parseLicense(body: Json): LicenseView {
  const l = body?.license ?? {};
  const expiry = typeof l.expiry_date_in_millis === 'number' ? l.expiry_date_in_millis : null;
  return {
    available: true,
    status: String(l.status ?? 'unknown'),
    type: String(l.type ?? 'unknown'),
    expiryMs: expiry,
    issuedTo: String(l.issued_to ?? ''),
  };
}

/** A licence within this many days of its expiry warns (the version rule's certificate window). */
export const LICENSE_WARN_DAYS = 30;

export function licenseFinding(view: LicenseView | undefined, now: number): Finding {
  if (!view) return { id: 'config.license', family: 'config', severity: 'unknown', finding: 'the licence was not read', evidence: [] };
  if (!view.available)
    return { id: 'config.license', family: 'config', severity: 'unknown', finding: `licence not judged: ${view.why}`, evidence: [] };
  const evidence = [
    `_license: ${view.type}, ${view.status}${view.expiryMs !== null ? `, expires ${new Date(view.expiryMs).toISOString()}` : ', no expiry'}`,
  ];
  const days = view.expiryMs === null ? null : (view.expiryMs - now) / 86_400_000;
  if (view.status === 'expired' || (days !== null && days <= 0))
    return {
      id: 'config.license',
      family: 'config',
      severity: 'critical',
      finding: `the ${view.type} licence has expired: the paid features stop (security keeps reads and writes, but monitoring and others are refused)`,
      evidence,
      remedy: 'install the renewed licence (PUT _license with its file), or start the basic one: POST _license/start_basic',
    };
  if (days !== null && days <= LICENSE_WARN_DAYS)
    return {
      id: 'config.license',
      family: 'config',
      severity: 'warn',
      finding: `the ${view.type} licence expires in ${Math.ceil(days)} day${Math.ceil(days) === 1 ? '' : 's'}`,
      evidence,
      remedy: 'renew it before then (PUT _license with the new file)',
    };
  return {
    id: 'config.license',
    family: 'config',
    severity: 'ok',
    finding: `${view.type} licence ${view.status}${days === null ? ', no expiry' : `, ${Math.floor(days)} days left`}`,
    evidence,
  };
}

export interface DanglingIndex {
  name: string;
  uuid: string;
  createdMs: number | null;
  nodes: string[];
}

export type DanglingView = { available: true; indices: DanglingIndex[] } | { available: false; why: string };

/** GET _dangling. */
export function parseDangling(body: Json): DanglingView {
  const list: Json[] = Array.isArray(body?.dangling_indices) ? body.dangling_indices : [];
  return {
    available: true,
    indices: list.map((d) => ({
      name: String(d.index_name ?? '?'),
      uuid: String(d.index_uuid ?? '?'),
      createdMs: typeof d.creation_date_millis === 'number' ? d.creation_date_millis : null,
      nodes: Array.isArray(d.node_ids) ? d.node_ids.map(String) : [],
    })),
  };
}

export function danglingFinding(view: DanglingView | undefined): Finding {
  if (!view) return { id: 'config.dangling', family: 'config', severity: 'unknown', finding: 'dangling indices not read', evidence: [] };
  if (!view.available)
    return {
      id: 'config.dangling',
      family: 'config',
      severity: 'unknown',
      finding: `dangling indices not judged: ${view.why}`,
      evidence: [],
    };
  if (!view.indices.length)
    return { id: 'config.dangling', family: 'config', severity: 'ok', finding: 'no dangling index', evidence: ['_dangling: none'] };
  return {
    id: 'config.dangling',
    family: 'config',
    severity: 'warn',
    finding: `${view.indices.length} dangling ind${view.indices.length === 1 ? 'ex' : 'ices'} on disk that the cluster does not know: ${view.indices
      .slice(0, 6)
      .map((d) => d.name)
      .join(', ')}`,
    evidence: view.indices
      .slice(0, 6)
      .map(
        (d) =>
          `${d.name} (uuid ${d.uuid}${d.createdMs ? `, created ${new Date(d.createdMs).toISOString()}` : ''}) on node(s) ${d.nodes.join(', ') || '?'}`,
      ),
    remedy:
      'an index deleted while a node was away, or a node moved from another cluster: import it (POST _dangling/<uuid>?accept_data_loss=true) if its data is wanted and no index of its name exists, else delete it (DELETE _dangling/<uuid>?accept_data_loss=true)',
  };
}

const isDedicatedFrozen = (roles: readonly string[]) =>
  roles.includes('data_frozen') && !roles.some((r) => r !== 'data_frozen' && (r === 'data' || r.startsWith('data_')));

/** config.frozen-flood: nodes whose only data role is data_frozen against the frozen tier's flood stage. */
export function frozenFloodFinding(
  settings: Pick<ClusterSettingsView, 'frozenFlood' | 'watermarks'>,
  nodes: readonly { name: string; roles?: string[] }[],
  disks: readonly NodeDisk[],
): Finding {
  const w = settings.frozenFlood;
  const evidence = [
    `cluster.routing.allocation.disk.watermark.flood_stage.frozen = ${w?.raw ?? '95%'}${w?.maxHeadroomBytes ? `, max_headroom ${formatBytes(w.maxHeadroomBytes)}` : ''}`,
  ];
  const frozen = nodes.filter((n) => n.roles && isDedicatedFrozen(n.roles));
  if (!frozen.length)
    return {
      id: 'config.frozen-flood',
      family: 'config',
      severity: 'ok',
      finding:
        'no dedicated frozen node: the frozen flood stage applies to none (a node with other data roles keeps the normal watermarks)',
      evidence: [
        ...evidence,
        `nodes with data_frozen among other data roles: ${
          nodes
            .filter((n) => n.roles?.includes('data_frozen'))
            .map((n) => n.name)
            .join(', ') || 'none'
        }`,
      ],
    };
  if (!w || !settings.watermarks.thresholdEnabled)
    return {
      id: 'config.frozen-flood',
      family: 'config',
      severity: 'unknown',
      finding: 'disk thresholds are off: no watermark is enforced',
      evidence,
    };
  const over = frozen.flatMap((n) => {
    const d = disks.find((x) => x.node === n.name);
    if (!d) return [];
    const need = requiredFreeBytes(w, d.totalBytes);
    evidence.push(
      `${n.name}: ${formatBytes(d.availBytes)} free of ${formatBytes(d.totalBytes)}; the flood stage keeps ${formatBytes(need)} free`,
    );
    return d.availBytes < need ? [n.name] : [];
  });
  if (!over.length)
    return {
      id: 'config.frozen-flood',
      family: 'config',
      severity: 'ok',
      finding: `${frozen.length} frozen node(s) below the frozen flood stage`,
      evidence,
    };
  return {
    id: 'config.frozen-flood',
    family: 'config',
    severity: 'critical',
    finding: `frozen node(s) ${over.join(', ')} past the frozen tier's flood stage: their searchable snapshots' indices are blocked for writes`,
    evidence,
    remedy: "free the frozen nodes' disk (their shared cache: xpack.searchable.snapshot.shared_cache.size), or add frozen nodes",
  };
}

export interface ConfigInputs {
  settings: ClusterSettingsView;
  disks: readonly NodeDisk[];
  shards: readonly ShardRow[];
  nodes: readonly { name: string; roles?: string[] }[];
  license?: LicenseView;
  dangling?: DanglingView;
  now: number;
}

export function configFindings(i: ConfigInputs): Finding[] {
  return [
    destructiveFinding(i.settings),
    sameHostFinding(i.settings, i.disks, i.shards),
    licenseFinding(i.license, i.now),
    danglingFinding(i.dangling),
    frozenFloodFinding(i.settings, i.nodes, i.disks),
  ];
}
