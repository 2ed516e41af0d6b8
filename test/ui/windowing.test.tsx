// A 20,000-row table must cost a frame what a 20-row one does: only the visible rows are rendered,
// and filtering/sorting runs once per snapshot, not on every cursor move.
import React from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'ink-testing-library';
import { DataTable } from '../../src/ui/components/DataTable';
import type { Column } from '../../src/domain/text/table';
import { setSnapshot } from '../../src/store/console';
import type { IndexRow } from '../../src/domain/types';
import { failOnConsoleError, loadScenario, makeStore, renderApp, type Rendered } from './harness';
import { waitUntil } from '../helpers/wait-until';
import * as table from '../../src/domain/text/table';

// Counts how often the panes filter and sort (the real function runs).
vi.mock('../../src/domain/text/table', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../../src/domain/text/table')>();
  return { ...orig, sortRowsAgain: vi.fn(orig.sortRowsAgain) };
});

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const N = 20_000;

function indexRows(n: number): IndexRow[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `service_v9_p${String(i).padStart(5, '0')}`,
    health: 'green',
    status: 'open',
    uuid: `u${i}`,
    primaries: 1,
    replicas: 0,
    docsCount: i,
    docsDeleted: 0,
    storeBytes: i * 10,
    priStoreBytes: i * 10,
    system: false,
  }));
}

describe('DataTable', () => {
  it('renders only the rows in the viewport of a 20,000-row table', () => {
    const text = vi.fn((row: number) => `row ${row}`);
    const columns: Column<number>[] = [{ title: 'n', width: null, text }];
    const rows = Array.from({ length: N }, (_, i) => i);
    const { lastFrame, unmount } = render(
      <DataTable columns={columns} rows={rows} cursor={12_345} offset={12_340} height={15} width={40} rowKey={String} />,
    );
    const lines = lastFrame()!.split('\n');
    expect(lines).toHaveLength(16);
    expect(lines[1]).toContain('row 12340');
    expect(lines[15]).toContain('row 12354');
    expect(text).toHaveBeenCalledTimes(15);
    unmount();
  });
});

describe('Indices pane with 20,000 indices', () => {
  it('scrolls to the end and back at 80x23; cursor moves do not sort again', async () => {
    const store = makeStore();
    loadScenario(store, 'yellow');
    setSnapshot(store, 'indices', { data: indexRows(N) });
    store.setState({ pane: 'indices' });
    r = await renderApp(store);
    expect(r.frame()).toContain(`${N} of ${N}`);
    await r.press('G');
    expect(r.frame()).toContain('service_v9_p19999');
    expect(r.frame()).not.toContain('service_v9_p00000');
    expect(r.lines()).toHaveLength(23);
    // Sorting ran for the snapshot; cursor moves only re-slice.
    const sorts = vi.mocked(table.sortRowsAgain).mock.calls.length;
    expect(sorts).toBeGreaterThan(0);
    for (let i = 0; i < 30; i++) await r.press('k');
    expect(r.ui.getState().selection.indices).toEqual({ index: 'service_v9_p19969' });
    expect(vi.mocked(table.sortRowsAgain).mock.calls.length).toBe(sorts);
    // A new snapshot is sorted again.
    setSnapshot(store, 'indices', { data: indexRows(N) });
    await waitUntil(
      'the new snapshot sorted',
      () => vi.mocked(table.sortRowsAgain).mock.calls.length,
      (n) => n >= sorts + 1,
      { timeoutMs: 5000, intervalMs: 5 },
    );
    expect(vi.mocked(table.sortRowsAgain).mock.calls.length).toBe(sorts + 1);
    await r.press('g');
    expect(r.frame()).toContain('service_v9_p00000');
  });
});
