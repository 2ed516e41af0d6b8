// What shardeck retries, in one place. A change is never retried (the Guard sends it once and reads
// the cluster back). A read answered 429 (Elasticsearch's "too many requests": a full search or
// write queue, a circuit breaker) is retried after the Retry-After the node asked for, bounded: a
// one-shot read (the version check's included) a few times and only when the node asks for at most
// RETRY_AFTER_CAP_MS (an operator's command must end); the console's poller reads it again no
// sooner than the node asked, up to that cap, and never sooner than its own period or backoff.
// Every other failure of a read (a stall, a reset, a 5xx, an answer cut short) is not retried by a
// one-shot command: it ends with its sentence and exit code.

/** At most this many retries of one read. */
export const MAX_READ_RETRIES = 2;
/** The longest Retry-After honoured: a one-shot read asked to wait longer fails with the node's sentence; the poller waits this much at most. */
export const RETRY_AFTER_CAP_MS = 30_000;
/** Without a usable Retry-After, a 429 is retried after this; and never sooner (Retry-After: 0 is no licence to hammer a busy node). */
const MIN_RETRY_WAIT_MS = 1_000;

/**
 * Retry-After as ms: delay-seconds, or an HTTP date (against `nowMs`). Null when absent or not one
 * of the two.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) || !/[a-z]/i.test(v) ? null : Math.max(0, at - nowMs);
}

/**
 * How long a one-shot read waits before retrying after it failed with `status` (null: do not
 * retry). Only 429 is retried, at most MAX_READ_RETRIES times (`retriesSoFar`), only when the node
 * asks for at most RETRY_AFTER_CAP_MS, and never sooner than MIN_RETRY_WAIT_MS.
 */
export function readRetryDelayMs(
  status: number | undefined,
  retryAfter: string | undefined,
  retriesSoFar: number,
  nowMs: number,
): number | null {
  if (status !== 429 || retriesSoFar >= MAX_READ_RETRIES) return null;
  const asked = parseRetryAfter(retryAfter, nowMs);
  if (asked === null) return MIN_RETRY_WAIT_MS;
  return asked <= RETRY_AFTER_CAP_MS ? Math.max(MIN_RETRY_WAIT_MS, asked) : null;
}

/**
 * When the console's poller reads a failed resource again: its own delay (`normalMs`, the period
 * or the backoff), unless the node answered 429 with a longer Retry-After, which is honoured up
 * to RETRY_AFTER_CAP_MS (the pane must come back by itself once the node is less busy).
 */
export function pollRetryDelayMs(normalMs: number, retryAfterMs: number | undefined): number {
  return retryAfterMs === undefined ? normalMs : Math.max(normalMs, Math.min(retryAfterMs, RETRY_AFTER_CAP_MS));
}
