// yoga-layout's entry awaits its WebAssembly at the top level, which a CommonJS bundle (what a
// Node single executable runs) cannot do. This stand-in is the same object, filled in by `ready`;
// the executable's entry (dev/sea/main.mjs) awaits it before Ink lays anything out.
import { loadYoga } from '../stubs/yoga-load.mjs';

const Yoga = {};
export const ready = loadYoga().then((y) => Object.assign(Yoga, y));
export default Yoga;
export * from '../stubs/yoga-load.mjs';
