// The fleet table's order and exit code, from plain rows.
import { describe, expect, it } from 'vitest';
import {
  fleetColumns,
  fleetExitCode,
  fleetProblemRow,
  fleetTextLine,
  fleetTone,
  pendingRow,
  sortFleet,
  worstDisk,
  type FleetRow,
} from '../../src/domain/inspect/fleet';

const row = (profile: string, over: Partial<FleetRow>): FleetRow => ({
  ...pendingRow(profile, 'http://x'),
  status: 'green',
  nodes: 1,
  unassigned: 0,
  disk: 'ok',
  readOnlyIndices: 0,
  ...over,
});

describe('fleet', () => {
  it('worst first: unreachable, red, yellow, not answered yet, green; then unassigned, disk, read-only, name', () => {
    const rows = [
      row('g2', {}),
      row('g1', { disk: 'high' }),
      row('y', { status: 'yellow', unassigned: 2 }),
      row('r', { status: 'red', unassigned: 1 }),
      row('u', { status: 'unreachable', nodes: null }),
      row('p', { status: 'pending' }),
      row('g0', { readOnlyIndices: 3 }),
    ];
    expect(sortFleet(rows).map((r) => r.profile)).toEqual(['u', 'r', 'y', 'p', 'g1', 'g0', 'g2']);
  });

  it('the exit code is the worst status, as status exits: 0 green, 1 yellow, 2 red, 3 unreachable', () => {
    expect(fleetExitCode([])).toBe(0);
    expect(fleetExitCode([row('a', {}), row('b', { status: 'yellow' })])).toBe(1);
    expect(fleetExitCode([row('a', { status: 'red' }), row('b', { status: 'yellow' })])).toBe(2);
    expect(fleetExitCode([row('a', { status: 'red' }), row('b', { status: 'unreachable' })])).toBe(3);
  });

  it('the worst disk level of the nodes', () => {
    expect(worstDisk(['ok', 'high', 'low'])).toBe('high');
    expect(worstDisk([])).toBeNull();
  });

  it('a cluster that has not answered yet reads "waiting", in the table and in the text', () => {
    const p = pendingRow('prod-a', 'http://x');
    const status = fleetColumns(0).find((c) => c.title === 'status')!;
    expect(status.text(p)).toBe('waiting');
    expect(fleetTextLine(p, 0)).toMatch(/^prod-a\s+WAITING\s+http:\/\/x: no answer yet$/);
  });

  it('a row that gave no report keeps how long it was waited for (a timeout is not "failed at once")', () => {
    expect(fleetProblemRow('a', 'http://x', 'no answer within 5s', 10, 5003).tookMs).toBe(5003);
    expect(fleetProblemRow('a', 'http://x', 'bad URL', 10).tookMs).toBe(0);
  });

  it('colours each status by what it means: green, yellow, waiting grey, red and unreachable red', () => {
    const tones = (['green', 'yellow', 'pending', 'red', 'unreachable'] as const).map((status) => fleetTone(row('a', { status })));
    expect(tones).toEqual(['green', 'yellow', 'gray', 'red', 'red']);
  });
});
