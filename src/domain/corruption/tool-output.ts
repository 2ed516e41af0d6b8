// What the repair tools print: Lucene CheckIndex's verdict and elasticsearch-shard's reroute.

export interface CheckIndexSegment {
  name: string;
  maxDoc: number;
  broken: boolean;
}

export interface CheckIndexResult {
  /** Live documents in the commit CheckIndex opened (before anything was removed). */
  totalDocs: number;
  segments: CheckIndexSegment[];
  brokenSegments: number;
  /** Documents in the broken segments: lost by the repair, and not identified. */
  lostDocs: number;
  /** -exorcise (or elasticsearch-shard) wrote a commit without the broken segments. */
  wroteNewSegments: boolean;
}

/**
 * The verdict of Lucene CheckIndex (also embedded in elasticsearch-shard's output; the first
 * report counts), or null when the output holds none: the tool failed before it could check.
 */
export function parseCheckIndex(text: string): CheckIndexResult | null {
  const total = /^\S+% total deletions; (\d+) documents; \d+ deletions/m.exec(text);
  const broken = /WARNING: (\d+) broken segments \(containing (\d+) documents\) detected/.exec(text);
  const clean = /No problems were detected with this index/.test(text);
  if (!total || (!broken && !clean)) return null;
  // Segment blocks of the first report only (elasticsearch-shard checks twice).
  const firstReport = text.slice(total.index, broken ? broken.index : undefined);
  const segments: CheckIndexSegment[] = [];
  // Stryker disable next-line MethodExpression: equivalent, the text before the first block is no segment header (m below is null)
  const blocks = firstReport.split(/^(?=\d+ of \d+: name=)/m).slice(1);
  for (const b of blocks) {
    // Stryker disable next-line Regex: equivalent, every block starts with the header the split cut at
    const m = /^\d+ of \d+: name=(\S+) maxDoc=(\d+)/.exec(b);
    if (m) segments.push({ name: m[1], maxDoc: Number(m[2]), broken: /\.\.\.FAILED|FAILED\n|exorciseIndex\(\) would remove/.test(b) });
  }
  return {
    totalDocs: Number(total[1]),
    segments,
    brokenSegments: broken ? Number(broken[1]) : 0,
    lostDocs: broken ? Number(broken[2]) : 0,
    wroteNewSegments: /Wrote new segments file/.test(text),
  };
}

/** Several shards' verdicts as one (an index of several shards): their documents, segments and losses added up. */
export function combinedCheck(checks: readonly CheckIndexResult[]): CheckIndexResult {
  return {
    totalDocs: checks.reduce((n, c) => n + c.totalDocs, 0),
    segments: checks.flatMap((c) => c.segments),
    brokenSegments: checks.reduce((n, c) => n + c.brokenSegments, 0),
    lostDocs: checks.reduce((n, c) => n + c.lostDocs, 0),
    wroteNewSegments: checks.some((c) => c.wroteNewSegments),
  };
}

/** The allocate_stale_primary that elasticsearch-shard prints after its repair, or null. */
export function parseShardToolReroute(text: string): { index: string; shard: number; node: string } | null {
  const at = text.indexOf('POST /_cluster/reroute');
  if (at < 0) return null;
  const open = text.indexOf('{', at);
  let depth = 0;
  // Stryker disable next-line EqualityOperator,ConditionalExpression: equivalent, open is never 0 (the POST line comes first),
  // text[length] is no brace, and with open -1 the slice parsed below is no JSON (null alike)
  for (let i = open; i >= 0 && i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) {
      try {
        // Stryker disable next-line OptionalChaining: equivalent, a missing level throws and the catch below answers null alike
        const cmd = JSON.parse(text.slice(open, i + 1))?.commands?.[0]?.allocate_stale_primary;
        if (cmd && typeof cmd.index === 'string' && typeof cmd.node === 'string')
          return { index: cmd.index, shard: Number(cmd.shard), node: cmd.node };
      } catch {
        /* not the JSON we expect */
      }
      return null;
    }
  }
  return null;
}
