// The top two lines: cluster, status in colour, version, platform user, markers for paused
// polling and read-only mode; then the pane tabs.
import React from 'react';
import { Box } from 'ink';
import { Text } from './Text';
import { statusTone } from '../../domain/text/format';
import { modeMarkers, platformWho, statusBadge } from '../../domain/panes/bars';
import { nodeVersions } from '../../domain/inspect/status';
import { fitText } from '../../domain/text/table';
import { keysOf } from '../../keys/keymap';
import { PANES, PANE_SPECS } from '../../store/panes';
import { nodeLeftText } from '../../domain/nodes/node-watch';
import { useConsole, useNow } from '../app/context';
import { colourOf } from '../theme';
import { badgeText } from '../../domain/console/profile-badge';

const HELP_TAB = '  ? help';

/**
 * One tab per pane with its own number key (pre-assigned: 6 Templates, 7 Doctor, 8 Timeline). When
 * all titles do not fit (nine panes at 80 columns), the other panes' titles are cut to four letters,
 * then fewer, the current one stays whole, so every tab, its number and "? help" stay on screen.
 */
function paneTabs(current: string, width: number): { pane: string; text: string }[] {
  const tabs = (cut: number) =>
    PANES.map((p) => {
      const title = PANE_SPECS[p].title;
      return { pane: p, text: ` ${keysOf(`pane.${p}`)[0]} ${p !== current ? title.slice(0, cut) : title} ` };
    });
  const fits = (t: { text: string }[]) => t.reduce((n, x) => n + x.text.length, HELP_TAB.length) <= width;
  for (const cut of [Infinity, 4, 3, 2]) if (fits(tabs(cut))) return tabs(cut);
  return tabs(1);
}

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
    badge: st.connection.badge,
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
  // The profile's label first, in its colour (reversed, so it reads as a band); the text alone under NO_COLOR.
  const badge = s.badge ? badgeText(s.badge) : '';
  const badgeColour = colourOf(s.badge?.colour);
  const room = Math.max(0, width - badge.length - (badge ? 1 : 0) - title.length - status.length - nodeLeft.length - markers.length - 1);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        {badge ? (
          <Text bold inverse={badgeColour !== undefined} color={badgeColour}>
            {badge}
          </Text>
        ) : null}
        {badge ? ' ' : null}
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
        {paneTabs(s.pane, width).map(({ pane, text }) => (
          <Text key={pane} inverse={pane === s.pane} bold={pane === s.pane}>
            {text}
          </Text>
        ))}
        <Text dimColor>{HELP_TAB}</Text>
      </Text>
    </Box>
  );
}
