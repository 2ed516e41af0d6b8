// The read requests behind the live panes, as data. Each asks only for the columns shown
// (`h=`, `bytes=b`, `filter_path`), so a poll costs the node as little as possible.
// dev/record-fixtures.ts replays exactly these against a real node to record test fixtures,
// and the benchmark counts their bytes.

export interface ReadRequest {
  method: 'GET';
  path: string;
  querystring: Record<string, string>;
}

function cat(path: string, h: string[], extra: Record<string, string> = {}): ReadRequest {
  return { method: 'GET', path, querystring: { format: 'json', bytes: 'b', h: h.join(','), ...extra } };
}

export const READS = {
  health: { method: 'GET', path: '/_cluster/health', querystring: {} },
  // verbose=false skips the expensive root-cause analysis; diagnoses are fetched per indicator on demand.
  healthReport: { method: 'GET', path: '/_health_report', querystring: { verbose: 'false' } },
  indices: cat('/_cat/indices', [
    'health',
    'status',
    'index',
    'uuid',
    'pri',
    'rep',
    'docs.count',
    'docs.deleted',
    'store.size',
    'pri.store.size',
  ], { expand_wildcards: 'all' }),
  shards: cat('/_cat/shards', [
    'index',
    'shard',
    'prirep',
    'state',
    'node',
    'docs',
    'store',
    'unassigned.reason',
    'unassigned.details',
  ]),
  allocation: cat('/_cat/allocation', ['node', 'host', 'ip', 'shards', 'disk.indices', 'disk.used', 'disk.avail', 'disk.total']),
  // Nested (not flat_settings): filter_path cannot match dotted flat keys, the real node returns {}.
  settings: {
    method: 'GET',
    path: '/_cluster/settings',
    querystring: {
      include_defaults: 'true',
      filter_path: '*.cluster.routing.allocation.disk.watermark,*.cluster.routing.allocation.disk.threshold_enabled,*.search.max_open_scroll_context',
    },
  },
  // Only indices that carry a block appear, so this does not grow with the number of indices.
  blocks: {
    method: 'GET',
    path: '/_all/_settings/index.blocks.*',
    querystring: { filter_path: '*.settings.index.blocks', expand_wildcards: 'all' },
  },
  nodes: cat('/_cat/nodes', ['id', 'name', 'ip', 'version', 'node.role', 'master', 'heap.current', 'heap.max', 'ram.max', 'cpu', 'load_1m'], {
    full_id: 'true',
  }),
  nodeSearch: {
    method: 'GET',
    path: '/_nodes/stats/indices/search',
    querystring: { filter_path: 'nodes.*.name,nodes.*.indices.search.open_contexts,nodes.*.indices.search.scroll_current' },
  },
} satisfies Record<string, ReadRequest>;

export type ReadName = keyof typeof READS;

export function healthReportIndicatorRequest(indicator: string): ReadRequest {
  return { method: 'GET', path: `/_health_report/${encodeURIComponent(indicator)}`, querystring: { verbose: 'true' } };
}
