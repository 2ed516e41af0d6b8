// Disk: one bar per data node with L/H/F marks at the EFFECTIVE watermarks (percent or absolute,
// max_headroom applied: domain/disk.ts), the node's level, used/total, headroom to the high
// watermark, and the indices that carry a read-only block.
import React from 'react';
import { Box, Text } from 'ink';
import { diskRows, type DiskRow } from '../../domain/disk';
import { diskLevelTone, formatBytes, formatPercent } from '../../domain/format';
import { fitText } from '../../domain/table';
import type { Watermark, Watermarks } from '../../domain/types';
import { useConsole } from '../app/context';
import { Bar } from '../components/Bar';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { colourOf } from '../theme';

/** "85%", or "85% ≤200gb" when max_headroom caps the free space asked for. */
function wm(w: Watermark): string {
  return w.maxHeadroomBytes === null ? w.raw : `${w.raw} ≤${formatBytes(w.maxHeadroomBytes)}`;
}

export function watermarkLine(w: Watermarks): string {
  if (!w.thresholdEnabled) return 'disk threshold decider is OFF (cluster.routing.allocation.disk.threshold_enabled=false)';
  return `watermarks  L low ${wm(w.low)}  H high ${wm(w.high)}  F flood ${wm(w.flood)}`;
}

const NAME = 14;
const PCT = 6;
const LEVEL = 5;

function NodeBar({ row, width }: { row: DiskRow; width: number }) {
  const barWidth = Math.max(10, width - NAME - PCT - LEVEL - 5);
  const tone = diskLevelTone(row.level);
  return (
    <Box flexDirection="column">
      <Text>
        {fitText(row.node, NAME)}{' '}
        <Bar
          percent={row.usedPercent}
          width={barWidth}
          tone={tone}
          marks={[
            { at: row.marks.low, char: 'L' },
            { at: row.marks.high, char: 'H' },
            { at: row.marks.flood, char: 'F' },
          ]}
        />{' '}
        {fitText(formatPercent(row.usedPercent, 1), PCT, 'right')} <Text color={colourOf(tone)} bold={row.level !== 'ok'}>{fitText(row.level.toUpperCase(), LEVEL)}</Text>
      </Text>
      <Text dimColor>
        {fitText(
          `${' '.repeat(NAME)} used ${formatBytes(row.usedBytes)} of ${formatBytes(row.totalBytes)} · free ${formatBytes(row.availBytes)} · ${formatBytes(row.headroomToHighBytes)} before high`,
          width,
        )}
      </Text>
    </Box>
  );
}

export function DiskPane({ width, height }: { width: number; height: number }) {
  const { allocation, settings, blocks } = useConsole((s) => ({ allocation: s.snapshots.allocation, settings: s.snapshots.settings, blocks: s.snapshots.blocks }));
  const snaps = [allocation, settings, blocks];
  const rows = allocation.data && settings.data ? diskRows(allocation.data, settings.data.watermarks) : [];
  const readOnly = (blocks.data ?? []).filter((b) => b.readOnlyAllowDelete || b.readOnly);
  // Lines: watermarks, a blank, 2 per node, a blank, the block heading, one per blocked index.
  const room = bodyHeight(height, snaps) - 2;
  const blockLines = Math.min(readOnly.length + 1, Math.max(2, Math.floor(room / 3)));
  const nodeRoom = Math.max(1, Math.floor((room - blockLines - 1) / 2));
  const shownNodes = rows.slice(0, nodeRoom);
  const shownBlocks = readOnly.slice(0, Math.max(0, blockLines - 1));
  return (
    <PaneFrame title="Disk" info={`${rows.length} data nodes`} snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        <Text>{fitText(settings.data ? watermarkLine(settings.data.watermarks) : '', width)}</Text>
        <Text> </Text>
        {shownNodes.map((r) => (
          <NodeBar key={r.node} row={r} width={width} />
        ))}
        {rows.length > shownNodes.length ? <Text dimColor>{`+${rows.length - shownNodes.length} more nodes (terminal too short)`}</Text> : null}
        <Text> </Text>
        {blocks.data ? (
          readOnly.length === 0 ? (
            <Text color={colourOf('green')}>no index has a read-only block</Text>
          ) : (
            <Text color={colourOf('red')}>
              {fitText(`${readOnly.length} ${readOnly.length === 1 ? "index" : "indices"} read-only (ro/del: deletes still work; lifted below high):`, width)}
            </Text>
          )
        ) : null}
        {shownBlocks.map((b) => (
          <Text key={b.index}>{fitText(`  ${b.index}  ${b.readOnly ? 'index.blocks.read_only' : 'index.blocks.read_only_allow_delete'}`, width)}</Text>
        ))}
        {readOnly.length > shownBlocks.length ? <Text dimColor>{`  +${readOnly.length - shownBlocks.length} more (Indices pane, filter "ro")`}</Text> : null}
      </Box>
    </PaneFrame>
  );
}
