// Nodes: heap used/max with a bar, heap max against the machine's RAM (seed, Limits: at most 50% of
// RAM, never above 32 GB) and open scroll contexts against search.max_open_scroll_context.
import React, { useMemo } from 'react';
import { Box, Text } from 'ink';
import type { NodeInfo } from '../../domain/types';
import { barText, formatBytes, formatPercent, heapSizeTone, usageTone } from '../../domain/format';
import { fitText, type SortKey } from '../../domain/table';
import { useConsole } from '../app/context';
import { DataTable, type Column } from '../components/DataTable';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { colourOf } from '../theme';
import { useSelected, useTableKeys, useTableModel } from './table';

export interface NodeLine extends NodeInfo {
  openContexts: number | null;
  scrollContextLimit: number | null;
}

const pct = (a: number, b: number) => (b > 0 ? (a / b) * 100 : 0);

const SORT_KEYS: SortKey<NodeLine>[] = [
  { title: 'node', value: (r) => r.name },
  { title: 'heap%', value: (r) => pct(r.heapUsedBytes, r.heapMaxBytes) },
  { title: 'scroll', value: (r) => r.openContexts ?? -1 },
];

const textOf = (r: NodeLine) => `${r.name} ${r.ip} ${r.roles}`;

const COLUMNS: Column<NodeLine>[] = [
  { title: 'node', width: null, text: (r) => `${r.master ? '*' : ' '}${r.name}` },
  { title: 'heap%', width: 5, align: 'right', text: (r) => formatPercent(pct(r.heapUsedBytes, r.heapMaxBytes)), tone: (r) => usageTone(r.heapUsedBytes, r.heapMaxBytes) },
  {
    title: 'heap',
    width: 10,
    text: (r) => Object.values(barText(pct(r.heapUsedBytes, r.heapMaxBytes), 10)).join(''),
    tone: (r) => usageTone(r.heapUsedBytes, r.heapMaxBytes),
  },
  { title: 'used/max', width: 13, align: 'right', text: (r) => `${formatBytes(r.heapUsedBytes)}/${formatBytes(r.heapMaxBytes)}` },
  { title: 'RAM', width: 7, align: 'right', text: (r) => formatBytes(r.ramTotalBytes) },
  { title: 'max/RAM', width: 7, align: 'right', text: (r) => formatPercent(pct(r.heapMaxBytes, r.ramTotalBytes)), tone: (r) => heapSizeTone(r.heapMaxBytes, r.ramTotalBytes) },
  {
    title: 'scroll',
    width: 9,
    align: 'right',
    text: (r) => (r.openContexts === null ? '-' : `${r.openContexts}/${r.scrollContextLimit ?? '?'}`),
    tone: (r) => (r.openContexts === null || r.scrollContextLimit === null ? undefined : usageTone(r.openContexts, r.scrollContextLimit)),
  },
  { title: 'cpu', width: 4, align: 'right', text: (r) => (r.cpuPercent === null ? '-' : `${r.cpuPercent}%`) },
];

/** One sentence on the selected node's heap sizing and scroll contexts, with the rule behind it. */
export function nodeVerdict(n: NodeLine): { text: string; tone: 'green' | 'yellow' | 'red' | 'gray' }[] {
  const tone = heapSizeTone(n.heapMaxBytes, n.ramTotalBytes);
  const heap =
    tone === 'red'
      ? `heap max ${formatBytes(n.heapMaxBytes)} is above 32gb: compressed pointers are off; lower -Xmx/-Xms`
      : tone === 'yellow'
        ? `heap max ${formatBytes(n.heapMaxBytes)} is over 50% of RAM ${formatBytes(n.ramTotalBytes)}: the OS needs the rest for file caches`
        : `heap max ${formatBytes(n.heapMaxBytes)} = ${formatPercent(pct(n.heapMaxBytes, n.ramTotalBytes))} of RAM (limit 50%, never above 32gb)`;
  const lines = [{ text: heap, tone }];
  if (n.openContexts !== null && n.scrollContextLimit !== null) {
    const t = usageTone(n.openContexts, n.scrollContextLimit);
    lines.push({
      text: `open search contexts ${n.openContexts} of search.max_open_scroll_context ${n.scrollContextLimit}${t === 'green' ? '' : ': raise the limit or shorten client scroll keep-alive'}`,
      tone: t,
    });
  }
  return lines;
}

export function NodesPane({ width, height }: { width: number; height: number }) {
  const { nodes, search, settings } = useConsole((s) => ({ nodes: s.snapshots.nodes, search: s.snapshots.nodeSearch, settings: s.snapshots.settings }));
  const lines = useMemo(() => {
    if (!nodes.data) return undefined;
    const byName = new Map((search.data ?? []).map((s) => [s.name, s]));
    const limit = settings.data?.maxOpenScrollContext ?? null;
    return nodes.data.map((n) => ({ ...n, openContexts: byName.get(n.name)?.openContexts ?? null, scrollContextLimit: limit }));
  }, [nodes.data, search.data, settings.data]);
  const snaps = [nodes, search, settings];
  // Under the table: two lines on the selected node.
  const rowsHigh = Math.max(1, bodyHeight(height, snaps) - 1 - 3);
  const model = useTableModel('nodes', lines, SORT_KEYS, textOf, rowsHigh);
  useTableKeys('nodes', 'nodes', model.rows.length, rowsHigh, SORT_KEYS.length);
  const sel = model.rows[model.cursor];
  useSelected('nodes', sel ? { node: sel.name } : undefined);
  return (
    <PaneFrame title="Nodes" info={`${model.rows.length} nodes · * master`} snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        <DataTable
          {...model}
          columns={COLUMNS}
          height={rowsHigh}
          width={width}
          rowKey={(r) => r.id}
          empty={nodes.data ? 'no nodes' : ''}
        />
        {sel ? (
          <Box flexDirection="column" marginTop={1}>
            {nodeVerdict(sel).map((l) => (
              <Text key={l.text} color={colourOf(l.tone)}>
                {fitText(`${sel.name}: ${l.text}`, width)}
              </Text>
            ))}
          </Box>
        ) : null}
      </Box>
    </PaneFrame>
  );
}
