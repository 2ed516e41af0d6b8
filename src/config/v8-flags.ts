// The V8 settings the console runs with: the one place the launcher (src/cli.tsx, and with it the
// packaged executable) and the benchmark read them from. Applied at start-up from inside the
// process (v8.setFlagsFromString), so no re-exec and no NODE_OPTIONS are needed.
//
// --heap-growing-percent=50: after each full collection V8 lets the old generation grow by 1.5x
// instead of up to 4x. At 100,000 indices and 100,000 shards polled back to back (bench/render.tsx)
// peak RSS drops from ~465 MB to ~340 MB with the same rebuild times; it is not a cap, so a bigger
// cluster still gets the heap it needs (a --max-old-space-size cap would crash it).
//
// --semi-space-growth-factor=1: the young generation stays at its first size (1 MB a semi-space)
// instead of doubling up to 16 MB once objects survive (a big poll: 100,000 rows). The semi-space's
// top size can only be set on the command line, which the packaged executable cannot carry; this
// flag is read at each growth, so it works from inside the process. At 100,000 indices and shards
// (bench/render.tsx) peak RSS 224-254 MB -> 186-198 MB. Start-up does not grow it either way
// (8 scavenges to the first frame with or without it).
import v8 from 'node:v8';

export const V8_FLAGS: readonly string[] = ['--heap-growing-percent=50', '--semi-space-growth-factor=1'];

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
