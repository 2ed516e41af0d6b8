// Health: the cluster's status in colour and why it is not green, its counts, and the
// _health_report indicators worst first with symptom and impacts.
import React, { useMemo } from 'react';
import { Box, Text } from 'ink';
import { buildStatusReport, explainNotGreen, nodeVersions } from '../../domain/status';
import { formatCount, formatPercent, statusTone, type Tone } from '../../domain/format';
import { fitText } from '../../domain/table';
import type { HealthDiagnosis, HealthReport } from '../../domain/types';
import { useConsole, useConsoleContext, useUi } from '../app/context';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { colourOf } from '../theme';
import { useKeymap } from '../app/use-keymap';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { moveCursor } from '../state';

interface Line {
  text: string;
  tone?: Tone;
  bold?: boolean;
  dim?: boolean;
}

/** The indicators as lines: one per indicator, its impacts indented under the ones not green. */
export function indicatorLines(report: HealthReport, width: number, diagnoses: Record<string, HealthDiagnosis[]> = {}): Line[] {
  const lines: Line[] = [];
  for (const ind of report.indicators) {
    const head = `${fitText(ind.status.toUpperCase(), 7)} ${fitText(ind.name, 20)} ${ind.symptom}`;
    lines.push({ text: fitText(head, width), tone: statusTone(ind.status), bold: ind.status !== 'green' });
    if (ind.status === 'green') continue;
    for (const imp of ind.impacts) lines.push({ text: fitText(`        impact: ${imp.description}`, width), dim: true });
    for (const d of diagnoses[ind.name] ?? ind.diagnoses) {
      lines.push({ text: fitText(`        cause: ${d.cause}`, width) });
      lines.push({ text: fitText(`        do: ${d.action}`, width), tone: 'yellow' });
    }
  }
  return lines;
}

export function HealthPane({ width, height }: { width: number; height: number }) {
  const { ui, poller } = useConsoleContext();
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
  const offset = useUi((u) => u.tables.health.offset);
  const h = s.health.data;
  const why = useMemo(() => {
    // Settings arrive in the same first round as health (see the poller's PANE_RESOURCES).
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
  const top: Line[] = h
    ? [
        {
          text: `${h.clusterName}  ${h.status.toUpperCase()}${version ? `  Elasticsearch ${version}` : ''}`,
          tone: statusTone(h.status),
          bold: true,
        },
        ...(why ? [{ text: why, tone: statusTone(h.status) }] : []),
        { text: `nodes ${h.numberOfNodes} (data ${h.numberOfDataNodes})   pending tasks ${formatCount(h.pendingTasks)}   active shards ${formatPercent(h.activeShardsPercent, 1)}` },
        {
          text: `shards  active ${formatCount(h.activeShards)} (pri ${formatCount(h.activePrimaryShards)})  initializing ${h.initializingShards}  relocating ${h.relocatingShards}  unassigned ${h.unassignedShards} (pri ${h.unassignedPrimaryShards})`,
          tone: h.unassignedPrimaryShards > 0 ? 'red' : h.unassignedShards > 0 ? 'yellow' : undefined,
        },
      ]
    : [];
  const wrapped = top.flatMap((l) => wrapLine(l, width));
  const indicators = s.report.data ? indicatorLines(s.report.data, width, diagnoses?.byIndicator) : [];
  const notGreen = s.report.data?.indicators.some((i) => i.status !== 'green') ?? false;
  const room = Math.max(1, bodyHeight(height, snaps) - wrapped.length - 2);
  const maxOffset = Math.max(0, indicators.length - room);
  useKeyLayer('pane', (name) => {
    const cmd = commandFor(name, ['health', 'table'], keymap);
    const delta: Record<string, number> = { 'row.up': -1, 'row.down': 1, 'row.pageUp': -room, 'row.pageDown': room, 'row.first': -Infinity, 'row.last': Infinity };
    if (cmd?.id === 'health.diagnose') {
      void poller?.diagnose?.();
      return true;
    }
    if (!cmd || !(cmd.id in delta)) return false;
    // The list scrolls: the cursor is the first visible line.
    moveCursor(ui, 'health', delta[cmd.id], maxOffset + 1, 1);
    return true;
  });
  const start = Math.min(offset, maxOffset);
  const shown = indicators.slice(start, start + room);
  return (
    <PaneFrame title="Health" snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        {wrapped.map((l, i) => (
          <Text key={`t${i}`} color={colourOf(l.tone)} bold={l.bold}>
            {l.text}
          </Text>
        ))}
        <Text> </Text>
        <Text bold>{fitText(`health report (worst first)${indicators.length > room ? `  ${start + 1}-${start + shown.length} of ${indicators.length} ↑↓` : ''}`, width)}</Text>
        {s.report.data ? null : <Text dimColor>{s.report.error ? 'health report unavailable' : 'loading…'}</Text>}
        {notGreen ? (
          <Text dimColor>
            {fitText(
              diagnoses?.inFlight
                ? 'diagnosing…'
                : diagnoses?.error
                  ? `diagnosis failed: ${diagnoses.error}`
                  : diagnoses?.fetchedAt
                    ? 'diagnosis below (d: again)'
                    : 'd: diagnose (verbose health report)',
              width,
            )}
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

/** Splits a long line at spaces so the "why" sentence is read whole at 80 columns. */
function wrapLine(l: Line, width: number): Line[] {
  const out: Line[] = [];
  let cur = '';
  for (const word of l.text.split(' ')) {
    if (cur && cur.length + 1 + word.length > width) {
      out.push({ ...l, text: cur });
      cur = word;
    } else cur = cur ? `${cur} ${word}` : word;
  }
  out.push({ ...l, text: cur });
  return out;
}
