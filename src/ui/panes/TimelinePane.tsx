// Timeline: the incident so far, newest at the bottom (health transitions with the shards that
// caused them, changes from every shardeck on the host, recovery steps, tasks, notes). It scrolls
// with the list keys and follows new entries while the last one is selected; the selected entry
// is shown whole (wrapped) under the list. `n` adds a note (App.tsx), from the leader or a follower.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { countOf, type Tone } from '../../domain/text/format';
import { entryRowText, entryText, entryTone, utcClock, type TimelineEntry } from '../../domain/timeline';
import { NAV_START } from '../../domain/console/list-nav';
import { fitText, visibleRange } from '../../domain/text/table';
import { wrapText } from '../../domain/text/text';
import { PANE_SPECS } from '../../store/panes';
import { useConsole } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { useListNav } from '../input/use-list-nav';
import { colourOf } from '../theme';

const EMPTY: TimelineEntry[] = [];
/** Lines under the list for the selected entry, whole. */
const DETAIL_LINES = 3;

function toneOf(e: TimelineEntry): Tone | undefined {
  const t = entryTone(e);
  if (t === 'green' || t === 'yellow' || t === 'red') return t;
  return undefined;
}

export function TimelinePane({ width, height }: { width: number; height: number }) {
  const { entries, health } = useConsole((s) => ({ entries: s.timeline ?? EMPTY, health: s.snapshots.health }));
  const keymap = useKeymap();
  const body = bodyHeight(height, [health]);
  const rowsHigh = Math.max(1, body - DETAIL_LINES - 1);
  // Entries are only appended: an entry's position is its identity.
  const nav = useListNav({ length: entries.length, keyAt: String, height: rowsHigh, tail: true }, { ...NAV_START, tail: true });
  useKeyLayer('pane', (name) => nav.move(commandFor(name, PANE_SPECS.timeline.keyScopes, keymap)?.id ?? ''));
  const { start, end } = visibleRange(nav.nav, entries.length, rowsHigh);
  const sel = entries[nav.nav.cursor];
  const detail = sel ? wrapText(`${sel.time} ${entryText(sel)}`, width, DETAIL_LINES) : [];
  return (
    <PaneFrame
      title="Timeline"
      info={`${countOf(entries.length, 'entry', 'entries')} (UTC)  n note`}
      snaps={[health]}
      width={width}
      height={height}
    >
      {entries.length === 0 ? (
        <Text dimColor>nothing yet: health transitions, changes, recovery steps, tasks and notes (n) appear here</Text>
      ) : null}
      <Box flexDirection="column" height={rowsHigh}>
        {entries.slice(start, end).map((e, i) => (
          <Text key={`${e.time}-${start + i}`} wrap="truncate" inverse={start + i === nav.nav.cursor && entries.length > 1}>
            <Text dimColor>{utcClock(e.time)} </Text>
            <Text color={colourOf(toneOf(e))} bold={e.kind === 'note'}>
              {fitText(entryRowText(e), Math.max(1, width - 9))}
            </Text>
          </Text>
        ))}
      </Box>
      {entries.length > 0 ? <Text dimColor>{fitText(`${nav.nav.cursor + 1}/${entries.length}`, width)}</Text> : null}
      {detail.map((l, i) => (
        <Text key={`d${i}`}>{l}</Text>
      ))}
    </PaneFrame>
  );
}
