// The top two lines: cluster, status in colour, version, platform user, markers for paused
// polling and read-only mode; then the pane tabs.
import React from 'react';
import { Box, Text } from 'ink';
import { statusTone } from '../../domain/format';
import { modeMarkers, platformWho, statusBadge } from '../../domain/panes/bars';
import { nodeVersions } from '../../domain/status';
import { fitText } from '../../domain/table';
import { keysOf } from '../../keys/keymap';
import { PANES, PANE_SPECS } from '../../store/panes';
import { useConsole } from '../app/context';
import { colourOf } from '../theme';

export function Header({ width }: { width: number }) {
  const s = useConsole((st) => ({
    cluster: st.snapshots.health.data?.clusterName,
    status: st.snapshots.health.data?.status,
    stale: Boolean(st.snapshots.health.error),
    // The version string, not the nodes: their heap changes every poll.
    version: nodeVersions(st.snapshots.nodes.data) ?? '',
    platform: st.platform,
    paused: st.paused,
    readOnly: st.connection.readOnly,
    pane: st.pane,
  }));
  const version = s.version;
  const who = platformWho(s.platform);
  const status = statusBadge(s.status, s.stale);
  const markers = modeMarkers(s.paused, s.readOnly);
  const left = `shardeck ${s.cluster ?? '(connecting)'} `;
  const rest = ` ${version}${who ? `  ${who}` : ''}`;
  const room = Math.max(0, width - left.length - status.length - markers.length - 1);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text bold>{left}</Text>
        <Text inverse bold color={colourOf(statusTone(s.status))}>
          {status}
        </Text>
        <Text>{fitText(rest, room)}</Text>
        {markers ? (
          <Text bold color={colourOf('yellow')}>
            {' ' + markers}
          </Text>
        ) : null}
      </Text>
      <Text wrap="truncate">
        {PANES.map((p) => (
          <Text key={p} inverse={p === s.pane} bold={p === s.pane}>
            {/* The pane's own number key (pre-assigned: 6 Templates, 7 Doctor, 8 Timeline). */}
            {` ${keysOf(`pane.${p}`)[0]} ${PANE_SPECS[p].title} `}
          </Text>
        ))}
        <Text dimColor>{'  ? help'}</Text>
      </Text>
    </Box>
  );
}
