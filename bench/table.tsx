// Table component cost, one library and one size per process (so peak RSS is that case's alone):
//   node bench/out/table.mjs <datatable|ink-table> <rows> <repeats>   -> one JSON line on stdout.
// The same index rows (name, health, docs, size) go to shardeck's windowed DataTable (renders the
// 20 rows an 80x24 pane shows), to @alcalzone/ink-table (the maintained ESM fork of ink-table,
// which renders every row it is given), and to ink-table handed only those 20 rows, in a fake 80x24 terminal with Ink in debug mode (every
// render written at once, so a frame's time is its cost).
import React from 'react';
import { render } from 'ink';
import { Table } from '@alcalzone/ink-table';
import { DataTable } from '../src/ui/components/DataTable';
import type { Column } from '../src/domain/text/table';
import { FakeStdin, FakeStdout } from '../test/helpers/fake-terminal';

const LIB = process.argv[2] as 'datatable' | 'ink-table' | 'ink-table-window';
const N = Number(process.argv[3] ?? 1000);
const REPEATS = Number(process.argv[4] ?? 5);
const HEIGHT = 20;

type Row = {
  index: string;
  health: string;
  docs: number;
  size: string;
};

function rows(n: number, salt: number): Row[] {
  return Array.from({ length: n }, (_, i) => ({
    index: `service_v9_project${i}`,
    health: i % 50 === 0 ? 'yellow' : 'green',
    docs: (i * 7919 + salt) % 5_000_000,
    size: `${((i * 104_729) % 9_000) / 10}mb`,
  }));
}

const COLUMNS: Column<Row>[] = [
  { title: 'index', width: null, text: (r) => r.index },
  { title: 'health', width: 7, text: (r) => r.health },
  { title: 'docs', width: 10, align: 'right', text: (r) => String(r.docs) },
  { title: 'size', width: 9, align: 'right', text: (r) => r.size },
];

function View({ data }: { data: Row[] }) {
  if (LIB === 'ink-table') return <Table data={data} />;
  // The fair use of it: handed only the rows the viewport shows, as DataTable draws them.
  if (LIB === 'ink-table-window') return <Table data={data.slice(0, HEIGHT)} />;
  return <DataTable columns={COLUMNS} rows={data} cursor={0} offset={0} height={HEIGHT} width={80} rowKey={(r) => r.index} />;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

async function main() {
  if (!['datatable', 'ink-table', 'ink-table-window'].includes(LIB)) throw new Error(`unknown table library ${LIB}`);
  const stdout = new FakeStdout(80, 24, 'last');
  let done: (() => void) | undefined;
  stdout.onWrite = () => done?.();
  const frame = (act: () => void) =>
    new Promise<number>((resolve) => {
      const t0 = performance.now();
      done = () => {
        done = undefined;
        resolve(performance.now() - t0);
      };
      act();
    });
  let instance!: ReturnType<typeof render>;
  const first = await frame(() => {
    instance = render(<View data={rows(N, 0)} />, {
      stdout: stdout as never,
      stdin: new FakeStdin() as never,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
  });
  // A new snapshot (as after each poll): fresh rows, one frame.
  const update: number[] = [];
  for (let i = 1; i <= REPEATS; i++) update.push(await frame(() => instance.rerender(<View data={rows(N, i)} />)));
  if (!stdout.last.includes('service_v9_project0')) throw new Error(`${LIB} did not draw its rows`);
  const lines = stdout.last.split('\n').length;
  instance.unmount();
  process.stdout.write(
    JSON.stringify({
      lib: LIB,
      rows: N,
      first_frame_ms: first,
      update_ms: median(update),
      frame_lines: lines,
      peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    }) + '\n',
  );
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`table bench failed: ${e?.stack ?? e}\n`);
  process.exit(1);
});
