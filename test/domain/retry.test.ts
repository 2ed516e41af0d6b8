import { describe, expect, it } from 'vitest';
import { MAX_READ_RETRIES, parseRetryAfter, readRetryDelayMs } from '../../src/domain/retry';

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
    expect(readRetryDelayMs(429, '6', 0, NOW)).toBeNull();
    expect(readRetryDelayMs(429, '3600', 0, NOW)).toBeNull();
  });
});
