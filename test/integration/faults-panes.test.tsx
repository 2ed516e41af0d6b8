// Every pane's reads under faults (issue 30): the console, drawn in an 80x24 fake terminal with a
// real Poller, reads one real 8.19 node through the fault proxy (test/helpers/counting-proxy.ts).
// For each pane (keys 1..0) the read that pane alone needs fails (a proxy's 502, a stall, an
// answer cut short): the pane says what is wrong in words (not a stack trace, not the parser's or
// the HTTP library's words), the console keeps running (another pane's key works and draws), and
// once healed the pane shows data again by itself, no key pressed. Each case's time from heal to
// data is printed (FAULTS lines) for docs/FAULTS.md; none is asserted against the clock.
// The cases run a few at a time (describe.concurrent, Vitest's maxConcurrency): each has its own
// proxy, store, poller and console, and most of a case is waiting out its timeout and backoff.
import { beforeAll, describe, expect, it } from 'vitest';
import { closeClient, createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import type { ResourceName } from '../../src/cluster/resources';
import { PANE_DECLARATIONS, PANES, type PaneId } from '../../src/domain/panes';
import { Poller } from '../../src/services/poller';
import { createConsoleStore } from '../../src/store/console';
import { onPath, startCountingProxy, type CountingProxy, type Fault } from '../helpers/counting-proxy';
import { esCall } from '../helpers/real-node';
import { expectFits, plain } from '../helpers/wizard-ui';
import { waitUntil } from '../helpers/wait-until';
import { failOnConsoleError, renderApp } from '../ui/harness';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
/** A stalled read is given up after this (the default is 15 s). */
const REQUEST_TIMEOUT_MS = 2000;
const INTERVAL_MS = 1000;

failOnConsoleError('file');

beforeAll(async () => {
  node = await sharedNode();
  await esCall(node.url, 'PUT', '/service_v9_faultpanes', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
}, 240_000);

/**
 * The read each pane alone adds (PANE_TABLE's reads, domain/panes.ts) and its path: health, on
 * every pane, only for the Timeline, which reads nothing else.
 */
const PANE_READ: Record<PaneId, [ResourceName, RegExp]> = {
  health: ['healthReport', /^\/_health_report$/],
  indices: ['indices', /^\/_cat\/indices$/],
  shards: ['shards', /^\/_cat\/shards$/],
  disk: ['allocation', /^\/_cat\/allocation$/],
  nodes: ['nodeStats', /^\/_nodes\/stats\/jvm,os,fs,thread_pool,breaker,indices\/fielddata,search,indexing$/],
  templates: ['indexTemplates', /^\/_index_template$/],
  doctor: ['allocation', /^\/_cat\/allocation$/],
  timeline: ['health', /^\/_cluster\/health$/],
  snapshots: ['snapshots', /^\/_snapshot\/_all\/_all$/],
  tasks: ['tasks', /^\/_tasks$/],
};

const FAULTS: [string, Fault, RegExp][] = [
  // The sentence, not the bare number: the status bar's URL carries the proxy's port, which may hold "502".
  ['502 from a proxy', { status: 502, body: { message: 'bad gateway' }, headers: { 'x-elastic-product': '' } }, /answered 502/],
  ['stall (nothing at all)', { stall: 'nothing' }, /did not answer in time/],
  ['answer cut short (truncated JSON)', { truncateBodyAt: 1 }, /an answer that is not JSON \(cut short/],
];

/** What must never reach the screen: a stack, an exception's name, the parser's or the HTTP library's words. */
const NOT_IN_WORDS = /\n\s+at |Error:|Unexpected (token|end)|Timeout Error|undefined|\[object /;

const CASES = PANES.flatMap((pane) => FAULTS.map(([what, fault, words]) => [pane, what, fault, words] as const));

describe.concurrent.each(CASES)('the %s pane when its read fails: %s', (pane, what, fault, words) => {
  it('says so in words, keeps running, and shows data again by itself once healed', async () => {
    const proxy: CountingProxy = await startCountingProxy(node.url);
    const [read, path] = PANE_READ[pane];
    const other: PaneId = pane === 'indices' ? 'shards' : 'indices';
    const store = createConsoleStore({
      connection: { url: proxy.url, profile: 'test', insecure: false, readOnly: true },
      intervalMs: INTERVAL_MS,
      pane,
    });
    const client = createClient({ url: proxy.url, requestTimeoutMs: REQUEST_TIMEOUT_MS });
    const poller = new Poller(createEsApi(client, proxy.url), store);
    const app = await renderApp(store, { poller, clock: Date.now });
    // Flattened: the sentence wraps over the pane's two error lines.
    const frame = () => plain(app.frame()).replace(/\s+/g, ' ');
    const waitFrame = (about: string, test: (f: string) => boolean, timeoutMs = 60_000) =>
      waitUntil(`${pane}, ${what}: ${about}`, frame, test, { timeoutMs, intervalMs: 50 });
    try {
      proxy.trap({ match: onPath('GET', path), action: fault });
      poller.start();
      await waitUntil(
        `${pane}, ${what}: the read failing`,
        () => store.getState().snapshots[read].error?.message ?? 'no error',
        (m) => words.test(m),
        {
          timeoutMs: 60_000,
          intervalMs: 50,
        },
      );
      // The pane's one sentence (PaneFrame: the error, then how it retries).
      const failing = await waitFrame('the failure said in words', (f) => words.test(f) && /retrying every/.test(f));
      expect(failing).not.toMatch(NOT_IN_WORDS);
      expectFits(plain(app.frame()));
      console.log(`FAULTS | console, ${pane} pane, ${what}: the screen\n${plain(app.frame())}`);
      // Still running: another pane's key is handled and that pane drawn, then back.
      await app.press(PANE_DECLARATIONS[other].key);
      await waitUntil(
        'the other pane',
        () => store.getState().pane,
        (p) => p === other,
      );
      // Its title line (the tab bar above it starts with a space); the Timeline shows the failing
      // health read's words on every pane, so a title, not their absence, says which is drawn.
      const titled = (p: PaneId) => new RegExp(`^${PANE_DECLARATIONS[p].title}\\b`, 'm').test(plain(app.frame()));
      await waitFrame('the other pane drawn', (f) => titled(other) && (!words.test(f) || pane === 'timeline'));
      // Back: the pane's reads are sent at once on its key; heal only once that read has failed too,
      // so what mends the pane below is the poller's own retry, not the key.
      const failures = store.getState().snapshots[read].failures;
      await app.press(PANE_DECLARATIONS[pane].key);
      await waitUntil(
        'the read failing again after the key',
        () => store.getState().snapshots[read].failures,
        (n) => n > failures,
        {
          timeoutMs: 60_000,
          intervalMs: 50,
        },
      );
      await waitFrame('back on the failing pane', (f) => titled(pane) && words.test(f));
      // Healed: no key pressed from here on.
      proxy.clearTraps();
      const healedAt = Date.now();
      await waitUntil(
        'the read answering again',
        () => store.getState().snapshots[read],
        (s) => !s.error && (s.fetchedAt ?? 0) >= healedAt,
        { timeoutMs: 120_000, intervalMs: 50 },
      );
      const healed = await waitFrame('the failure gone from the screen', (f) => !words.test(f) && !/retrying every/.test(f));
      console.log(`FAULTS | console, ${pane} pane, ${what}: data again after heal in | ${Date.now() - healedAt} ms`);
      expect(healed).not.toMatch(NOT_IN_WORDS);
      // The read that mended it went to the node (not an answer the proxy made up).
      expect(proxy.requests.filter((q) => path.test(q.path.split('?')[0])).at(-1)).toMatchObject({ handled: 'forwarded' });
    } finally {
      poller.stop();
      app.unmount();
      await closeClient(client);
      await proxy.close();
    }
  }, 180_000);
});
