// The V8 settings the console runs with: the one place the launcher (src/cli.tsx, and with it the
// packaged executable) and the benchmark read them from. Applied at start-up from inside the
// process (v8.setFlagsFromString), so no re-exec and no NODE_OPTIONS are needed.
//
// --heap-growing-percent=50: after each full collection V8 lets the old generation grow by 1.5x
// instead of up to 4x. At 100,000 indices and 100,000 shards polled back to back (bench/render.tsx)
// peak RSS drops from ~465 MB to ~340 MB with the same rebuild times; it is not a cap, so a bigger
// cluster still gets the heap it needs (a --max-old-space-size cap would crash it).
//
// Not kept: --semi-space-growth-factor=1 (the young generation held at 2 x 1 MB). It brought the
// 100,000-row peak RSS from 227-249 to 196-211 MB but made every frame slower on a quiet machine
// (bench/render.tsx, 2026-11-26, load 1-2: rebuild 79.6 -> 121.9 ms, scroll 15.9 -> 23.1 ms, filter
// 21.8 -> 29.2 ms): more scavenges, each promoting what a bigger young generation would let die.
import v8 from 'node:v8';

export const V8_FLAGS: readonly string[] = ['--heap-growing-percent=50'];

/** Applies V8_FLAGS; a runtime without V8 flags (e.g. Bun) ignores them. */
export function applyV8Flags(): void {
  for (const flag of V8_FLAGS) {
    try {
      v8.setFlagsFromString(flag);
    } catch {
      // not V8: nothing to set
    }
  }
}
