// The Health pane's lines, from the recorded yellow, red and full scenarios.
import { describe, expect, it } from 'vitest';
import { diagnosisHint, indicatorLines, reportHeading, summaryLines, wrapLine } from '../../../src/domain/panes/health';
import { scenario } from './scenario';

describe('health pane lines', () => {
  it('the summary is in the status colour, and the shards line is red only for a missing primary', () => {
    const red = summaryLines(scenario('red').health, '8.19.21', 'why it is red');
    expect(red.map((l) => l.text)).toEqual([
      'shardeck-fixtures-40363  RED  Elasticsearch 8.19.21',
      'why it is red',
      'nodes 1 (data 1)   pending tasks 0   active shards 81.6%',
      'shards  active 31 (pri 31)  initializing 0  relocating 0  unassigned 7 (pri 1)',
    ]);
    expect(red.map((l) => l.tone)).toEqual(['red', 'red', undefined, 'red']);
    const yellow = summaryLines(scenario('yellow').health, undefined, null);
    expect(yellow).toHaveLength(3);
    expect(yellow[0]).toEqual({ text: 'shardeck-fixtures-40363  YELLOW', tone: 'yellow', bold: true });
    expect(yellow[2].tone).toBe('yellow');
  });

  it('indicators worst first, impacts only under those not green, every line cut to the width', () => {
    const lines = indicatorLines(scenario('full').healthReport, 80);
    expect(lines.map((l) => l.text.slice(0, 28).trimEnd())).toEqual([
      'RED     disk',
      '        impact: Cannot inser',
      'YELLOW  shards_availability',
      '        impact: Searches mig',
      'GREEN   data_stream_lifecyc…',
      'GREEN   file_settings',
      'GREEN   ilm',
      'GREEN   master_is_stable',
      'GREEN   repository_integrity',
      'GREEN   shards_capacity',
      'GREEN   slm',
    ]);
    expect(new Set(lines.map((l) => l.text.length))).toEqual(new Set([80]));
    expect(lines[0]).toMatchObject({ tone: 'red', bold: true });
    expect(lines[1]).toMatchObject({ dim: true });
    expect(lines[4]).toMatchObject({ tone: 'green', bold: false });
  });

  it('diagnoses fetched on request take the place of those in the report: cause, then what to do', () => {
    const lines = indicatorLines(scenario('yellow').healthReport, 60, {
      disk: [{ cause: 'the disk is full', action: 'free some', helpUrl: '' } as never],
    });
    const disk = lines.slice(0, 4).map((l) => l.text.trimEnd());
    expect(disk[2]).toBe('        cause: the disk is full');
    expect(disk[3]).toBe('        do: free some');
    expect(lines[3].tone).toBe('yellow');
    // A green cluster's report shows no impacts at all.
    const red = indicatorLines(scenario('red').healthReport, 80);
    expect(red.length).toBeGreaterThan(0);
    expect(red.filter((l) => l.dim)).toEqual([]);
  });

  it('a long sentence wraps at spaces and keeps its tone', () => {
    expect(wrapLine({ text: 'one two three four', tone: 'red' }, 9)).toEqual([
      { text: 'one two', tone: 'red' },
      { text: 'three', tone: 'red' },
      { text: 'four', tone: 'red' },
    ]);
  });

  it('the heading counts the lines shown only when they do not all fit; the d hint follows the diagnosis', () => {
    expect(reportHeading(11, 0, 11, 11)).toBe('health report (worst first)');
    expect(reportHeading(11, 2, 5, 5)).toBe('health report (worst first)  3-7 of 11 ↑↓');
    expect(diagnosisHint(undefined)).toBe('d: diagnose (verbose health report)');
    expect(diagnosisHint({ inFlight: true })).toBe('diagnosing…');
    expect(diagnosisHint({ inFlight: false, error: 'timeout' })).toBe('diagnosis failed: timeout');
    expect(diagnosisHint({ inFlight: false, fetchedAt: 1 })).toBe('diagnosis below (d: again)');
  });
});

describe('the Health pane before 8.7 (no health report)', () => {
  it("shows what is missing, then shardeck's own diagnosis: unassigned shards by reason, watermarks, each node's disk", async () => {
    const { substituteLines, explanationDiagnoses } = await import('../../../src/domain/panes/health');
    const { buildStatusReport } = await import('../../../src/domain/inspect/status');
    const { explainAllocation } = await import('../../../src/domain/wizards/allocation');
    const s = scenario('red');
    const report = buildStatusReport({
      health: s.health,
      allocation: s.allocation,
      settings: s.settings,
      blocks: s.blocks,
      shards: s.shards,
    });
    const explained = explanationDiagnoses(
      explainAllocation({
        index: 'a',
        shard: 0,
        primary: false,
        current_state: 'unassigned',
        allocate_explanation: 'cannot allocate',
        unassigned_info: { reason: 'NODE_LEFT' },
      }),
    );
    const lines = substituteLines(report, 'the health report needs 8.7', 80, explained);
    const text = lines.map((l) => l.text.trimEnd());
    expect(text[0]).toBe('the health report needs 8.7');
    expect(text[1]).toBe('unassigned shards 7 by reason');
    // Grouped by primary/replica and reason, each with one example shard; a primary in red.
    const groups = lines.filter((l) => /^ {2}\d/.test(l.text));
    expect(groups.length).toBeGreaterThan(0);
    expect(groups.reduce((n, l) => n + Number(/^ {2}(\d+)/.exec(l.text)![1]), 0)).toBe(7);
    expect(groups.find((l) => l.text.includes('primary'))?.tone).toBe('red');
    expect(text.some((t) => t.startsWith('    cause: a/0 replica: cannot allocate; unassigned because NODE_LEFT'))).toBe(true);
    expect(text.some((t) => t.startsWith('disk watermarks  low '))).toBe(true);
    expect(text.some((t) => /^ {2}\S+ {2}used \d+\.\d% {2}(below the low watermark|past the \w+ watermark)$/.test(t))).toBe(true);
    expect(lines.every((l) => l.text.length <= 80)).toBe(true);
  });
});
