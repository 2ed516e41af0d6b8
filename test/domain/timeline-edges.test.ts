// The timeline's edges the first tests left open (issue 32's mutation sample): the order of a merge
// whose parts arrive out of time order, the 30 s bound of the two-console rule, the --since grammar,
// and which Markdown lines each kind of entry gets.
import { describe, expect, it } from 'vitest';
import { changesFromAudit, mergeTimeline, parseSince, timelineMarkdown, type TimelineEntry } from '../../src/domain/timeline';
import type { AuditRecord } from '../../src/domain/mutation/audit';

const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 1, 0, s)).toISOString();
const turn = (s: number, to: 'green' | 'yellow' | 'red', from: 'green' | 'yellow' | 'red' | null = 'green'): TimelineEntry => ({
  kind: 'health',
  time: at(s),
  from,
  to,
  unassigned: 0,
  unassignedPrimaries: 0,
  shards: [],
});
const note = (s: number, text: string): TimelineEntry => ({ kind: 'note', time: at(s), author: 'bob', text });

const record = (over: Partial<AuditRecord>): AuditRecord => ({
  time: at(0),
  profile: 'p',
  url: 'http://a:9200',
  osUser: 'alice',
  risk: 'reversible',
  target: 'logs',
  summary: 'set replicas',
  confirmedBy: 'key',
  outcome: { ok: true, status: 200, durationMs: 3 },
  ...over,
});

describe('timeline edges', () => {
  it('merges by time whichever list an entry came from, oldest first', () => {
    const merged = mergeTimeline([note(40, 'late'), note(10, 'early')], [note(20, 'middle'), note(5, 'first')]);
    expect(merged.map((e) => (e.kind === 'note' ? e.text : e.kind))).toEqual(['first', 'early', 'middle', 'late']);
  });

  it('keeps a transition two consoles saw once only within 30 s, and only when both went to the same status', () => {
    const keptTimes = (entries: TimelineEntry[]) => mergeTimeline(entries, []).map((e) => e.time);
    // 29.999 s apart: the same transition seen twice.
    const y1 = turn(0, 'yellow');
    const y2: TimelineEntry = { ...turn(0, 'yellow'), time: new Date(Date.parse(at(0)) + 29_999).toISOString() };
    expect(keptTimes([y1, y2])).toEqual([y1.time]);
    // Exactly 30 s apart: two transitions.
    expect(keptTimes([y1, turn(30, 'yellow')])).toEqual([at(0), at(30)]);
    // Within 30 s but to another status: both are real.
    expect(keptTimes([y1, turn(5, 'red', 'yellow')])).toEqual([at(0), at(5)]);
    // A note between two sightings does not split them.
    expect(mergeTimeline([y1, note(2, 'n'), turn(4, 'yellow')], []).map((e) => e.kind)).toEqual(['health', 'note']);
  });

  it('reads --since as a number, optional spaces and one unit, nothing before or after', () => {
    expect(parseSince(' 2h ')).toBe(7_200_000);
    expect(parseSince('2 h')).toBe(7_200_000);
    expect(parseSince('1.5h')).toBe(5_400_000);
    expect(parseSince('0.25m')).toBe(15_000);
    expect(parseSince('45s')).toBe(45_000);
    expect(parseSince('1d')).toBe(86_400_000);
    expect(parseSince('x2h')).toBeNull();
    expect(parseSince('2hx')).toBeNull();
    expect(parseSince('2h30m')).toBeNull();
    expect(parseSince('1.h')).toBeNull();
    expect(parseSince('1.xh')).toBeNull();
    expect(parseSince('-2h')).toBeNull();
  });

  it('names who proposed a change only when it was someone else, and a host read without a command as "?"', () => {
    const [own] = changesFromAudit([record({ proposedBy: 'alice' })], 'http://a:9200');
    expect(own).toMatchObject({ kind: 'change', who: 'alice' });
    const [proposed] = changesFromAudit([record({ proposedBy: 'bob' })], 'http://a:9200');
    expect(proposed).toMatchObject({ kind: 'change', who: 'alice (proposed by bob)' });
    const [read] = changesFromAudit([record({ risk: 'read', summary: 'service status', command: undefined })], 'http://a:9200');
    expect(read).toMatchObject({ kind: 'read', command: '?' });
    const [readWith] = changesFromAudit(
      [record({ risk: 'read', summary: 'service status', command: 'systemctl status x' })],
      'http://a:9200',
    );
    expect(readWith).toMatchObject({ kind: 'read', command: 'systemctl status x' });
  });

  it('gives a request line to a change that has one, and to nothing else', () => {
    const change: TimelineEntry = {
      kind: 'change',
      time: at(1),
      who: 'a',
      summary: 's',
      target: 't',
      result: 'ok',
      command: 'systemctl stop es',
    };
    const md = timelineMarkdown('c', [note(0, 'n'), change], new Date(Date.parse(at(60))), 0);
    expect(md).not.toContain('request:');
    expect(md).toContain('  - command: `systemctl stop es`');
    const withRequest = timelineMarkdown('c', [{ ...change, request: 'POST /_refresh' }], new Date(Date.parse(at(60))), 0);
    expect(withRequest.match(/request:/g)).toHaveLength(1);
  });
});
