// Drives a pure wizard machine in tests: feeds events one after another and collects every effect.
import type { Machine } from '../../src/domain/wizards/machine';

/** The last state and every effect asked for (init's included). */
export function drive<S, E, F>(m: Machine<S, E, F>, events: E[]): { state: S; effects: F[] } {
  let { state, effects } = m.init();
  const all = [...effects];
  for (const e of events) {
    ({ state, effects } = m.step(state, e));
    all.push(...effects);
  }
  return { state, effects: all };
}
