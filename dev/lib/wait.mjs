// Waiting on a condition instead of sleeping a fixed time: the harness and the tests poll what
// they need (a port, a process, a cluster state) until it holds or a deadline passes, and the
// error then says what was last seen, so a timeout explains itself.

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Calls `read()` until `done(value)` is true and returns that value. A read that throws counts as
 * "not yet" (its message is what was last seen). Throws after `timeoutMs` with `what` and the
 * last value seen.
 */
export async function waitUntil(what, read, done = Boolean, { timeoutMs = 30_000, intervalMs = 200 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last; // set by every try below before the deadline is checked
  for (;;) {
    try {
      const value = await read();
      if (done(value)) return value;
      last = describe(value);
    } catch (e) {
      last = `error: ${String(e?.message ?? e).split('\n')[0]}`;
    }
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}; last seen: ${last}`);
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}

function describe(value) {
  if (typeof value === 'string') return value.length > 500 ? `${value.slice(-500)}` : value;
  try {
    const s = JSON.stringify(value);
    return s === undefined ? String(value) : s.length > 500 ? `${s.slice(0, 500)}...` : s;
  } catch {
    return String(value);
  }
}
