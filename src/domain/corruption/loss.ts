// What each way back from a corrupt primary loses, in documents, before the operator chooses
// (issue 48): a healthy replica loses none; a restore loses what was written since its snapshot
// (the index's last count before it turned red against the count taken with the snapshot); the
// offline repair loses the documents of the broken segments, which Lucene CheckIndex counts on a
// copy of the shard folder. Then, afterwards, what was expected against what was counted.
import { displayText } from '../text/display-text';
import { countOf, minuteUtc } from '../text/format';
import type { TimelineEntry } from '../timeline';
import type { CheckIndexResult } from './tool-output';

/** A count of an index's documents and where it comes from. */
export interface DocCount {
  docs: number;
  /** When it was read (ISO). */
  at: string;
  /** Where the figure comes from, in words ("the console's last read before it turned red"). */
  source: string;
}

export type RouteId = 'replica' | 'restore' | 'exorcise';

export interface RouteLoss {
  route: RouteId;
  /** Documents this route loses; null when it cannot be told (then `why`). */
  lost: number | null;
  /** The restore's figure is reckoned from two counts read at other times: "about". */
  about?: boolean;
  /** Why the loss is not known. */
  why?: string;
  /** The route in a few words ("restore from nightly/s1 of 2026-11-28 19:59 UTC"). */
  label: string;
  /** How the figure was reached, one clause. */
  basis?: string;
}

/**
 * The counts of `index` the timeline holds that a restore's loss is reckoned from: the last one
 * before the index turned red (else the newest count of it at all), and the one taken with the
 * snapshot (else the newest read at or before the snapshot started: an approximation).
 */
export function countsFromTimeline(
  entries: readonly TimelineEntry[],
  index: string,
  snapshot: { repository: string; name: string; startMs?: number },
): { before: DocCount | null; inSnapshot: DocCount | null } {
  const counts = entries.filter((e): e is Extract<TimelineEntry, { kind: 'count' }> => e.kind === 'count' && e.index === index);
  const newest = (list: typeof counts) => [...list].sort((a, b) => Date.parse(b.time) - Date.parse(a.time))[0];
  const red = newest(counts.filter((c) => c.before === 'red'));
  const anyCount = newest(counts);
  const beforeEntry = red ?? anyCount;
  const before: DocCount | null = beforeEntry
    ? {
        docs: beforeEntry.docs,
        at: beforeEntry.time,
        source: beforeEntry.before === 'red' ? 'the last read before it turned red' : 'the newest count on record',
      }
    : null;
  const tag = `${snapshot.repository}/${snapshot.name}`;
  const taken = newest(counts.filter((c) => c.snapshot === tag));
  const earlier = snapshot.startMs === undefined ? undefined : newest(counts.filter((c) => Date.parse(c.time) <= snapshot.startMs!));
  const inSnapshot: DocCount | null = taken
    ? { docs: taken.docs, at: taken.time, source: 'counted as the snapshot was taken' }
    : earlier
      ? { docs: earlier.docs, at: earlier.time, source: 'the last count before the snapshot started' }
      : null;
  return { before, inSnapshot };
}

/** What a restore from `snapshot` loses: about (before red) - (in the snapshot) documents written since it. */
export function restoreLoss(
  snapshot: { repository: string; name: string; startMs?: number },
  counts: { before: DocCount | null; inSnapshot: DocCount | null },
): RouteLoss {
  const when = snapshot.startMs !== undefined ? ` of ${minuteUtc(new Date(snapshot.startMs).toISOString())}` : '';
  const label = `restore from ${snapshot.repository}/${snapshot.name}${when}`;
  const { before, inSnapshot } = counts;
  if (!inSnapshot)
    return {
      route: 'restore',
      lost: null,
      label,
      why: "no count of the index at the snapshot's time is on record (shardeck counts it when it takes the snapshot): every document written since is lost, how many is not known",
    };
  if (!before || Date.parse(before.at) <= Date.parse(inSnapshot.at))
    return {
      route: 'restore',
      lost: null,
      label,
      why: `no read of the index after the snapshot is on record (the console records the last count before an index turns red): what was written since ${minuteUtc(inSnapshot.at)} is lost, how many is not known`,
    };
  const lost = Math.max(0, before.docs - inSnapshot.docs);
  return {
    route: 'restore',
    lost,
    about: true,
    label,
    basis: `${before.docs} documents at ${minuteUtc(before.at)} (${before.source}) against ${inSnapshot.docs} in the snapshot (${inSnapshot.source})${before.docs < inSnapshot.docs ? '; fewer now than then: deletes since' : ''}`,
  };
}

