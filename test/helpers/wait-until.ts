// The tests' one way to wait: poll the condition itself until it holds, within a deadline; on
// timeout the error names what was awaited and what was last seen. (Implemented once in
// dev/lib/wait.mjs, which the harness scripts share.)
import { waitUntil as waitUntilJs } from '../../dev/lib/wait.mjs';

export interface WaitOptions {
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
  /** Pause between reads (default 200 ms). */
  intervalMs?: number;
}

/** Reads until `done(value)`; returns the value. A read that throws counts as "not yet". */
export function waitUntil<T>(
  what: string,
  read: () => T | Promise<T>,
  done: (value: T) => boolean = Boolean,
  opts: WaitOptions = {},
): Promise<T> {
  return (waitUntilJs as (...args: unknown[]) => Promise<T>)(what, read, done, opts);
}
