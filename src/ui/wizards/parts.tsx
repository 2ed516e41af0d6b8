// Pieces every wizard shows: the request preview, warnings, and the result of each plan.
import React from 'react';
import { Box, Text } from 'ink';
import { previewLines, type Preview } from '../../domain/mutation';
import type { PlanResult } from '../../domain/wizards/machine';
import { colourOf } from '../theme';

export function PreviewBox({ previews }: { previews: Preview[] }) {
  return (
    <Box flexDirection="column" borderStyle="single" paddingX={1}>
      {previews.flatMap((p, i) => previewLines(p).map((l, j) => <Text key={`${i}-${j}`} bold={j === 0} wrap="truncate-end">{l}</Text>))}
    </Box>
  );
}

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

export function Hint({ children }: { children: string }) {
  return <Text dimColor>{children}</Text>;
}
