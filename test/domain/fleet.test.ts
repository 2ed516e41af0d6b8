// The fleet table's order and exit code, from plain rows.
import { describe, expect, it } from 'vitest';
import { fleetExitCode, pendingRow, sortFleet, worstDisk, type FleetRow } from '../../src/domain/fleet';

const row = (profile: string, over: Partial<FleetRow>): FleetRow => ({ ...pendingRow(profile, 'http://x'), status: 'green', nodes: 1, unassigned: 0, disk: 'ok', readOnlyIndices: 0, ...over });

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
});
