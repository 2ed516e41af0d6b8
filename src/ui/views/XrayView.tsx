// The x-ray of the index highlighted on the Indices pane (x): the same tree as shardeck xray
// (services/xray.ts), read once when it opens (Enter reads again), each line in its state's
// colour, ↑/↓ scroll, Esc goes back.
import React, { useEffect, useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { xrayLines } from '../../domain/inspect/xray';
import { fitText } from '../../domain/text/table';
import type { WizardServices } from '../../services/wizards';
import { useConsole } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { colourOf } from '../theme';
import { useHint } from '../wizards/dialog-keys';

type Read = { phase: 'reading' } | { phase: 'done'; lines: ReturnType<typeof xrayLines> } | { phase: 'failed'; message: string };

export function XrayView(p: { index: string; width: number; height: number; onClose: () => void; services: WizardServices }) {
  const { index, width, height, onClose, services } = p;
  const templateVersion = useConsole((s) => s.templateVersion);
  const [round, setRound] = useState(0);
  const [read, setRead] = useState<{ round: number; read: Read }>({ round: -1, read: { phase: 'reading' } });
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    let live = true;
    services
      .xray(index, templateVersion)
      .then((x) => {
        const r: Read = x
          ? { phase: 'done', lines: xrayLines(x.tree) }
          : { phase: 'failed', message: `no index named "${index}" any more` };
        if (live) setRead({ round, read: r });
      })
      .catch((e: Error) => live && setRead({ round, read: { phase: 'failed', message: e.message } }));
    return () => {
      live = false;
    };
  }, [index, templateVersion, round, services]);
  const shown: Read = read.round === round ? read.read : { phase: 'reading' };
  const lines = shown.phase === 'done' ? shown.lines : [];
  const keymap = useKeymap();
  const hint = useHint();
  const room = Math.max(1, height - 1);
  useKeyLayer('dialog', (name) => {
    const cmd = commandFor(name, ['dialog', 'list'], keymap)?.id;
    if (cmd === 'dialog.close') onClose();
    else if (cmd === 'dialog.submit') setRound((r) => r + 1);
    else if (cmd === 'row.down') setOffset((o) => Math.min(o + 1, Math.max(0, lines.length - room)));
    else if (cmd === 'row.up') setOffset((o) => Math.max(0, o - 1));
    else if (cmd === 'row.pageDown') setOffset((o) => Math.min(o + room, Math.max(0, lines.length - room)));
    else if (cmd === 'row.pageUp') setOffset((o) => Math.max(0, o - room));
    return true;
  });
  return (
    <Box flexDirection="column" height={height}>
      {shown.phase === 'reading' ? (
        <Text>{fitText(`reading everything about ${index}…`, width)}</Text>
      ) : shown.phase === 'failed' ? (
        <Text color={colourOf('red')}>{fitText(shown.message, width)}</Text>
      ) : (
        lines.slice(offset, offset + room).map((l, i) => (
          <Text key={i} color={colourOf(l.tone === 'gray' ? undefined : l.tone)} dimColor={l.tone === 'gray'} wrap="truncate-end">
            {l.text}
          </Text>
        ))
      )}
      <Box flexGrow={1} />
      <Text dimColor>{fitText(hint(['row.down', 'scroll'], ['dialog.submit', 'read again'], ['dialog.close', 'back']), width)}</Text>
    </Box>
  );
}
