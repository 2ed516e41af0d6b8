// Health: the cluster's status in colour and why it is not green, its counts, and the
// _health_report indicators worst first with symptom and impacts.
import React, { useMemo } from 'react';
import { Box, Text } from 'ink';
import { buildStatusReport, explainNotGreen, nodeVersions } from '../../domain/status';
import { diagnosisHint, indicatorLines, reportHeading, summaryLines, wrapLine } from '../../domain/panes/health';
import { fitText } from '../../domain/table';
import { PANE_SPECS } from '../../store/panes';
import { useConsole, useConsoleContext, useUi } from '../app/context';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { colourOf } from '../theme';
import { useKeymap } from '../app/use-keymap';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { scrollList } from '../../domain/list-nav';
import { useListNav } from '../input/use-list-nav';

export function HealthPane({ width, height }: { width: number; height: number }) {
  const { poller } = useConsoleContext();
  const diagnoses = useConsole((st) => st.diagnoses);
  const keymap = useKeymap();
  // Only what is drawn: the version string rather than the nodes (their heap changes every poll),
  // and the reads behind "why" only while the cluster is not green, so an idle green console
  // re-renders when something shown changes, not on every poll.
  const s = useConsole((st) => {
    const green = st.snapshots.health.data?.status === 'green';
    return {
      health: st.snapshots.health,
      report: st.snapshots.healthReport,
      version: nodeVersions(st.snapshots.nodes.data),
      allocation: green ? undefined : st.snapshots.allocation,
      settings: green ? undefined : st.snapshots.settings,
      blocks: green ? undefined : st.snapshots.blocks,
      shards: green ? undefined : st.snapshots.shards,
    };
  });
  const h = s.health.data;
  const why = useMemo(() => {
    // Settings arrive in the same first round as health (both are among its resources in store/panes.ts).
    if (!h || h.status === 'green' || !s.settings?.data) return null;
    // The same explanation `shardeck status` prints; it names reasons when shards are known.
    return explainNotGreen(
      buildStatusReport({
        health: h,
        allocation: s.allocation?.data ?? [],
        settings: s.settings.data,
        blocks: s.blocks?.data ?? [],
        shards: s.shards?.data,
      }),
    );
  }, [h, s.allocation?.data, s.settings?.data, s.blocks?.data, s.shards?.data]);
  const version = s.version;
  const snaps = [s.health, s.report];
  const top = h ? summaryLines(h, version, why) : [];
  const wrapped = top.flatMap((l) => wrapLine(l, width));
  const indicators = s.report.data ? indicatorLines(s.report.data, width, diagnoses?.byIndicator) : [];
  const notGreen = s.report.data?.indicators.some((i) => i.status !== 'green') ?? false;
  const room = Math.max(1, bodyHeight(height, snaps) - wrapped.length - 2);
  // The indicators scroll (no cursor): the navigator's cursor is the first line shown.
  const scroll = useListNav(scrollList(indicators.length, room));
  useKeyLayer('pane', (name) => {
    const cmd = commandFor(name, PANE_SPECS.health.keyScopes, keymap);
    if (cmd?.id === 'health.diagnose') {
      void poller?.diagnose?.();
      return true;
    }
    return scroll.move(cmd?.id ?? '');
  });
  const start = scroll.nav.cursor;
  const shown = indicators.slice(start, start + room);
  return (
    <PaneFrame title={PANE_SPECS.health.title} snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        {wrapped.map((l, i) => (
          <Text key={`t${i}`} color={colourOf(l.tone)} bold={l.bold}>
            {l.text}
          </Text>
        ))}
        <Text> </Text>
        <Text bold>{fitText(reportHeading(indicators.length, start, shown.length, room), width)}</Text>
        {s.report.data ? null : <Text dimColor>{s.report.error ? 'health report unavailable' : 'loading…'}</Text>}
        {notGreen ? (
          <Text dimColor>
            {fitText(diagnosisHint(diagnoses), width)}
          </Text>
        ) : null}
        {shown.map((l, i) => (
          <Text key={`i${start + i}`} color={colourOf(l.tone)} bold={l.bold} dimColor={l.dim}>
            {l.text}
          </Text>
        ))}
      </Box>
    </PaneFrame>
  );
}
