// The console's frame time while its node is sick (issue 30), in its own process:
//   node bench/out/faults.mjs <url> <repeats>  -> one JSON line.
// The real App on a fake 80x24 terminal, polled by the real Poller through the fault proxy
// (test/helpers/counting-proxy.ts) in front of a real node with the demo data, on the Indices pane.
// For each fault (none, answers 5 s late, no answer at all, connection reset, 503, none again) the proxy's rule
// is set, the console is left to poll into it for a few seconds, then the operator's keys are
// timed: cursor moves and filter keystrokes, from the key to the frame that shows it. A key with
// no frame within 5 s counts as missed. Wall time and the frames' CPU time are both given (the
// machine is shared; CPU time is what the console itself spent).
import React from 'react';
import { App } from '../src/ui/app/App';
import { createUiStore } from '../src/ui/state';
import { createConsoleStore } from '../src/store/console';
import { createEsApi } from '../src/cluster/api';
import { createClient } from '../src/cluster/connection';
import { Poller } from '../src/services/poller';
import { onPath, startCountingProxy, type Fault } from '../test/helpers/counting-proxy';
import { mountOnFakeTerminal, tick } from './fake-screen';

const [url, repeatsArg] = process.argv.slice(2);
const REPEATS = Number(repeatsArg ?? 20);
const DOWN = '\u001b[B';
const UP = '\u001b[A';
const BACKSPACE = '\u007f';
const FAULTS: [string, Fault | null][] = [
  ['healthy', null],
  ['slow_5s', { delayMs: 5000 }],
  ['no_answer', { stall: 'nothing' }],
  ['reset', 'reset'],
  ['status_503', { status: 503, body: { error: 'unavailable' } }],
  ['healthy_again', null],
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(((s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2) * 10) / 10 : null;
};
const max = (xs: number[]) => (xs.length ? Math.round(Math.max(...xs) * 10) / 10 : null);

async function main() {
  const proxy = await startCountingProxy(url);
  const client = createClient({ url: proxy.url });
  const store = createConsoleStore({ connection: { url: proxy.url, profile: 'bench', insecure: false, readOnly: true }, pane: 'indices' });
  const poller = new Poller(createEsApi(client, proxy.url), store);
  const ui = createUiStore();
  const { stdout, stdin, instance } = mountOnFakeTerminal(<App store={store} ui={ui} poller={poller} />);
  poller.start();
  for (let i = 0; i < 300 && !stdout.last.includes('service_v9'); i++) await sleep(100);
  if (!stdout.last.includes('service_v9')) throw new Error(`the Indices pane did not show the demo indices:\n${stdout.last}`);

  /** Key -> the first frame after it (wall and CPU ms), or null when none came within 5 s. */
  async function frameAfter(key: string): Promise<{ wall: number; cpu: number } | null> {
    let done!: (v: { wall: number; cpu: number } | null) => void;
    const written = new Promise<{ wall: number; cpu: number } | null>((r) => (done = r));
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    stdout.onWrite = () => {
      stdout.onWrite = undefined;
      const c = process.cpuUsage(c0);
      done({ wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 });
    };
    const timer = setTimeout(() => {
      stdout.onWrite = undefined;
      done(null);
    }, 5000);
    stdin.write(key);
    const r = await written;
    clearTimeout(timer);
    await tick();
    return r;
  }

  // Warm-up, not recorded: the first keys of a process also pay for compiling the code they run.
  for (let i = 0; i < REPEATS; i++) await frameAfter(i % 2 ? UP : DOWN);
  const out: Record<string, unknown> = { repeats: REPEATS };
  for (const [name, fault] of FAULTS) {
    proxy.clearTraps();
    if (fault) proxy.trap({ match: onPath('*', /.*/), action: fault });
    // Let the console poll into the fault (a failed read backs off; a slow one stays in flight).
    await sleep(fault ? 6000 : 2000);
    const move: number[] = [];
    const moveCpu: number[] = [];
    const filter: number[] = [];
    const filterCpu: number[] = [];
    let missed = 0;
    const take = (r: { wall: number; cpu: number } | null, wall: number[], cpu: number[]) => {
      if (!r) return missed++;
      wall.push(r.wall);
      cpu.push(r.cpu);
    };
    for (let i = 0; i < REPEATS; i++) take(await frameAfter(i % 2 ? UP : DOWN), move, moveCpu);
    take(await frameAfter('/'), [], []);
    for (let i = 0; move.length && filter.length + missed < REPEATS * 2 && i < REPEATS; i++) {
      take(await frameAfter('d'), filter, filterCpu);
      take(await frameAfter(BACKSPACE), filter, filterCpu);
    }
    take(await frameAfter('\u001b'), [], []);
    out[name] = {
      move_ms: median(move),
      move_max_ms: max(move),
      move_cpu_ms: median(moveCpu),
      filter_key_ms: median(filter),
      filter_key_max_ms: max(filter),
      filter_cpu_ms: median(filterCpu),
      missed,
      // What the pane was showing meanwhile: failed reads, and how old its rows were.
      failures: store.getState().snapshots.indices.failures,
      data_age_s: Math.round((Date.now() - (store.getState().snapshots.indices.fetchedAt ?? Date.now())) / 1000),
    };
  }
  proxy.clearTraps();
  poller.stop();
  instance.unmount();
  await client.close();
  await proxy.close();
  process.stdout.write(JSON.stringify(out) + '\n');
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`faults bench failed: ${e?.stack ?? e}\n`);
  process.exit(1);
});
