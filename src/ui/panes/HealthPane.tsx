// Health: the cluster's status in colour and why it is not green, its counts, and the
// _health_report indicators worst first with symptom and impacts.
import React, { useMemo } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { buildStatusReport, explainNotGreen, nodeVersions } from '../../domain/inspect/status';
import {
  allocationLimitLines,
  diagnosisHint,
  indicatorLines,
  reportHeading,
  substituteLines,
  summaryLines,
  wrapLine,
} from '../../domain/panes/health';
import { EXPLAIN_KEY } from '../../services/poller';
import { fitText } from '../../domain/text/table';
import { PANE_SPECS } from '../../store/panes';
import { useConsole, useConsoleContext } from '../app/context';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { colourOf } from '../theme';
import { useKeymap } from '../app/use-keymap';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { scrollList } from '../../domain/console/list-nav';
import { pendingLines, type PendingTask } from '../../domain/inspect/pending-tasks';
import { useListNav } from '../input/use-list-nav';

/** Lines of tasks the pending section shows under its heading (the last says how many more). */
const PENDING_ROWS = 3;

export function HealthPane({ width, height }: { width: number; height: number }) {
  const { poller, store } = useConsoleContext();
  const diagnoses = useConsole((st) => st.diagnoses);
  const keymap = useKeymap();
  // Only what is drawn: the version string rather than the nodes (their heap changes every poll),
  // and the reads behind "why" only while the cluster is not green, so an idle green console
  // re-renders when something shown changes, not on every poll.
  const s = useConsole((st) => {
    // Before 8.7 there is no health report: the pane then shows its own diagnosis, which needs the disk reads even while green.
    const noReport = st.snapshots.healthReport.error?.kind === 'unsupported';
    const green = st.snapshots.health.data?.status === 'green' && !noReport;
    return {
      health: st.snapshots.health,
      report: st.snapshots.healthReport,
      version: nodeVersions(st.snapshots.nodes.data),
      // A string, not the array: the same limits re-read do not re-render the pane.
      limits: JSON.stringify((st.snapshots.settings.data?.allocationLimits ?? []).map((l) => l.text)),
      // A string too: an empty queue re-read is the same "[]".
      pending: JSON.stringify(st.snapshots.pendingTasks.data ?? []),
      allocation: green ? undefined : st.snapshots.allocation,
      settings: green ? undefined : st.snapshots.settings,
      blocks: green ? undefined : st.snapshots.blocks,
      shards: green ? undefined : st.snapshots.shards,
    };
  });
  const h = s.health.data;
  const noReport = s.report.error?.kind === 'unsupported';
  const allocation = s.allocation?.data;
  const settings = s.settings?.data;
  const blocks = s.blocks?.data;
  const shards = s.shards?.data;
  const status = useMemo(() => {
    // Settings arrive in the same first round as health (both are among its reads in domain/panes.ts).
    if (!h || (h.status === 'green' && !noReport) || !settings) return null;
    // The same report `shardeck status` prints; it names reasons when shards are known.
    return buildStatusReport({ health: h, allocation: allocation ?? [], settings, blocks: blocks ?? [], shards });
  }, [h, noReport, allocation, settings, blocks, shards]);
  const why = status ? explainNotGreen(status) : null;
  const version = s.version;
  // A report the node cannot give is not a failing read: the frame stays clean, the substitute says why.
  const snaps = noReport ? [s.health] : [s.health, s.report];
  const top = h ? [...summaryLines(h, version, why), ...allocationLimitLines(JSON.parse(s.limits) as string[])] : [];
  // Pending cluster tasks, oldest first, only while any wait (a few lines: `shardeck pending` lists them all).
  const wrapped = [...top.flatMap((l) => wrapLine(l, width)), ...pendingLines(JSON.parse(s.pending) as PendingTask[], width, PENDING_ROWS)];
  const indicators = noReport
    ? status
      ? substituteLines(status, s.report.error!.message, width, diagnoses?.byIndicator[EXPLAIN_KEY])
      : []
    : s.report.data
      ? indicatorLines(s.report.data, width, diagnoses?.byIndicator)
      : [];
  const notGreen = noReport ? (h?.unassignedShards ?? 0) > 0 : (s.report.data?.indicators.some((i) => i.status !== 'green') ?? false);
  const room = Math.max(1, bodyHeight(height, snaps) - wrapped.length - 2);
  // The indicators scroll (no cursor): the navigator's cursor is the first line shown.
  const scroll = useListNav(scrollList(indicators.length, room));
  useKeyLayer('pane', (name) => {
    const cmd = commandFor(name, PANE_SPECS.health.keyScopes, keymap);
    if (cmd?.id === 'health.diagnose') {
      // Nothing to diagnose is said, not silently asked of the node (issue 47).
      if (!notGreen) store.setState({ notice: 'every health indicator is green: nothing to diagnose' });
      else void poller?.diagnose?.();
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
          <Text key={`t${i}`} color={colourOf(l.tone)} bold={l.bold} dimColor={l.dim}>
            {l.text}
          </Text>
        ))}
        <Text> </Text>
        <Text bold>{fitText(reportHeading(indicators.length, start, shown.length, room, noReport), width)}</Text>
        {s.report.data || (noReport && status) ? null : (
          <Text dimColor>{s.report.error && !noReport ? 'health report unavailable' : 'loading…'}</Text>
        )}
        {notGreen ? <Text dimColor>{fitText(diagnosisHint(diagnoses, noReport), width)}</Text> : null}
        {shown.map((l, i) => (
          <Text key={`i${start + i}`} color={colourOf(l.tone)} bold={l.bold} dimColor={l.dim}>
            {l.text}
          </Text>
        ))}
      </Box>
    </PaneFrame>
  );
}
