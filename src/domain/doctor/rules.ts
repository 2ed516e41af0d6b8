// The doctor's rules as data (issue 41): one row per rule, the catalogue rows it answers
// (../shared/DOCTOR-CATALOGUE.md), and the rows no rule can answer here, with why. A finding's id
// starts with its rule's id (`disk.watermark.node-1` is rule `disk.watermark`); docs/DOCTOR-RULES.md
// is generated from this table (dev/doctor-rules.ts) and test/domain/doctor/rules.test.ts fails
// when they drift, when a finding has no rule, or when a catalogue row is answered by nothing.
// Pure.
import type { CheckFamily } from './finding';

export interface DoctorRule {
  /** A finding's id starts with it, at a dot. */
  id: string;
  family: CheckFamily;
  /** What it checks, in one line. */
  what: string;
  /** Its threshold ("" where it is a fact, not a number). */
  threshold: string;
  /** The severities it can give, worst first ("critical / warn"). */
  severity: string;
  remedy: string;
  /** The shardeck command or key that applies the fix, when there is one. */
  fix?: string;
  /** The catalogue rows (their "entry" column, exactly) it answers. */
  answers: string[];
}

/** The rules, by family. Where shardeck chose another threshold than the catalogues' usual one, `threshold` says why. */
export const DOCTOR_RULES: readonly DoctorRule[] = [
  // --- capacity, blocks ---
  {
    id: 'capacity.shards',
    family: 'capacity',
    what: "open shards against cluster.max_shards_per_node x data nodes, and how many more project indices fit at the template's shards",
    threshold: 'warn from 85% or fewer than 10 project indices; critical when the next one does not fit',
    severity: 'critical / warn',
    remedy: 'fewer shards per project index (shrink), close or delete unused indices, or raise the limit (heap and cluster-state cost)',
    fix: 'shardeck shrink INDEX --shards 1',
    answers: ['shard capacity', 'shards_capacity'],
  },
  {
    id: 'capacity.limit-raised',
    family: 'capacity',
    what: 'cluster.max_shards_per_node set above its default',
    threshold: 'above 1,000',
    severity: 'warn',
    remedy: 'fewer, larger shards; then put the default back',
    answers: ['`cluster.max_shards_per_node` raised'],
  },
  {
    id: 'blocks.cluster',
    family: 'blocks',
    what: 'cluster.blocks.read_only or read_only_allow_delete set: every index refuses writes',
    threshold: 'set',
    severity: 'critical',
    remedy: 'the one PUT _cluster/settings that sets it back to null (the only settings request the block lets through)',
    answers: ['cluster read-only block'],
  },
  {
    id: 'blocks.index-write',
    family: 'blocks',
    what: 'index.blocks.write on an index: its writes are refused',
    threshold: 'set',
    severity: 'critical',
    remedy: 'PUT /<those indices>/_settings {"index.blocks.write":null}, when nothing (a shrink) is under way on them',
    answers: ['index write block'],
  },
  {
    id: 'blocks.index-read-only',
    family: 'blocks',
    what: 'index.blocks.read_only on an index: writes and settings changes refused',
    threshold: 'set',
    severity: 'critical',
    remedy: 'PUT /<those indices>/_settings {"index.blocks.read_only":null}',
    answers: ['index write block'],
  },
  // --- disk ---
  {
    id: 'disk.watermark',
    family: 'disk',
    what: "a node's disk against the effective low, high and flood-stage watermarks (max_headroom included)",
    threshold: "the cluster's own watermarks (85% / 90% / 95% by default)",
    severity: 'critical (flood) / warn (high, low)',
    remedy: 'free disk (delete by query then force merge, delete old indices), add disk, or move shards away',
    fix: 'shardeck delete-by-query, shardeck forcemerge',
    answers: ['disk watermark low / high / flood stage', 'disk'],
  },
  {
    id: 'disk.read-only',
    family: 'disk',
    what: 'indices with the flood-stage block (index.blocks.read_only_allow_delete)',
    threshold: 'set',
    severity: 'critical',
    remedy: 'free disk below the high watermark (8.x lifts it itself), else clear the block',
    fix: 'U on the Disk pane, shardeck unblock',
    answers: ['disk'],
  },
  {
    id: 'disk.forecast',
    family: 'disk',
    what: 'when each node reaches its watermarks at the growth the console or the log saw',
    threshold: 'critical: flood stage within 24 h; warn: flood or high within a week',
    severity: 'critical / warn',
    remedy: 'free or add disk before it is reached',
    answers: ['disk'],
  },
  // --- shards ---
  {
    id: 'shards.health',
    family: 'shards',
    what: "the cluster's colour, and why it is not green",
    threshold: 'yellow: warn, red: critical',
    severity: 'critical / warn',
    remedy: 'the unassigned shards findings say why each is unassigned',
    answers: ['status red / status yellow'],
  },
  {
    id: 'shards.unassigned',
    family: 'shards',
    what: 'each distinct reason shards stay unassigned, with allocation explain (one explain per case)',
    threshold: 'any unassigned copy',
    severity: 'critical (primary) / warn (replica)',
    remedy: "allocation explain's deciders: the setting, the disk or the node that says no",
    fix: 'e on the Shards pane, shardeck explain INDEX SHARD',
    answers: ['shards_availability'],
  },
  {
    id: 'shards.corrupt',
    family: 'shards',
    what: 'a primary with no valid copy: corruption',
    threshold: 'no_valid_shard_copy or a corrupted marker',
    severity: 'critical',
    remedy: 'a replica, a snapshot or a backup first; else the checklist (CheckIndex -exorcise)',
    fix: 'C on the Shards pane, shardeck recover-corrupt',
    answers: ['corruption', 'shards_availability'],
  },
  {
    id: 'shards.no-replica',
    family: 'shards',
    what: 'indices with no replica on a cluster of several data nodes',
    threshold: 'number_of_replicas 0 with 2+ data nodes',
    severity: 'warn',
    remedy: 'one replica per index (seed rule 3): on the index and the template',
    fix: 'R on the Indices pane, shardeck replicas set INDEX 1',
    answers: ['indices without replicas'],
  },
  {
    id: 'shards.replicas-single-node',
    family: 'shards',
    what: 'replicas on a single data node: they can never be assigned (yellow)',
    threshold: 'number_of_replicas > 0 with one data node',
    severity: 'warn',
    remedy: 'number_of_replicas 0 on the index and the template (the seed)',
    fix: 'R on the Indices pane, shardeck replicas set INDEX 0',
    answers: ['status red / status yellow'],
  },
  // --- heap and the host's JVM ---
  {
    id: 'heap.xms-xmx',
    family: 'heap',
    what: 'the initial heap equals the maximum',
    threshold: 'Xms = Xmx',
    severity: 'warn',
    remedy: 'set both to the same value in the platform-named file of jvm.options.d',
    answers: ['initial heap equals maximum'],
  },
  {
    id: 'heap.ram',
    family: 'heap',
    what: 'the heap against RAM: at most 50%, 30% when the platform shares the host, never over 32 GB',
    threshold: '50% / 30% of RAM, 32 GB',
    severity: 'warn',
    remedy: 'lower -Xmx in the platform-named file of jvm.options.d',
    answers: [],
  },
  {
    id: 'heap.oops',
    family: 'heap',
    what: "the heap above the zero-based compressed-oops threshold the node's JVM reports",
    threshold: "the JVM's own report (about 30-32 GB)",
    severity: 'critical',
    remedy: 'a heap below the threshold (about 26-30 GB)',
    answers: ['heap above the compressed-oops threshold'],
  },
  {
    id: 'heap.options',
    family: 'heap',
    what: 'where the heap options come from (jvm.options, jvm.options.d, ES_JAVA_OPTS) and which wins',
    threshold: '',
    severity: 'warn / unknown',
    remedy: 'one setting, in the platform-named file of jvm.options.d',
    answers: [],
  },
  {
    id: 'tmp.folder',
    family: 'tmp',
    what: "the engine's temp folder: exists, writable by its user, not mounted noexec (JNA)",
    threshold: '',
    severity: 'critical / warn',
    remedy: "ES_TMPDIR in the sysconfig file to a folder of the engine's user, then restart",
    answers: [],
  },
  // --- search contexts, pressure ---
  {
    id: 'scroll.contexts',
    family: 'scroll',
    what: 'open scroll contexts against search.max_open_scroll_context',
    threshold: 'warn from 80% of the limit, critical at it',
    severity: 'critical / warn',
    remedy: "raise the limit (e.g. 1000) or shorten the clients' scroll keep-alive",
    fix: 'L on the Nodes pane, shardeck scroll-limit N',
    answers: [],
  },
  {
    id: 'pressure.rejections',
    family: 'pressure',
    what: 'write, search and get requests rejected by full thread-pool queues',
    threshold: 'any since the node started; critical when rejecting while watched',
    severity: 'critical / warn',
    remedy: 'fewer concurrent requests, smaller bulks; find the slow part (hot threads)',
    fix: 'P on the Nodes pane',
    answers: ['rejected indexing / search'],
  },
  {
    id: 'pressure.breaker',
    family: 'pressure',
    what: 'circuit breakers tripped, the parent first',
    threshold: 'any trip since the node started',
    severity: 'critical / warn',
    remedy: 'smaller requests (aggregations, bulks), more heap or more nodes',
    fix: 'P on the Nodes pane',
    answers: ['circuit breaker tripped'],
  },
  {
    id: 'pressure.old-gen',
    family: 'pressure',
    what: 'JVM memory pressure: old generation use after GC',
    threshold: 'warn above 85%, critical above 95%',
    severity: 'critical / warn',
    remedy: 'fewer shards, smaller requests, then more heap',
    fix: 'P on the Nodes pane',
    answers: ['high JVM memory pressure'],
  },
  {
    id: 'pressure.cpu',
    family: 'pressure',
    what: "CPU sustained high across the console's samples",
    threshold: '90% or more in each of the last 6 samples (the catalogues: 80-90% sustained)',
    severity: 'warn',
    remedy: 'hot threads say what burns it; spread the load',
    fix: 'shardeck hot-threads',
    answers: ['high CPU (sustained)'],
  },
  {
    id: 'pending.queue',
    family: 'pending',
    what: "the master's queue of cluster-state updates, its oldest task",
    threshold: 'oldest waiting a minute or more',
    severity: 'warn',
    remedy: 'fewer mapping and settings changes at once; a stuck master',
    fix: 'shardeck pending',
    answers: ['pending cluster tasks'],
  },
  {
    id: 'hotspots.nodes',
    family: 'hotspots',
    what: 'shards, disk or writes uneven across data nodes',
    threshold: 'one node far above its peers',
    severity: 'warn',
    remedy: 'rebalance (allocation), spread the indices written most',
    answers: ['hot spotting'],
  },
  {
    id: 'hotspots.node',
    family: 'hotspots',
    what: 'one node carrying far more than its peers',
    threshold: 'shards, disk or writes far above the mean',
    severity: 'warn',
    remedy: 'rebalance (allocation), spread the indices written most',
    answers: ['hot spotting'],
  },
  {
    id: 'mapping.field-limit',
    family: 'mapping',
    what: 'mapped fields near index.mapping.total_fields.limit',
    threshold: 'warn from 90% of the limit, critical at it',
    severity: 'critical / warn',
    remedy: 'stop indexing unknown fields (a component template with enabled: false)',
    fix: 'shardeck field-limits, shardeck component-template',
    answers: ['mapping explosion'],
  },
  // --- the health report's indicators; the master and the nodes by role; ILM; snapshots and SLM ---
  {
    id: 'health.report',
    family: 'health',
    what: 'each _health_report indicator (8.7+) not green that no rule of its own judges (shards_availability, disk, shards_capacity, any later one), with its symptom, impacts and diagnoses (cause, action, affected indices) from its verbose answer; before 8.7, what could not be judged',
    threshold: "the indicator's own colour (verbose read only for indicators not green)",
    severity: 'critical (red) / warn (yellow) / unknown',
    remedy: "the diagnoses' actions",
    answers: [],
  },
  {
    id: 'health.data-stream-lifecycle',
    family: 'health',
    what: 'backing indices the data stream lifecycle (8.11+) cannot move on: the data_stream_lifecycle indicator; a node without it is said, not judged',
    threshold: "the indicator's colour",
    severity: 'critical / warn / unknown',
    remedy: "the indicator's diagnoses (GET _data_stream/<name>/_lifecycle/explain says why each index stagnates)",
    answers: ['data_stream_lifecycle'],
  },
  {
    id: 'health.file-settings',
    family: 'health',
    what: 'file-based settings (config/operator/settings.json) that failed to apply: the file_settings indicator, else metadata.reserved_state.file_settings.errors of the cluster state (8.4+)',
    threshold: 'any error of the last apply',
    severity: 'warn',
    remedy: 'fix the file on the master-eligible nodes and raise its metadata.version',
    answers: ['file_settings'],
  },
  {
    id: 'master.stable',
    family: 'master',
    what: "an elected master, and no election while watched: the master_is_stable indicator (8.7+), the master and election term in the doctor's two reads, the masters the console saw",
    threshold:
      "no master: critical; a new master or a higher term between the two reads (3 s apart), or more than one master in the console's session: warn",
    severity: 'critical / warn',
    remedy: "the master-eligible nodes' logs around the election (GC pauses, a node that left, the network)",
    answers: ['master_is_stable', 'master not discovered / master changed'],
  },
  {
    id: 'master.node-left',
    family: 'master',
    what: 'nodes that left, with their roles: master-eligible ids of the voting configuration not in the cluster, data nodes named by NODE_LEFT shards, every node the console saw go (with the roles it saw)',
    threshold: 'any',
    severity: 'warn',
    remedy:
      'bring the node back; if gone for good, its replicas are rebuilt after the delayed timeout and a master-eligible one is excluded from voting',
    answers: ['a node left, by role'],
  },
  {
    id: 'master.load',
    family: 'master',
    what: 'the elected master loaded: CPU or old generation',
    threshold: "CPU 90% or more in both reads (or the console's last 6 samples), or old generation above 85%",
    severity: 'warn',
    remedy:
      'move searches and bulks off a master that holds data; fewer cluster-state changes; dedicated master-eligible nodes on a cluster of several nodes',
    answers: ['loaded master-eligible nodes'],
  },
  {
    id: 'master.ha',
    family: 'master',
    what: 'enough master-eligible nodes to lose one',
    threshold: "fewer than 3 master-eligible nodes warns; one node alone is information (the platform's single node: ok)",
    severity: 'warn',
    remedy: 'three master-eligible nodes',
    answers: ['not highly available'],
  },
  {
    id: 'ilm.status',
    family: 'ilm',
    what: 'ILM running and no index stagnating in one action: the ilm indicator (8.7+), else GET _ilm/status and _ilm/explain; a node without ILM (the test distribution) is said, not judged',
    threshold: "not RUNNING; an index over 24 h in one action with 100 retries (the indicator's own)",
    severity: 'warn / unknown',
    remedy: 'POST _ilm/start; fix what the stagnating step waits for, then POST <index>/_ilm/retry',
    answers: ['ilm'],
  },
  {
    id: 'ilm.error',
    family: 'ilm',
    what: 'indices in the ILM ERROR step (GET _all/_ilm/explain), with the reason each gave',
    threshold: 'any',
    severity: 'warn / unknown',
    remedy: 'fix what the reason names, then POST <index>/_ilm/retry',
    answers: ['ILM index in the ERROR step'],
  },
  {
    id: 'snapshots.slm',
    family: 'snapshots',
    what: 'SLM running and its policies not failing: the slm indicator (8.7+, which counts failures since the last success), else GET _slm/status and _slm/policy; a node without SLM is said, not judged',
    threshold: 'SLM not RUNNING with policies; a policy whose last run failed after its last success (the indicator: 5 in a row)',
    severity: 'warn / unknown',
    remedy: 'POST _slm/start; fix what the failure names, then POST _slm/policy/<id>/_execute',
    answers: ['slm'],
  },
  {
    id: 'snapshots.repository',
    family: 'snapshots',
    what: "repositories corrupt, unknown or invalid: the repository_integrity indicator (8.7+), else whether each repository's listing can be read",
    threshold: 'any',
    severity: 'critical / warn',
    remedy: 'register it again once only this cluster writes to it; make its location reachable from every node',
    fix: 'shardeck snapshots',
    answers: ['repository_integrity'],
  },
  {
    id: 'snapshots.missing',
    family: 'snapshots',
    what: 'open indices without a whole copy in a snapshot that ended within the expected period',
    threshold: "--snapshot-every or the profile's doctorSnapshotEvery (off when unset)",
    severity: 'warn / unknown',
    remedy: 'take one now and schedule them',
    fix: 'shardeck snapshot create REPOSITORY',
    answers: ['snapshot missing or failing'],
  },
  {
    id: 'snapshots.failing',
    family: 'snapshots',
    what: "repeated snapshot failures: a repository's newest snapshots failed one after the other; an SLM policy failing since its last success",
    threshold: '2 in a row (FAILED or PARTIAL)',
    severity: 'warn',
    remedy: "what the failures name (a red index, the repository's disk), then one by hand to check",
    fix: 'shardeck snapshots',
    answers: ['snapshot missing or failing'],
  },
  // --- versions, access, log, upgrade ---
  {
    id: 'versions.engine',
    family: 'versions',
    what: "each node's Elasticsearch version against what shardeck knows",
    threshold: '8.x',
    severity: 'warn',
    remedy: 'upgrade within 8.x',
    answers: [],
  },
  {
    id: 'versions.mixed',
    family: 'versions',
    what: 'nodes on different versions (a rolling upgrade left half-way)',
    threshold: 'more than one version',
    severity: 'warn',
    remedy: 'finish the rolling upgrade',
    fix: 'shardeck restart-node',
    answers: [],
  },
  {
    id: 'versions.transport',
    family: 'versions',
    what: 'HTTP without TLS where the platform expects HTTPS (3.7.4+)',
    threshold: '',
    severity: 'warn',
    remedy: 'xpack.security.http.ssl on the node',
    answers: [],
  },
  {
    id: 'versions.certificate',
    family: 'versions',
    what: "the node's certificates: expired or expiring",
    threshold: 'warn within 30 days, critical within 7',
    severity: 'critical / warn',
    remedy: 'a new certificate before it expires',
    answers: [],
  },
  {
    id: 'access.privileges',
    family: 'access',
    what: 'the privileges this user lacks for what shardeck reads and changes',
    threshold: '',
    severity: 'warn',
    remedy: "the watcher or operator role of the README's roles",
    answers: [],
  },
  {
    id: 'log.file',
    family: 'log',
    what: "the node's log could not be read here",
    threshold: '',
    severity: 'unknown',
    remedy: 'run on the storage node, or --log FILE',
    answers: [],
  },
  {
    id: 'log.scroll-contexts',
    family: 'log',
    what: 'the seed\'s error "Trying to create too many scroll contexts" in the log',
    threshold: 'any',
    severity: 'warn',
    remedy: 'raise search.max_open_scroll_context or shorten the scroll keep-alive',
    fix: 'shardeck scroll-limit N',
    answers: [],
  },
  {
    id: 'log.jna',
    family: 'log',
    what: 'the seed\'s error "Unable to load JNA native support library" in the log',
    threshold: 'any',
    severity: 'warn',
    remedy: "ES_TMPDIR to a folder of the engine's user, then restart",
    answers: [],
  },
  {
    id: 'log.cluster-block',
    family: 'log',
    what: 'a cluster block exception in the log, blamed on the block it names (flood stage: the disk)',
    threshold: 'any',
    severity: 'warn',
    remedy: 'free disk then clear the flood-stage block; another block: the request that lifts it',
    fix: 'shardeck unblock',
    answers: ['cluster read-only block'],
  },
  {
    id: 'log.corrupt',
    family: 'log',
    what: 'corrupt_index_exception / no_valid_shard_copy in the log',
    threshold: 'any',
    severity: 'warn',
    remedy: 'replicas, snapshots or backups first; else the checklist',
    fix: 'shardeck recover-corrupt',
    answers: ['corruption'],
  },
  {
    id: 'upgrade',
    family: 'upgrade',
    what: 'deprecations: _migration/deprecations and the deprecation log',
    threshold: 'critical issues block the next major',
    severity: 'critical / warn',
    remedy: 'what each issue says, before upgrading',
    fix: 'shardeck deprecations',
    answers: [],
  },
];

