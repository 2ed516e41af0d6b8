// The top two lines: cluster, status in colour, version, platform user, markers for paused
// polling and read-only mode; then the pane tabs.
import React from 'react';
import { Box, Text } from 'ink';
import { statusTone } from '../../domain/format';
import { modeMarkers, platformWho, statusBadge } from '../../domain/panes/bars';
import { nodeVersions } from '../../domain/status';
import { fitText } from '../../domain/table';
import { PANES, PANE_SPECS } from '../../store/panes';
import { nodeLeftText } from '../../domain/node-watch';
import { useConsole, useNow } from '../app/context';
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
    nodeWatch: st.nodeWatch,
    health: st.snapshots.health.data,
  }));
  // "1 node left (node-3) 40s ago": the age moves on by itself (useNow redraws only when it changes).
  const now = useNow((t) => nodeLeftText(s.nodeWatch, s.health, t));
  const left = nodeLeftText(s.nodeWatch, s.health, now);
  const nodeLeft = left ? ` ${left} ` : '';
  const version = s.version;
  const who = platformWho(s.platform);
  const status = statusBadge(s.status, s.stale);
  const markers = modeMarkers(s.paused, s.readOnly);
  const title = `shardeck ${s.cluster ?? '(connecting)'} `;
  const rest = ` ${version}${who ? `  ${who}` : ''}`;
  const room = Math.max(0, width - title.length - status.length - nodeLeft.length - markers.length - 1);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text bold>{title}</Text>
        <Text inverse bold color={colourOf(statusTone(s.status))}>
          {status}
        </Text>
        {nodeLeft ? (
          <Text bold color={colourOf('red')}>
            {nodeLeft}
          </Text>
        ) : null}
        <Text>{fitText(rest, room)}</Text>
        {markers ? (
          <Text bold color={colourOf('yellow')}>
            {' ' + markers}
          </Text>
        ) : null}
      </Text>
      <Text wrap="truncate">
        {PANES.map((p, i) => (
          <Text key={p} inverse={p === s.pane} bold={p === s.pane}>
            {` ${i + 1} ${PANE_SPECS[p].title} `}
          </Text>
        ))}
        <Text dimColor>{'  ? help'}</Text>
      </Text>
    </Box>
  );
}
