// The header's and the status bar's text (plain values; whole screens are in test/snapshots/).
import { describe, expect, it } from 'vitest';
import { connectionLine, modeMarkers, platformWho, shareLine, statusBadge } from '../../../src/domain/panes/bars';
import { scenario } from './scenario';

describe('header and status bar text', () => {
  it('the header names the platform user while signed in, the status with a ? when its read failed, and the modes', () => {
    expect(platformWho({ state: 'signed-in', user: 'alice', tenant: 'acme' })).toBe('alice@acme');
    expect(platformWho({ state: 'refreshing' })).toBe('?@?');
    expect(platformWho({ state: 'error' })).toBe('platform: sign-in failed');
    expect(platformWho({ state: 'signed-out' })).toBe('');
    expect(statusBadge(scenario('red').health.status, false)).toBe(' RED ');
    expect(statusBadge('yellow', true)).toBe(' YELLOW? ');
    expect(statusBadge(undefined, false)).toBe(' ... ');
    expect(modeMarkers(true, true)).toBe('PAUSED READ-ONLY');
    expect(modeMarkers(false, false)).toBe('');
  });

  it('the status bar says where, how often, and that a node not answering is retried', () => {
    expect(connectionLine('https://es:9200', 5000, false, undefined)).toBe('https://es:9200 · every 5s');
    expect(connectionLine('https://es:9200', 5000, true, 'unreachable')).toBe('https://es:9200 · paused · node not answering, retrying');
    expect(connectionLine('https://es:9200', 5000, false, 'unauthorized')).toBe('https://es:9200 · every 5s · unauthorized, retrying');
  });
});

describe("the leader's share line (issue 47 item 7)", () => {
  const socket = '/run/user/1000/shardeck-1000/console-123456.sock';
  const v = {
    role: 'leader' as const,
    socket,
    followers: [{ user: 'bob' }, { user: 'carol' }],
    refused: ['12:00:01 mallory (uid 1002, pid 9): this user may not follow this console'],
    requireApproval: true,
    message: 'waiting for a follower to approve: set number_of_replicas of logs to 0',
  };
  it('at rest keeps the command a colleague runs whole at 80 columns: who follows comes after it', () => {
    const { text, alert } = shareLine({ ...v, message: undefined, refused: [] }, 80);
    expect(text.slice(0, 80)).toMatch(new RegExp(`^SHARED \\(2\\) · shardeck follow ${socket}`));
    expect(text.endsWith(' · bob, carol')).toBe(true);
    expect(alert).toBe(false);
    // A refusal is never left out: someone was turned away (the line is red).
    const refused = shareLine({ ...v, message: undefined }, 80);
    expect(refused.text).toMatch(/^SHARED \(2\) · REFUSED 12:00:01 mallory/);
    expect(refused.alert).toBe(true);
  });
  it('says the rest before the command when there is room, and the token with the command', () => {
    const { text } = shareLine({ ...v, message: undefined, token: 'k3y' }, 400);
    expect(text).toBe(`SHARED (2) · four eyes · REFUSED ${v.refused[0]} · token k3y · shardeck follow ${socket} · bob, carol`);
    // No room even for the count: SHARED, then the command.
    expect(shareLine({ ...v, message: undefined, refused: [], token: 'k3y' }, 70).text).toBe(
      `SHARED · token k3y · shardeck follow ${socket} · bob, carol`,
    );
  });
  it('what happens now (a message) comes before the command', () => {
    expect(shareLine(v, 80).text).toMatch(/^SHARED \(2\) · four eyes · REFUSED .* · waiting for a follower to approve/);
  });
});
