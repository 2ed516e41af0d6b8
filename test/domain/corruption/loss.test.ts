// Issue 48: what each way back from a corrupt primary loses, in documents, before the choice, as
// plain values: the restore's from two counts on record (the last before red, the one taken with
// the snapshot), the repair's from CheckIndex on the copy, a replica's none; the least one named.
import { describe, expect, it } from 'vitest';
import {
  comparisonLines,
  countsFromTimeline,
  exorciseLoss,
  leastLoss,
  lossAfterwards,
  replicaLoss,
  restoreLoss,
} from '../../../src/domain/corruption/loss';
import type { CheckIndexResult } from '../../../src/domain/corruption/tool-output';
import type { TimelineEntry } from '../../../src/domain/timeline';

const snap = { repository: 'nightly', name: 's1', startMs: Date.parse('2026-11-28T10:00:00Z') };
const entries: TimelineEntry[] = [
  { kind: 'count', time: '2026-11-28T09:00:00Z', index: 'idx', docs: 1500 },
  { kind: 'count', time: '2026-11-28T09:59:58Z', index: 'idx', docs: 2000, snapshot: 'nightly/s1' },
  { kind: 'count', time: '2026-11-28T11:00:00Z', index: 'other', docs: 9, before: 'red' },
  { kind: 'count', time: '2026-11-28T11:30:00Z', index: 'idx', docs: 2337, before: 'red' },
  { kind: 'note', time: '2026-11-28T11:31:00Z', author: 'ops', text: 'red' },
];
const check: CheckIndexResult = {
  totalDocs: 2337,
  segments: [
    { name: '_0', maxDoc: 2000, broken: false },
    { name: '_1', maxDoc: 300, broken: false },
    { name: '_2', maxDoc: 37, broken: true },
  ],
  brokenSegments: 1,
  lostDocs: 37,
  wroteNewSegments: false,
};

describe('countsFromTimeline', () => {
  it('the last count before red, against the count taken with the snapshot', () => {
    expect(countsFromTimeline(entries, 'idx', snap)).toEqual({
      before: { docs: 2337, at: '2026-11-28T11:30:00Z', source: 'the last read before it turned red' },
      inSnapshot: { docs: 2000, at: '2026-11-28T09:59:58Z', source: 'counted as the snapshot was taken' },
    });
  });

  it('no count taken with that snapshot: the last one before it started, said to be that', () => {
    const c = countsFromTimeline(entries, 'idx', { ...snap, name: 'other' });
    expect(c.inSnapshot).toEqual({ docs: 2000, at: '2026-11-28T09:59:58Z', source: 'the last count before the snapshot started' });
  });

  it('another index of the same name-prefix is not taken; nothing on record is null', () => {
    expect(countsFromTimeline(entries, 'id', snap)).toEqual({ before: null, inSnapshot: null });
  });
});

describe('restoreLoss', () => {
  it('about the difference: written since the snapshot', () => {
    const r = restoreLoss(snap, countsFromTimeline(entries, 'idx', snap));
    expect(r).toMatchObject({ route: 'restore', lost: 337, about: true, label: 'restore from nightly/s1 of 2026-11-28 10:00 UTC' });
    expect(r.basis).toBe(
      '2337 documents at 2026-11-28 11:30 UTC (the last read before it turned red) against 2000 in the snapshot (counted as the snapshot was taken)',
    );
  });

  it('no count with the snapshot, or none after it: not known, and why', () => {
    expect(restoreLoss(snap, { before: null, inSnapshot: null })).toMatchObject({
      lost: null,
      why: expect.stringMatching(/^no count of the index at the snapshot's time/),
    });
    const only = countsFromTimeline(entries.slice(0, 2), 'idx', snap);
    expect(restoreLoss(snap, only)).toMatchObject({ lost: null, why: expect.stringMatching(/^no read of the index after the snapshot/) });
  });

  it('fewer documents before red than in the snapshot (deletes since): none lost, said', () => {
    const r = restoreLoss(snap, {
      before: { docs: 1900, at: '2026-11-28T11:00:00Z', source: 's' },
      inSnapshot: { docs: 2000, at: '2026-11-28T10:00:00Z', source: 't' },
    });
    expect(r.lost).toBe(0);
    expect(r.basis).toMatch(/deletes since$/);
  });
});

describe('the routes side by side', () => {
  it('the repair counted by CheckIndex loses least here, and is named', () => {
    const routes = [restoreLoss(snap, countsFromTimeline(entries, 'idx', snap)), exorciseLoss(check)];
    expect(leastLoss(routes)?.route).toBe('exorcise');
    expect(comparisonLines(routes)).toEqual([
      'what each way back loses:',
      '  about 337 documents written since: restore from nightly/s1 of 2026-11-28 10:00 UTC',
      '    2337 documents at 2026-11-28 11:30 UTC (the last read before it turned red) against 2000 in the snapshot (counted as the snapshot was taken)',
      '  37 documents (unidentified): offline repair (CheckIndex -exorcise)',
      '    CheckIndex on the copy: 1 broken segment of 3, 2337 documents in all',
      'loses least: offline repair (CheckIndex -exorcise)',
    ]);
  });

  it('a replica loses none; a tie goes to the earlier route; an uncounted route is said so', () => {
    expect(leastLoss([replicaLoss('n2'), exorciseLoss({ ...check, lostDocs: 0 })])?.route).toBe('replica');
    const lines = comparisonLines([restoreLoss(snap, { before: null, inSnapshot: null }), exorciseLoss(null)]);
    expect(lines[lines.length - 1]).toBe('no route could be counted: choose knowing that');
    expect(lines.slice(3, 5)).toEqual([
      '  not known: offline repair (CheckIndex -exorcise)',
      '    not counted yet: CheckIndex has not read a copy of the shard folder',
    ]);
    expect(comparisonLines([restoreLoss(snap, { before: null, inSnapshot: null }), exorciseLoss(check)]).at(-1)).toBe(
      'loses least: offline repair (CheckIndex -exorcise) (of those counted)',
    );
  });

  it('names from the cluster reach the lines escaped', () => {
    const lines = comparisonLines([replicaLoss('evil\u001b[2Jnode')]);
    expect(lines.join('\n')).not.toContain('\u001b');
  });
});

describe('lossAfterwards', () => {
  it('what was expected against what was counted once green', () => {
    expect(lossAfterwards('idx', 'restore', { lost: 337, docsBefore: 2337 }, 2000)).toEqual({
      lost: 337,
      text: 'idx restored: expected about 337 lost; 2000 documents counted once green against 2337 before: 337 lost',
    });
    expect(lossAfterwards('idx', 'exorcise', { lost: null, docsBefore: null }, 2300).text).toBe(
      'idx repaired: the loss was not known beforehand; 2300 documents counted once green',
    );
  });
});