/** Catalogue rows no rule can answer on this kind of node, and why (the issue accepts a reasoned "not applicable"). */
export const NOT_APPLICABLE: readonly { row: string; why: string }[] = [];

/** The rule a finding id belongs to: the longest rule id it starts with, at a dot. */
export function ruleOf(findingId: string): DoctorRule | undefined {
  return DOCTOR_RULES.filter((r) => findingId === r.id || findingId.startsWith(`${r.id}.`)).sort((a, b) => b.id.length - a.id.length)[0];
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** docs/DOCTOR-RULES.md's table, from the rules (dev/doctor-rules.ts writes it; a test compares). */
export function ruleTableMarkdown(): string {
  const rows = DOCTOR_RULES.map(
    (r) =>
      `| \`${r.id}\` | ${cell(r.what)} | ${cell(r.threshold || '-')} | ${r.severity} | ${cell(r.remedy)} | ${r.fix ? cell(r.fix) : '-'} | ${r.answers.map(cell).join('; ') || '-'} |`,
  );
  const na = NOT_APPLICABLE.map((n) => `| ${cell(n.row)} | ${cell(n.why)} |`);
  return [
    '| rule | what it checks | threshold | severity | remedy | fix | catalogue rows |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...(na.length ? ['Catalogue rows not judged here, and why:', '', '| catalogue row | why |', '| --- | --- |', ...na] : []),
  ].join('\n');
}
