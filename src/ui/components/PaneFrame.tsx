// The title line every pane shares: what it shows, how old its data is, and, when polls fail,
// a visible STALE marker with the one-sentence error and that shardeck keeps retrying.
import React, { useState } from 'react';
import { Box } from 'ink';
import { Text } from './Text';
import { formatAge } from '../../domain/text/format';
import { ageText, freshness, type Snapshot } from '../../domain/snapshot';
import { fitText } from '../../domain/text/table';
import { pollRetryDelayMs } from '../../domain/retry';
import { failingWaitMs, notRetried, probeAnswers } from '../../services/poller';
import { colourOf } from '../theme';
import { useConsole, useConsoleContext, useNow } from '../app/context';

export interface PaneFrameProps {
  title: string;
  snaps: readonly Snapshot<unknown>[];
  width: number;
  /** Extra text on the title line (counts, toggles). */
  info?: string;
  /** The age of what the pane shows when it is not its reads' (the doctor's last check): in place of theirs. */
  age?: string;
  height: number;
  /** Sized with bodyHeight(height, snaps). */
  children: React.ReactNode;
}

export function PaneFrame({ title, snaps, width, info, age, children }: PaneFrameProps) {
  const { intervalMs, paused, probeUp } = useConsole((s) => ({
    intervalMs: s.intervalMs,
    paused: s.paused,
    probeUp: probeAnswers(s.snapshots.health),
  }));
  // When this pane came on screen (a pane switch mounts it): see isStale.
  const { clock } = useConsoleContext();
  const [shownSince] = useState(clock);
  const now = useNow((t) => ageText(freshness(snaps, t, intervalMs, shownSince)));
  const f = freshness(snaps, now, intervalMs, shownSince);
  // A read stretched because it costs a large cluster too much says how often it now comes.
  const slowest = Math.max(0, ...snaps.map((x) => (x.slowed ? (x.periodMs ?? 0) : 0)));
  const right = `${age ?? ageText(f)}${slowest ? ` · every ${formatAge(slowest)} (large cluster)` : ''}`;
  const left = fitText(`${title}${info ? `  ${info}` : ''}`, Math.max(1, width - right.length - 1));
  const final = snaps.some((x) => notRetried(x.error?.kind));
  // A node that answered 429 asked for a wait (Retry-After): the poller honours it, so the line says it.
  const asked = snaps.reduce<number | undefined>(
    (m, x) => (x.error?.retryAfterMs === undefined ? m : Math.max(m ?? 0, x.error.retryAfterMs)),
    undefined,
  );
  const retry = paused
    ? 'polling paused'
    : final
      ? 'not retried: r asks again'
      : `retrying every ${formatAge(pollRetryDelayMs(failingWaitMs(probeUp, intervalMs, intervalMs, f.failures), asked))}`;
  const error = f.error ? `${f.error} (${retry})` : '';
  return (
    <Box flexDirection="column" width={width}>
      <Text>
        <Text bold>{left}</Text>{' '}
        <Text color={colourOf(f.stale ? 'red' : undefined)} dimColor={!f.stale}>
          {right}
        </Text>
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

/** Lines left for a pane's content under the title (and the error, when a poll failed). */
export function bodyHeight(height: number, snaps: readonly Snapshot<unknown>[]): number {
  return Math.max(0, height - 1 - (snaps.some((s) => s.error) ? ERROR_LINES : 0));
}
