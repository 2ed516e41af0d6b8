// The bundles' yoga-layout (dev/lib/bundle-aliases.mjs): its own entry, loaded without fetch (yoga-load.mjs).
import { loadYoga } from './yoga-load.mjs';

const Yoga = await loadYoga();
export default Yoga;
export * from './yoga-load.mjs';
/** Loaded once this module is (the top-level await above); the executable's stand-in (dev/sea/yoga.mjs) says it later. */
export const ready = Promise.resolve();
