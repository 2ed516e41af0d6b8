// The one place that maps an Elasticsearch version to what shardeck may ask of it. cluster/ asks
// `lacks` before a read (a read the node cannot answer is never sent, so never retried), panes show
// `missingText` and their substitute, and a major shardeck does not know is refused at connect
// (`refusal`) with one message instead of failing pane by pane.

export interface EsVersion {
  major: number;
  minor: number;
  patch: number;
  /** As the node said it (8.6.2, 8.19.0-SNAPSHOT). */
  text: string;
}

/** "8.6.2" (also "8.6.2-SNAPSHOT", "8.19.0-beta1") as numbers; undefined when it is not a version. */
export function parseEsVersion(text: string | undefined): EsVersion | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(String(text ?? '').trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), text: m[0] } : undefined;
}

/** Negative when a is older than b. */
export function compareVersions(a: EsVersion, b: EsVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** The oldest of the versions (a fleet mid-upgrade): what every node can answer. */
export function oldestVersion(texts: readonly string[]): EsVersion | undefined {
  return texts
    .map(parseEsVersion)
    .filter((v): v is EsVersion => !!v)
    .sort(compareVersions)[0];
}

/** The majors shardeck is built and tested for (the client is @elastic/elasticsearch 8.x). */
export const KNOWN_MAJORS = [8] as const;

/** Why shardeck will not talk to this version, or undefined when it may. */
export function refusal(v: EsVersion): string | undefined {
  if ((KNOWN_MAJORS as readonly number[]).includes(v.major)) return undefined;
  const why =
    v.major > 8
      ? 'shardeck is built and tested for Elasticsearch 8.x; several of its reads and changes differ in 9.x (docs/ES9.md)'
      : 'shardeck needs Elasticsearch 8.0 or newer (its client speaks the 8.x REST API)';
  return `this node runs Elasticsearch ${v.text}: ${why}. Use a shardeck release made for ${v.major}.x.`;
}

/** What a version may lack, with the version that brought it and what shardeck shows instead. */
export const FEATURES = {
  healthReport: {
    since: '8.7.0',
    what: 'the health report (GET _health_report)',
    substitute: "shardeck's own diagnosis: cluster health, unassigned shards by reason (allocation explain on demand), disk watermarks",
  },
  desiredBalance: {
    since: '8.6.0',
    what: 'the desired balance (GET _internal/desired_balance: why shards move)',
    substitute: 'nothing: not on this version (shard placement is still shown on the Shards pane)',
  },
  // 8.0 answers "request [/x/_forcemerge] contains unrecognized parameter: [wait_for_completion]".
  forcemergeTask: {
    since: '8.1.0',
    what: 'a force merge run as a task (wait_for_completion=false)',
    substitute: 'the merge is sent and waited for in the request itself (no task to follow or re-attach)',
  },
} as const satisfies Record<string, { since: string; what: string; substitute: string }>;

export type Feature = keyof typeof FEATURES;

/** Whether the node of version `v` lacks `f`. An unknown version lacks nothing (the node is asked; it answers or fails). */
export function lacks(v: EsVersion | undefined, f: Feature): boolean {
  if (!v) return false;
  return compareVersions(v, parseEsVersion(FEATURES[f].since)!) < 0;
}

/** The features the version lacks. */
export function missingFeatures(v: EsVersion | undefined): Feature[] {
  return (Object.keys(FEATURES) as Feature[]).filter((f) => lacks(v, f));
}

/** One sentence for a pane or a command: what is missing, from which version, what is shown instead. */
export function missingText(v: EsVersion, f: Feature): string {
  const spec = FEATURES[f];
  return `${spec.what} needs Elasticsearch ${spec.since.replace(/\.0$/, '')} or newer (this node runs ${v.text}); shown instead: ${spec.substitute}`;
}
