// The console drawn to a fake 80x24 terminal for the render benchmarks (render.tsx, detail.tsx,
// documents-render.tsx): Ink in debug mode writes every render at once, with no frame-rate
// throttle, so a frame's time is its cost, not the throttle's wait.
import type React from 'react';
import { render } from 'ink';
import { FakeStdin, FakeStdout } from '../test/helpers/fake-terminal';

export const tick = () => new Promise((r) => setTimeout(r, 0));

export function mountOnFakeTerminal(element: React.ReactElement) {
  const stdout = new FakeStdout(80, 24, 'last');
  const stdin = new FakeStdin();
  const instance = render(element, {
    stdout: stdout as never,
    stdin: stdin as never,
    stderr: new FakeStdout(80, 24, 'last') as never,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });

  /** Time from `act` until the first frame is written (then lets follow-up renders settle). */
  async function frameAfter(act: () => void): Promise<number> {
    let done!: (t: number) => void;
    const written = new Promise<number>((r) => (done = r));
    stdout.onWrite = () => {
      stdout.onWrite = undefined;
      done(performance.now());
    };
    const t0 = performance.now();
    act();
    const t1 = await written;
    await tick();
    return t1 - t0;
  }

  return { stdout, stdin, instance, frameAfter };
}
