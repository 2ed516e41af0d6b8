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
  it('keeps the command a colleague runs whole at 80 columns, leaving out the least first', () => {
    const { text, alert } = shareLine(v, 80);
    expect(text.length).toBeLessThanOrEqual(80);
    expect(text.endsWith(`shardeck follow ${socket}`)).toBe(true);
    expect(text).toMatch(/^SHARED \(2\)/);
    expect(alert).toBe(true);
  });
  it('says everything when there is room, and the token with the command', () => {
    const { text } = shareLine({ ...v, token: 'k3y' }, 400);
    expect(text).toBe(
      `SHARED (2: bob, carol) · four eyes · REFUSED ${v.refused[0]} · ${v.message} · token k3y · shardeck follow ${socket}`,
    );
    expect(shareLine({ ...v, token: 'k3y' }, 90).text).toBe(`SHARED (2) · token k3y · shardeck follow ${socket}`);
    // No room even for the count: the command alone.
    expect(shareLine({ ...v, token: 'k3y' }, 70).text).toBe(`token k3y · shardeck follow ${socket}`);
  });
});
