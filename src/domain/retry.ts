// What shardeck retries, in one place. A change is never retried (the Guard sends it once and reads
// the cluster back). A read answered 429 (Elasticsearch's "too many requests": a full search or
// write queue, a circuit breaker) is retried after the Retry-After the node asked for, a few
// times, never waiting long: an operator's command must end, and the console's poller backs off
// on its own. Every other failure of a read (a stall, a reset, a 5xx, an answer cut short) is not
// retried by a one-shot command: it ends with its sentence and exit code.

/** At most this many retries of one read. */
export const MAX_READ_RETRIES = 2;
/** A Retry-After longer than this is not waited for (the read fails with the node's sentence). */
export const MAX_RETRY_WAIT_MS = 5_000;
/** Without a usable Retry-After, a 429 is retried after this. */
const DEFAULT_RETRY_WAIT_MS = 1_000;

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
 * How long to wait before retrying a read that failed with `status` (null: do not retry). Only
 * 429 is retried, at most MAX_READ_RETRIES times (`retriesSoFar`), and only when the node asks
 * for at most MAX_RETRY_WAIT_MS.
 */
export function readRetryDelayMs(
  status: number | undefined,
  retryAfter: string | undefined,
  retriesSoFar: number,
  nowMs: number,
): number | null {
  if (status !== 429 || retriesSoFar >= MAX_READ_RETRIES) return null;
  const asked = parseRetryAfter(retryAfter, nowMs);
  if (asked === null) return DEFAULT_RETRY_WAIT_MS;
  return asked <= MAX_RETRY_WAIT_MS ? asked : null;
}