/** What the offline repair loses: the documents of the broken segments, as CheckIndex counted them on the copy. */
export function exorciseLoss(check: CheckIndexResult | null, why?: string): RouteLoss {
  const label = 'offline repair (CheckIndex -exorcise)';
  if (!check)
    return { route: 'exorcise', lost: null, label, why: why ?? 'not counted yet: CheckIndex has not read a copy of the shard folder' };
  return {
    route: 'exorcise',
    lost: check.lostDocs,
    label,
    basis: `CheckIndex on the copy: ${countOf(check.brokenSegments, 'broken segment')} of ${check.segments.length}, ${check.totalDocs} documents in all`,
  };
}

/** A healthy copy on another node: nothing is lost. */
export function replicaLoss(node: string): RouteLoss {
  return { route: 'replica', lost: 0, label: `the healthy copy on node ${node}`, basis: 'it holds every acknowledged write' };
}

/**
 * The route that loses least, among those whose loss is known; on a tie the earlier one in the
 * list (callers list replica, restore, repair: the restore does not stop the engine). Null when
 * no loss is known.
 */
export function leastLoss(routes: readonly RouteLoss[]): RouteLoss | null {
  let best: RouteLoss | null = null;
  for (const r of routes) if (r.lost !== null && (best === null || r.lost < (best.lost as number))) best = r;
  return best;
}

/** How much a route loses, first on its line (so a narrow screen keeps it): "about 337 documents written since". */
export function lossWords(r: RouteLoss): string {
  if (r.lost === null) return 'not known';
  if (r.route === 'replica') return 'no document';
  if (r.route === 'restore') return `about ${countOf(r.lost, 'document')} written since`;
  return `${countOf(r.lost, 'document')} (unidentified)`;
}

/**
 * The routes side by side, what each loses first, then the one that loses least: what the
 * checklist shows before the choice. Each route's line is followed by how its figure was reached
 * (or why it is not known), indented: a narrow screen drops those.
 */
export function comparisonLines(routes: readonly RouteLoss[]): string[] {
  const t = displayText;
  const best = leastLoss(routes);
  return [
    'what each way back loses:',
    ...routes.flatMap((r) => [
      `  ${t(lossWords(r))}: ${t(r.label)}`,
      ...(r.basis || r.why ? [`    ${t((r.basis ?? r.why) as string)}`] : []),
    ]),
    best
      ? `loses least: ${t(best.label)}${routes.some((r) => r.lost === null) ? ' (of those counted)' : ''}`
      : 'no route could be counted: choose knowing that',
  ];
}

/** Afterwards: what a route was expected to lose against what was counted once green (audit and timeline). */
export function lossAfterwards(
  index: string,
  route: RouteId | 'shard-tool',
  expected: { lost: number | null; docsBefore: number | null },
  docsAfter: number,
): { lost: number | null; text: string } {
  const lost = expected.docsBefore === null ? null : Math.max(0, expected.docsBefore - docsAfter);
  const what = route === 'restore' ? 'restored' : route === 'replica' ? 'recovered' : 'repaired';
  const exp =
    expected.lost === null ? 'the loss was not known beforehand' : `expected ${route === 'restore' ? 'about ' : ''}${expected.lost} lost`;
  const got =
    expected.docsBefore === null
      ? `${docsAfter} documents counted once green`
      : `${docsAfter} documents counted once green against ${expected.docsBefore} before: ${lost} lost`;
  return { lost, text: `${index} ${what}: ${exp}; ${got}` };
}
