import { describe, expect, it } from 'vitest';
import { MAX_READ_RETRIES, parseRetryAfter, pollRetryDelayMs, readRetryDelayMs, RETRY_AFTER_CAP_MS } from '../../src/domain/retry';

const NOW = Date.parse('2026-11-25T22:00:00Z');

describe('parseRetryAfter', () => {
  it('delay-seconds and HTTP dates; anything else is not one', () => {
    expect(parseRetryAfter('2', NOW)).toBe(2000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('Wed, 25 Nov 2026 22:00:03 GMT', NOW)).toBe(3000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 21:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
    expect(parseRetryAfter('-1', NOW)).toBeNull();
    expect(parseRetryAfter('1.5', NOW)).toBeNull();
    expect(parseRetryAfter('soon', NOW)).toBeNull();
  });
});

describe('readRetryDelayMs', () => {
  it('only a 429 is retried, after what the node asked', () => {
    expect(readRetryDelayMs(429, '1', 0, NOW)).toBe(1000);
    expect(readRetryDelayMs(429, undefined, 0, NOW)).toBe(1000);
    for (const status of [undefined, 400, 500, 502, 503, 504]) expect(readRetryDelayMs(status, '1', 0, NOW)).toBeNull();
  });

  it('bounded: a few times, and never a long wait', () => {
    expect(readRetryDelayMs(429, '1', MAX_READ_RETRIES - 1, NOW)).toBe(1000);
    expect(readRetryDelayMs(429, '1', MAX_READ_RETRIES, NOW)).toBeNull();
    expect(readRetryDelayMs(429, '5', 0, NOW)).toBe(5000);
    expect(readRetryDelayMs(429, String(RETRY_AFTER_CAP_MS / 1000), 0, NOW)).toBe(RETRY_AFTER_CAP_MS);
    expect(readRetryDelayMs(429, String(RETRY_AFTER_CAP_MS / 1000 + 1), 0, NOW)).toBeNull();
    expect(readRetryDelayMs(429, '3600', 0, NOW)).toBeNull();
  });

  it('never sooner than a second, whatever the node says', () => {
    expect(readRetryDelayMs(429, '0', 0, NOW)).toBe(1000);
    expect(readRetryDelayMs(429, 'Wed, 25 Nov 2026 21:00:00 GMT', 0, NOW)).toBe(1000);
  });
});

describe('pollRetryDelayMs (the console poller)', () => {
  it('its own delay without a Retry-After, or when the node asked for less', () => {
    expect(pollRetryDelayMs(2000, undefined)).toBe(2000);
    expect(pollRetryDelayMs(8000, 1000)).toBe(8000);
    expect(pollRetryDelayMs(2000, 0)).toBe(2000);
  });

  it('the Retry-After when longer, capped', () => {
    expect(pollRetryDelayMs(2000, 20_000)).toBe(20_000);
    expect(pollRetryDelayMs(2000, 3_600_000)).toBe(RETRY_AFTER_CAP_MS);
    expect(pollRetryDelayMs(60_000, 3_600_000)).toBe(60_000);
  });
});
