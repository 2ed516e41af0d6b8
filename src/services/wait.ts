// The one way shardeck waits for the cluster to reach a state: read, judge, pause, read again,
// until the condition holds or the time is up. Only reads happen here (a change is never resent).

export interface WaitOptions<T> {
  /** How long to go on reading (ms); Infinity when the condition alone ends the wait. */
  timeoutMs: number;
  /** The pause between two reads (ms), or a pause chosen from what was just read. */
  intervalMs: number | ((value: T) => number);
  /** Told about each value that does not meet the condition, before the pause (progress lines). */
  onPending?: (value: T) => void;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Reads until `done(value)` or until `timeoutMs` has passed since the first read (then the last
 * value, with met: false). `read` is given the time left, for requests that wait on the server.
 */
export async function waitUntil<T>(
  read: (remainingMs: number) => Promise<T>,
  done: (value: T) => boolean,
  opts: WaitOptions<T>,
): Promise<{ value: T; met: boolean }> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const value = await read(deadline - Date.now());
    if (done(value)) return { value, met: true };
    if (Date.now() >= deadline) return { value, met: false };
    opts.onPending?.(value);
    const pause = typeof opts.intervalMs === 'function' ? opts.intervalMs(value) : opts.intervalMs;
    if (pause > 0) await sleep(pause);
  }
}
