// Allocation filters (issue 43 item 2): every cluster and index level include / exclude / require
// (_name, _ip, _host, _id, node attributes), the nodes each one keeps shards off, and the request
// that clears one. Matching follows Elasticsearch's DiscoveryNodeFilters: comma-separated values,
// `*` wildcards; include keeps shards on nodes matching any value, exclude off nodes matching any,
// require on nodes matching every value.
import type { MutationPlan } from '../mutation/plan';
import { flatten } from './cluster-settings';
import { compareText } from '../text/order';

type Json = Record<string, unknown>;

export type FilterKind = 'include' | 'exclude' | 'require';

export interface FilterNode {
  name: string;
  id: string;
  ip: string;
  host: string;
  attributes: Record<string, string>;
}

export interface AllocationFilter {
  /** cluster: a cluster setting (persistent or transient); index: a setting of `index`. */
  level: 'cluster' | 'index';
  origin: 'persistent' | 'transient' | 'index';
  index?: string;
  key: string;
  kind: FilterKind;
  attribute: string;
  value: string;
  /** The nodes this filter keeps the shards it governs off. */
  keepsOff: string[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** GET _nodes?filter_path=nodes.*.name,nodes.*.host,nodes.*.ip,nodes.*.attributes */
export function parseFilterNodes(body: unknown): FilterNode[] {
  const nodes = ((body ?? {}) as { nodes?: Record<string, Json> }).nodes ?? {};
  return Object.entries(nodes)
    .map(([id, n]) => ({
      id,
      name: str(n.name),
      ip: str(n.ip),
      host: str(n.host),
      attributes: Object.fromEntries(Object.entries((n.attributes ?? {}) as Json).map(([k, v]) => [k, str(v)])),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

const FILTER_KEY = /^(cluster|index)\.routing\.allocation\.(include|exclude|require)\.(.+)$/;

/** A filter key (not the index's data tier preference, which is not a filter of nodes by name). */
export function isFilterKey(key: string): boolean {
  const m = FILTER_KEY.exec(key);
  return m !== null && m[3] !== '_tier_preference';
}

function simpleMatch(pattern: string, value: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(value);
}

/** Whether a node matches one value of a filter's attribute. */
function nodeMatches(node: FilterNode, attribute: string, value: string): boolean {
  switch (attribute) {
    case '_name':
      return simpleMatch(value, node.name);
    case '_id':
      return simpleMatch(value, node.id);
    case '_ip':
    case '_host_ip':
    case '_publish_ip':
      return simpleMatch(value, node.ip);
    case '_host':
      return simpleMatch(value, node.host) || simpleMatch(value, node.ip);
    default:
      return node.attributes[attribute] !== undefined && simpleMatch(value, node.attributes[attribute]);
  }
}

export function keepsOff(kind: FilterKind, attribute: string, value: string, nodes: readonly FilterNode[]): string[] {
  const values = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const allowed = (n: FilterNode): boolean => {
    if (kind === 'exclude') return !values.some((v) => nodeMatches(n, attribute, v));
    if (kind === 'include') return values.length === 0 || values.some((v) => nodeMatches(n, attribute, v));
    return values.every((v) => nodeMatches(n, attribute, v));
  };
  return nodes.filter((n) => !allowed(n)).map((n) => n.name);
}

function filterOf(
  key: string,
  value: string,
  where: Pick<AllocationFilter, 'level' | 'origin' | 'index'>,
  nodes: readonly FilterNode[],
): AllocationFilter | null {
  if (!isFilterKey(key) || value === '') return null;
  const [, , kind, attribute] = FILTER_KEY.exec(key)!;
  return { ...where, key, kind: kind as FilterKind, attribute, value, keepsOff: keepsOff(kind as FilterKind, attribute, value, nodes) };
}

/**
 * Every filter: the cluster's (GET _cluster/settings?flat_settings=true) and each index's
 * (GET _settings?filter_path=*.settings.index.routing.allocation, nested), with the nodes each
 * keeps shards off.
 */
export function allocationFilters(clusterSettings: unknown, indexSettings: unknown, nodes: readonly FilterNode[]): AllocationFilter[] {
  const out: AllocationFilter[] = [];
  const c = (clusterSettings ?? {}) as Json;
  for (const origin of ['persistent', 'transient'] as const)
    for (const [k, v] of Object.entries(flatten(c[origin]))) {
      const f = filterOf(k, Array.isArray(v) ? v.join(',') : v, { level: 'cluster', origin }, nodes);
      if (f) out.push(f);
    }
  for (const [index, s] of Object.entries((indexSettings ?? {}) as Record<string, { settings?: unknown }>))
    for (const [k, v] of Object.entries(flatten(s.settings))) {
      const f = filterOf(k, Array.isArray(v) ? v.join(',') : v, { level: 'index', origin: 'index', index }, nodes);
      if (f) out.push(f);
    }
  return out.sort((a, b) =>
    a.level !== b.level ? (a.level === 'cluster' ? -1 : 1) : compareText(`${a.index ?? ''} ${a.key}`, `${b.index ?? ''} ${b.key}`),
  );
}

/** Clears one filter: the cluster's at every level it is set, or one index's. Read back. */
export function clearFilterPlan(found: readonly AllocationFilter[]): MutationPlan {
  const f = found[0];
  if (f.level === 'index') {
    const index = f.index!;
    return {
      method: 'PUT',
      path: `/${encodeURIComponent(index)}/_settings`,
      querystring: {},
      body: { [f.key]: null },
      risk: 'reversible',
      target: index,
      summary: `clear the allocation filter ${f.key} = ${f.value} of ${index} (it kept its shards off ${f.keepsOff.join(', ') || 'no node now'})`,
      resolved: { expression: index, indices: [index] },
      verify: {
        path: `/${encodeURIComponent(index)}/_settings`,
        querystring: { flat_settings: 'true' },
        check(body) {
          const v = ((body ?? {}) as Record<string, { settings?: Json }>)[index]?.settings?.[f.key];
          return v === undefined
            ? { ok: true, message: `${f.key} is unset on ${index}` }
            : { ok: false, message: `${f.key} is still ${str(v)} on ${index}` };
        },
      },
    };
  }
  const body: Record<string, Record<string, null>> = {};
  for (const x of found) body[x.origin] = { [x.key]: null };
  return {
    method: 'PUT',
    path: '/_cluster/settings',
    querystring: { flat_settings: 'true' },
    body,
    risk: 'reversible',
    target: f.key,
    summary: `clear the cluster allocation filter ${f.key} = ${f.value} (${found.map((x) => x.origin).join(' and ')}; it kept shards off ${f.keepsOff.join(', ') || 'no node now'})`,
    verify: {
      path: '/_cluster/settings',
      querystring: { flat_settings: 'true' },
      check(res) {
        const r = (res ?? {}) as Record<string, Json | undefined>;
        const left = found.filter((x) => r[x.origin]?.[f.key] !== undefined);
        return left.length === 0
          ? { ok: true, message: `${f.key} is unset` }
          : { ok: false, message: `${f.key} is still set (${left.map((x) => x.origin).join(', ')})` };
      },
    },
  };
}
