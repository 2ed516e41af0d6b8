// The bottom line: where shardeck is connected, how often it polls, and warnings that must stay
// visible while they hold (--insecure, the node not answering).
import React from 'react';
import { Text } from 'ink';
import { formatAge } from '../../domain/format';
import { fitText } from '../../domain/table';
import { useConsole } from '../app/context';
import { colourOf } from '../theme';

export function StatusBar({ width }: { width: number }) {
  const s = useConsole((st) => ({
    url: st.connection.url,
    insecure: st.connection.insecure,
    intervalMs: st.intervalMs,
    paused: st.paused,
    error: st.snapshots.health.error?.kind,
  }));
  const warn = s.insecure ? ' INSECURE: TLS certificate not verified (--insecure) ' : '';
  const conn = s.error ? ` · ${s.error === 'unreachable' ? 'node not answering' : s.error}, retrying` : '';
  const poll = s.paused ? 'paused' : `every ${formatAge(s.intervalMs)}`;
  const left = fitText(`${s.url} · ${poll}${conn}`, Math.max(10, width - warn.length));
  return (
    <Text>
      <Text dimColor={!s.error} color={colourOf(s.error ? 'red' : undefined)}>
        {left}
      </Text>
      {warn ? (
        <Text inverse color={colourOf('yellow')} bold>
          {warn}
        </Text>
      ) : null}
    </Text>
  );
}
