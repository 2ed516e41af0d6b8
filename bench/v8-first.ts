// Imported first by the render benchmark (bench/render.tsx), so its V8 settings are in force before
// the console's modules load, as the launcher has them (src/cli.tsx applies them before the
// console's chunk loads). BENCH_V8_FLAGS adds more for a trial ("--flag --other=1").
import { setFlagsFromString } from 'node:v8';
import { applyV8Flags } from '../src/config/v8-flags';

applyV8Flags();
for (const flag of (process.env.BENCH_V8_FLAGS ?? '').split(' ').filter(Boolean)) setFlagsFromString(flag);
