// The bottom line: where shardeck is connected, how often it polls, and warnings that must stay
// visible while they hold (--insecure, the node not answering).
import React from 'react';
import { Text } from './Text';
import { connectionLine, INSECURE_WARNING, shareLine } from '../../domain/panes/bars';
import { fitText } from '../../domain/text/table';
import { useConsole, useNow, useUi } from '../app/context';
import { FLASH_MS } from '../app/habits';
import { colourOf } from '../theme';

export function StatusBar({ width }: { width: number }) {
  const s = useConsole((st) => ({
    url: st.connection.url,
    insecure: st.connection.insecure,
    intervalMs: st.intervalMs,
    paused: st.paused,
    error: st.snapshots.health.error?.kind,
    share: st.share,
    notice: st.notice,
    copies: st.copiesKept,
  }));
  // What y or w just did, for a few seconds (the key's effect is out of sight: the clipboard, a file).
  const flash = useUi((st) => st.flash);
  const now = useNow((t) => (flash && t - flash.at < FLASH_MS ? flash.text : ''));
  if (flash && now - flash.at < FLASH_MS) {
    return (
      <Text bold color={colourOf(flash.tone)}>
        {fitText(flash.text, width)}
      </Text>
    );
  }
  if (s.notice) {
    return (
      <Text bold color={colourOf('yellow')}>
        {fitText(s.notice, width)}
      </Text>
    );
  }
  const warn = s.insecure ? INSECURE_WARNING : '';
  const room = Math.max(10, width - warn.length);
  // Sharing or following: who and what needs attention replace the connection line (not the TLS warning);
  // else a copy of shard folders kept on this host, named while it exists (issue 48).
  const line = s.share
    ? shareLine(s.share, room)
    : s.copies?.length
      ? { text: s.copies.length === 1 ? s.copies[0] : `${s.copies.length} copies of shard folders kept: ${s.copies[0]}`, alert: false }
      : undefined;
  return (
    <Text>
      {line ? (
        <Text bold={line.alert} color={colourOf(line.alert ? 'red' : undefined)}>
          {fitText(line.text, room)}
        </Text>
      ) : (
        <Text dimColor={!s.error} color={colourOf(s.error ? 'red' : undefined)}>
          {fitText(connectionLine(s.url, s.intervalMs, s.paused, s.error), room)}
        </Text>
      )}
      {warn ? (
        <Text inverse color={colourOf('yellow')} bold>
          {warn}
        </Text>
      ) : null}
    </Text>
  );
}
