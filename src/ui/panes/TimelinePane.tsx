// Timeline: the incident so far, newest at the bottom (health transitions with the shards that
// caused them, changes from every shardeck on the host, recovery steps, tasks, notes). Only the
// lines that fit are drawn. `n` adds a note (App.tsx), from the leader or a follower.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import type { Tone } from '../../domain/format';
import { entryText, entryTone, utcClock, type TimelineEntry } from '../../domain/timeline';
import { fitText } from '../../domain/table';
import { useConsole } from '../app/context';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { colourOf } from '../theme';

const EMPTY: TimelineEntry[] = [];

function toneOf(e: TimelineEntry): Tone | undefined {
  const t = entryTone(e);
  if (t === 'green' || t === 'yellow' || t === 'red') return t;
  return undefined;
}

export function TimelinePane({ width, height }: { width: number; height: number }) {
  const { entries, health } = useConsole((s) => ({ entries: s.timeline ?? EMPTY, health: s.snapshots.health }));
  const body = bodyHeight(height, [health]);
  const shown = entries.slice(Math.max(0, entries.length - body));
  return (
    <PaneFrame title="Timeline" info={`${entries.length} entries (UTC)  n note`} snaps={[health]} width={width} height={height}>
      {entries.length === 0 ? <Text dimColor>nothing yet: health transitions, changes, recovery steps, tasks and notes (n) appear here</Text> : null}
      <Box flexDirection="column">
        {shown.map((e, i) => (
          <Text key={`${e.time}-${i}`} wrap="truncate">
            <Text dimColor>{utcClock(e.time)} </Text>
            <Text color={colourOf(toneOf(e))} bold={e.kind === 'note'}>{fitText(entryText(e), Math.max(1, width - 9))}</Text>
          </Text>
        ))}
      </Box>
    </PaneFrame>
  );
}
