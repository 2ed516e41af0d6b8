// The Disk pane's text: the effective watermarks, each data node's usage line, the indices that
// carry a read-only block, and how many of each fit the pane.
import { formatBytes } from '../text/format';
import { headroomText, type DiskRow } from '../nodes/disk';
import type { IndexBlocks, Watermark, Watermarks } from '../types';

/** "85%", or "85% ≤200gb" when max_headroom caps the free space asked for. */
function wm(w: Watermark): string {
  return w.maxHeadroomBytes === null ? w.raw : `${w.raw} ≤${formatBytes(w.maxHeadroomBytes)}`;
}

export function watermarkLine(w: Watermarks): string {
  if (!w.thresholdEnabled) return 'disk threshold decider is OFF (cluster.routing.allocation.disk.threshold_enabled=false)';
  return `watermarks  L low ${wm(w.low)}  H high ${wm(w.high)}  F flood ${wm(w.flood)}`;
}

/** The line under a node's bar: used of total, free, and the room left before the high watermark. */
export function diskUsageText(row: DiskRow): string {
  return `used ${formatBytes(row.usedBytes)} of ${formatBytes(row.totalBytes)} · free ${formatBytes(row.availBytes)} · ${headroomText(row.headroomToHighBytes)}`;
}

/** The indices a read-only block stops writing to (read_only or read_only_allow_delete). */
export function readOnlyIndices(blocks: IndexBlocks[] | undefined): IndexBlocks[] {
  return (blocks ?? []).filter((b) => b.readOnlyAllowDelete || b.readOnly);
}

export function readOnlyHeading(count: number): string {
  return `${count} ${count === 1 ? 'index' : 'indices'} read-only (ro/del: deletes still work; lifted below high):`;
}

export function readOnlyLine(b: IndexBlocks): string {
  return `  ${b.index}  ${b.readOnly ? 'index.blocks.read_only' : 'index.blocks.read_only_allow_delete'}`;
}

/**
 * How the pane's body is shared: the watermarks, a blank, 2 lines per node, a blank, the block
 * heading, one line per blocked index. The blocks get up to a third, at least the heading and one.
 */
export function diskLayout(bodyLines: number, readOnlyCount: number): { nodes: number; blockLines: number } {
  const room = bodyLines - 2;
  const blockLines = Math.min(readOnlyCount + 1, Math.max(2, Math.floor(room / 3)));
  return { nodes: Math.max(1, Math.floor((room - blockLines - 1) / 2)), blockLines };
}
