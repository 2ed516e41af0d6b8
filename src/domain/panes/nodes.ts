// The Nodes pane's rows: heap used/max, heap max against the machine's RAM (at most 50% of RAM,
// never above 32 GB) and open scroll contexts against search.max_open_scroll_context; and the
// verdict on the selected node.
import { barText, formatBytes, formatPercent, heapSizeTone, usageTone, type Tone } from '../format';
import type { Column, SortKey } from '../table';
import type { NodeInfo, NodeSearchStats } from '../types';

export interface NodeLine extends NodeInfo {
  openContexts: number | null;
  scrollContextLimit: number | null;
}

/** Each node of _cat/nodes with its open search contexts (by name) and the cluster's limit. */
export function nodeLines(nodes: NodeInfo[], search: NodeSearchStats[] | undefined, scrollContextLimit: number | null): NodeLine[] {
  const byName = new Map((search ?? []).map((s) => [s.name, s]));
  return nodes.map((n) => ({ ...n, openContexts: byName.get(n.name)?.openContexts ?? null, scrollContextLimit }));
}

const pct = (a: number, b: number) => (b > 0 ? (a / b) * 100 : 0);

export const NODE_SORT_KEYS: SortKey<NodeLine>[] = [
  { title: 'node', value: (r) => r.name },
  { title: 'heap%', value: (r) => pct(r.heapUsedBytes, r.heapMaxBytes) },
  { title: 'scroll', value: (r) => r.openContexts ?? -1 },
];

/** What the filter searches in. */
export const nodeSearchText = (r: NodeLine) => `${r.name} ${r.ip} ${r.roles}`;

export const NODE_COLUMNS: Column<NodeLine>[] = [
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
export function nodeVerdict(n: NodeLine): { text: string; tone: Tone }[] {
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
