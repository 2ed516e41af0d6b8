// The title line every pane shares: what it shows, how old its data is, and, when polls fail,
// a visible STALE marker with the one-sentence error and that shardeck keeps retrying.
import React from 'react';
import { Box, Text } from 'ink';
import { formatAgo, formatAge } from '../../domain/format';
import { fitText } from '../../domain/table';
import { isStale, type Snapshot } from '../../store/console';
import { backoffMs } from '../../services/poller';
import { colourOf } from '../theme';
import { useConsole, useNow } from '../app/context';

export interface Freshness {
  /** Age of the oldest data shown, or undefined before the first answer. */
  ageMs?: number;
  /** Some data is older than its own polling period (a poll is late). */
  late: boolean;
  stale: boolean;
  error?: string;
  failures: number;
  loading: boolean;
}

/** Sums up the snapshots a pane draws from: it is as old as its oldest, as broken as any. */
export function freshness(snaps: readonly Snapshot<unknown>[], now: number, intervalMs: number): Freshness {
  const times = snaps.map((s) => s.fetchedAt);
  const broken = snaps.find((s) => s.error);
  const missing = times.some((t) => t === undefined);
  return {
    ageMs: missing ? undefined : now - Math.min(...(times as number[])),
    late: snaps.some((s) => s.fetchedAt !== undefined && now - s.fetchedAt >= (s.periodMs ?? intervalMs)),
    stale: snaps.some((s) => isStale(s, now, intervalMs)),
    error: broken?.error?.message,
    failures: Math.max(0, ...snaps.map((s) => s.failures)),
    loading: missing && !broken,
  };
}

export interface PaneFrameProps {
  title: string;
  snaps: readonly Snapshot<unknown>[];
  width: number;
  /** Extra text on the title line (counts, toggles). */
  info?: string;
  height: number;
  /** Sized with bodyHeight(height, snaps). */
  children: React.ReactNode;
}

export function PaneFrame({ title, snaps, width, height, info, children }: PaneFrameProps) {
  const { intervalMs, paused } = useConsole((s) => ({ intervalMs: s.intervalMs, paused: s.paused }));
  const now = useNow((t) => ageText(freshness(snaps, t, intervalMs)));
  const f = freshness(snaps, now, intervalMs);
  const right = ageText(f);
  const left = fitText(`${title}${info ? `  ${info}` : ''}`, Math.max(1, width - right.length - 1));
  const retry = paused ? 'polling paused' : `retrying every ${formatAge(backoffMs(intervalMs, f.failures))}`;
  const error = f.error ? `${f.error} (${retry})` : '';
  return (
    <Box flexDirection="column" width={width}>
      <Text>
        <Text bold>{left}</Text> <Text color={colourOf(f.stale ? 'red' : undefined)} dimColor={!f.stale}>{right}</Text>
      </Text>
      {error ? (
        // Two lines: the one sentence that says what is wrong and what to do must not be cut short.
        <Box height={ERROR_LINES} width={width}>
          <Text color={colourOf('red')}>{error}</Text>
        </Box>
      ) : null}
      <Box flexDirection="column">{children}</Box>
    </Box>
  );
}

const ERROR_LINES = 2;

/** Data from the latest poll is "just now"; the seconds count only once a poll is late or failing. */
function ageText(f: ReturnType<typeof freshness>): string {
  const age =
    f.ageMs === undefined ? (f.loading ? 'loading…' : 'no data yet') : !f.late && !f.stale && !f.failures ? 'just now' : formatAgo(f.ageMs);
  return `${f.stale ? 'STALE ' : ''}${age}`;
}

/** Lines left for a pane's content under the title (and the error, when a poll failed). */
export function bodyHeight(height: number, snaps: readonly Snapshot<unknown>[]): number {
  return Math.max(0, height - 1 - (snaps.some((s) => s.error) ? ERROR_LINES : 0));
}
