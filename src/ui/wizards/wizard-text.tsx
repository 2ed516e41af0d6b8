// Lines every wizard shows: its warnings and notes, the result of each plan sent, the key hint,
// and the one line of a wizard that is reading, sending, failed or cancelled.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import type { PlanResult } from '../../domain/wizards/machine';
import { colourOf } from '../theme';
import { useTerminalSize } from '../app/terminal';

export function Notes({ warnings = [], notes = [] }: { warnings?: string[]; notes?: string[] }) {
  return (
    <>
      {warnings.map((w) => (
        <Text key={w} color={colourOf('yellow')}>{`! ${w}`}</Text>
      ))}
      {notes.map((n) => (
        <Text key={n} dimColor>{`· ${n}`}</Text>
      ))}
    </>
  );
}

export function Results({ results }: { results: PlanResult[] }) {
  return (
    <>
      {results.map((r) => (
        <Text key={r.summary} color={colourOf(r.ok && r.verified?.ok !== false ? 'green' : 'red')}>
          {`${r.ok ? 'ok' : 'FAILED'}: ${r.verified?.message ?? r.message}`}
        </Text>
      ))}
    </>
  );
}

/** Lines cut at the terminal's width (findings, output tails, results). */
/** One Text per line, cut at the width; `whole` wraps them instead (a line whose end says why). */
export function Lines({ lines, colour, dim, whole }: { lines: string[]; colour?: string; dim?: boolean; whole?: boolean }) {
  return (
    <>
      {lines.map((l, i) => (
        <Text key={i} color={colour} dimColor={dim} wrap={whole ? 'wrap' : 'truncate-end'}>
          {l}
        </Text>
      ))}
    </>
  );
}

/** Rows of the screen that are not the wizard's: the header (2), the footer, the line left free, the title (ui/app/App.tsx). */
export const WIZARD_ROWS_AROUND = 5;

/** The rows a review's request box may take when only the key hint is under it (RequestPreview's `room`). */
export function useRequestRoom(): number {
  return useTerminalSize().rows - WIZARD_ROWS_AROUND - 1;
}

export function Hint({ children }: { children: string }) {
  return <Text dimColor>{children}</Text>;
}

/** Any key closes a finished wizard (ui/wizards/dialog-keys.ts). */
export const CLOSES = 'any key closes';

/** A wizard the operator left before anything was sent. */
export function Cancelled() {
  return <Text>cancelled: nothing was sent</Text>;
}

/** A wizard that failed: what it had sent by then (if anything), why it stopped, and how to close. */
export function Failed({ results, message }: { results?: PlanResult[]; message: string }) {
  return (
    <Box flexDirection="column">
      {results ? <Results results={results} /> : null}
      <Text color={colourOf('red')}>{message}</Text>
      <Hint>{CLOSES}</Hint>
    </Box>
  );
}

/** A wizard waiting for the cluster, or ended without a screen of its own. */
export function Waiting({ phase, message }: { phase: string; message?: string }) {
  if (phase === 'failed') return <Text color={colourOf('red')}>{message}</Text>;
  if (phase === 'cancelled') return <Cancelled />;
  return <Text>{phase === 'applying' ? 'sending…' : 'reading the cluster…'}</Text>;
}
