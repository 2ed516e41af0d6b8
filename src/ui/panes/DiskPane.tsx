// Disk: one bar per data node with L/H/F marks at the EFFECTIVE watermarks (percent or absolute,
// max_headroom applied: domain/nodes/disk.ts), the node's level, used/total, headroom to the high
// watermark, and the indices that carry a read-only block.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { diskRows, type DiskRow } from '../../domain/nodes/disk';
import { countOf, diskLevelTone, formatPercent } from '../../domain/text/format';
import { diskLayout, diskUsageText, readOnlyHeading, readOnlyIndices, readOnlyLine, watermarkLine } from '../../domain/panes/disk';
import { fitText } from '../../domain/text/table';
import { PANE_SPECS } from '../../store/panes';
import { useConsole } from '../app/context';
import { Bar } from '../components/Bar';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { colourOf } from '../theme';

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
        {fitText(formatPercent(row.usedPercent, 1), PCT, 'right')}{' '}
        <Text color={colourOf(tone)} bold={row.level !== 'ok'}>
          {fitText(row.level.toUpperCase(), LEVEL)}
        </Text>
      </Text>
      <Text dimColor>{fitText(`${' '.repeat(NAME)} ${diskUsageText(row)}`, width)}</Text>
    </Box>
  );
}

export function DiskPane({ width, height }: { width: number; height: number }) {
  const { allocation, settings, blocks } = useConsole((s) => ({
    allocation: s.snapshots.allocation,
    settings: s.snapshots.settings,
    blocks: s.snapshots.blocks,
  }));
  const snaps = [allocation, settings, blocks];
  const rows = allocation.data && settings.data ? diskRows(allocation.data, settings.data.watermarks) : [];
  const readOnly = readOnlyIndices(blocks.data);
  const layout = diskLayout(bodyHeight(height, snaps), readOnly.length);
  const shownNodes = rows.slice(0, layout.nodes);
  const shownBlocks = readOnly.slice(0, Math.max(0, layout.blockLines - 1));
  return (
    <PaneFrame title={PANE_SPECS.disk.title} info={countOf(rows.length, 'data node')} snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        <Text>{fitText(settings.data ? watermarkLine(settings.data.watermarks) : '', width)}</Text>
        <Text> </Text>
        {shownNodes.map((r) => (
          <NodeBar key={r.node} row={r} width={width} />
        ))}
        {rows.length > shownNodes.length ? (
          <Text dimColor>{`+${rows.length - shownNodes.length} more nodes (terminal too short)`}</Text>
        ) : null}
        <Text> </Text>
        {blocks.data ? (
          readOnly.length === 0 ? (
            <Text color={colourOf('green')}>no index has a read-only block</Text>
          ) : (
            <Text color={colourOf('red')}>{fitText(readOnlyHeading(readOnly.length), width)}</Text>
          )
        ) : null}
        {shownBlocks.map((b) => (
          <Text key={b.index}>{fitText(readOnlyLine(b), width)}</Text>
        ))}
        {readOnly.length > shownBlocks.length ? (
          <Text dimColor>{`  +${readOnly.length - shownBlocks.length} more (Indices pane, filter "ro")`}</Text>
        ) : null}
      </Box>
    </PaneFrame>
  );
}
