// Ink lays its frames out with Yoga's WebAssembly. The bundle and the tests load it when Ink loads
// (yoga-layout's entry awaits it at its top level). The single executable cannot await at the top
// level, so its stand-in (dev/sea/yoga.mjs) starts loading when Ink loads and says when it is done
// (`ready`): a screen waits for it before its first frame, and a command that draws no screen
// (status: ~7 ms of its start) never loads it.
import * as yoga from 'yoga-layout';

export async function yogaReady(): Promise<void> {
  await (yoga as unknown as { ready?: Promise<unknown> }).ready;
}
