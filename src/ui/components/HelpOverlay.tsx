// `?`: every key of the active keymap, grouped by where it works. Generated from the keymap, so
// it cannot drift from what the keys do; read-only mode has already removed dangerous rows.
import React from 'react';
import { Box } from 'ink';
import { Text } from './Text';
import { SCOPE_TITLES, type KeyCommand, type Scope } from '../../keys/keymap';
import { fitText } from '../../domain/text/table';
import { scrollList } from '../../domain/console/list-nav';
import { commandFor, keyLabel } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { useListNav } from '../input/use-list-nav';

export interface HelpLine {
  text: string;
  heading?: boolean;
  dangerous?: boolean;
}

export function helpLines(keymap: readonly KeyCommand[]): HelpLine[] {
  const lines: HelpLine[] = [];
  for (const scope of Object.keys(SCOPE_TITLES) as Scope[]) {
    const rows = keymap.filter((k) => k.scope === scope);
    if (rows.length === 0) continue;
    lines.push({ text: SCOPE_TITLES[scope].help, heading: true });
    for (const k of rows) {
      const keys = fitText(k.keys.map(keyLabel).join(' '), 14);
      lines.push({ text: `  ${keys} ${k.description}${k.dangerous ? '  (changes the cluster)' : ''}`, dangerous: k.dangerous });
    }
  }
  return lines;
}

export function HelpOverlay(p: { keymap: readonly KeyCommand[]; readOnly: boolean; width: number; height: number }) {
  const lines = helpLines(p.keymap);
  const room = Math.max(1, p.height - 2);
  const scroll = useListNav(scrollList(lines.length, room));
  // Before the console's dialog layer (which closes the help on Esc, ? or q).
  useKeyLayer('dialog', (name) => scroll.move(commandFor(name, ['list'], p.keymap)?.id ?? ''));
  const offset = scroll.nav.cursor;
  const more = lines.length > room;
  return (
    <Box flexDirection="column" width={p.width} height={p.height}>
      <Text bold>{fitText(`Keys${p.readOnly ? ' (read-only: commands that change the cluster are off)' : ''}`, p.width)}</Text>
      {lines.slice(offset, offset + room).map((l, i) => (
        <Text key={i} bold={l.heading}>
          {fitText(l.text, p.width)}
        </Text>
      ))}
      <Text dimColor>{fitText(`Esc or ? closes${more ? '  ↑↓ scroll' : ''}`, p.width)}</Text>
    </Box>
  );
}
