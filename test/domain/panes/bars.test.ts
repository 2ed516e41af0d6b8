// The header's and the status bar's text (plain values; whole screens are in test/snapshots/).
import { describe, expect, it } from 'vitest';
import { connectionLine, modeMarkers, platformWho, statusBadge } from '../../../src/domain/panes/bars';
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
