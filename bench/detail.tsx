// The index detail's cost, in its own process: tsx bench/detail.tsx <repeats> -> one JSON line.
// The answers recorded from a real node for service_v9_wide (2,000 mapped fields,
// test/fixtures/detail) arrive in the store as services/index-detail.ts writes them, and the real
// App draws the detail on a fake 80x24 terminal (Ink in debug mode: no frame-rate throttle).
// Measured: from the data's arrival to the first frame that shows it (the mapping tree built and
// drawn; parsing the answers included), on the Mappings and the Stats sections, and one page of
// scrolling through the 2,000 fields.
import fs from 'node:fs';
import path from 'node:path';
import React from 'react';
import { App } from '../src/ui/app/App';
import { createUiStore, emptyDetailView } from '../src/ui/state';
import { createConsoleStore, setSnapshot, type ResourceName } from '../src/store/console';
import { RESOURCES } from '../src/cluster/resources';
import { detailRequests } from '../src/cluster/inspect';
import { parseCatShards } from '../src/domain/parse';
import { parseIndexSettings, parseIndexStats, parseIndexTemplates, templateMatch } from '../src/domain/inspect/inspect';
import type { DetailSection, IndexDetail } from '../src/domain/inspect/index-detail';
import { parsedAsPolled } from '../test/helpers/recorded';
import { mountOnFakeTerminal, tick } from './fake-screen';

const root = process.cwd();
const REPEATS = Number(process.argv[2] ?? 15);
const INDEX = 'service_v9_wide';
const raw = (name: string) => fs.readFileSync(path.join(root, 'test/fixtures/detail', name), 'utf8');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN;
};

/** The detail as the service writes it once every read has arrived: parsed from the raw answers each time. */
function arrived(): IndexDetail {
  const now = Date.now();
  const ok = <T,>(data: T) => ({ data, fetchedAt: now, failures: 0 });
  return {
    index: INDEX,
    requests: detailRequests(INDEX),
    settings: ok(parseIndexSettings(JSON.parse(raw('wide-settings.json')))[0]),
    mappings: ok(JSON.parse(raw('wide-mappings.json'))[INDEX].mappings),
    template: ok(templateMatch(INDEX, JSON.parse(raw('wide-simulate.json')), parseIndexTemplates(JSON.parse(raw('templates.json'))))),
    shards: ok(parseCatShards(JSON.parse(raw('wide-shards.json')))),
    stats: ok(parseIndexStats(JSON.parse(raw('wide-stats.json'))).indices[INDEX]),
    previousStats: { data: parseIndexStats(JSON.parse(raw('wide-stats-prev.json'))).indices[INDEX], fetchedAt: now - 5000 },
  };
}

async function main() {
  const store = createConsoleStore({ connection: { url: 'http://127.0.0.1:9200', profile: 'bench', insecure: false, readOnly: false } });
  for (const name of Object.keys(RESOURCES) as ResourceName[])
    setSnapshot(store, name, { data: parsedAsPolled('yellow', name) as never, fetchedAt: Date.now(), failures: 0 });
  store.setState({ pane: 'indices' });
  const ui = createUiStore();
  const { stdout, stdin, instance } = mountOnFakeTerminal(<App store={store} ui={ui} poller={{ refreshNow: async () => {} }} />);
  await tick();

  /** CPU time (user + system) of each measured frame: on a shared machine wall time also counts other processes' turns. */
  const cpu: number[] = [];
  /** Time from `act` until a frame containing `expect` is written. */
  async function frameWith(act: () => void, expect: string): Promise<number> {
    let done!: (t: number) => void;
    const written = new Promise<number>((r) => (done = r));
    let c1: NodeJS.CpuUsage | undefined;
    stdout.onWrite = () => {
      if (!stdout.last.includes(expect)) return;
      stdout.onWrite = undefined;
      c1 = process.cpuUsage(c0);
      done(performance.now());
    };
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    act();
    const t1 = await written;
    cpu.push((c1!.user + c1!.system) / 1000);
    await tick();
    return t1 - t0;
  }

  const open = async (section: DetailSection, expect: string) => {
    const times: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      store.setState({ indexDetail: undefined });
      ui.setState({ detail: { ...emptyDetailView(), section } });
      await tick();
      // The data arrives: parse the answers and hand them to the store (what the service does).
      times.push(await frameWith(() => store.setState({ indexDetail: arrived() }), expect));
    }
    return times;
  };
  const mappings = await open('mappings', 'fields; dynamic: strict');
  const mappingsCpu = cpu.splice(0);
  const fields = Number(/(\d+) fields; dynamic/.exec(stdout.last)?.[1] ?? NaN);
  const stats = await open('stats', 'rates over the last');
  // Scrolling the open mapping: one page down per frame.
  ui.setState({ detail: { ...emptyDetailView(), section: 'mappings' } });
  await tick();
  const scroll: number[] = [];
  for (let i = 0; i < REPEATS * 2; i++) {
    const before = ui.getState().detail.offset;
    scroll.push(await frameWith(() => stdin.write('\u001b[6~'), ''));
    if (ui.getState().detail.offset === before) ui.setState({ detail: { ...ui.getState().detail, key: undefined, cursor: 0, offset: 0 } });
  }
  instance.unmount();
  process.stdout.write(
    JSON.stringify({
      fields: Number.isNaN(fields) ? null : fields,
      open_mappings_ms: median(mappings),
      open_mappings_max_ms: Math.max(...mappings),
      open_mappings_cpu_ms: median(mappingsCpu),
      open_stats_ms: median(stats),
      scroll_frame_ms: median(scroll),
      peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    }) + '\n',
  );
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`detail bench failed: ${e?.stack ?? e}\n`);
  process.exit(1);
});
