// Hot threads of the node highlighted on the Nodes pane (H): the node samples its busiest threads
// over 500ms when the view opens (one request, on demand: never polled), each thread's share of
// the interval, pool and top frames at the terminal's width. Space changes what is measured
// (cpu, wait, block) and samples again, Enter samples again, ↑/↓ scroll, Esc goes back.
import React, { useEffect, useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import {
  HOT_THREAD_TYPES,
  HOT_THREADS_DEFAULTS,
  hotThreadLines,
  hotThreadsNode,
  type HotNode,
  type HotThreadType,
} from '../../domain/nodes/hot-threads';
import { fitText } from '../../domain/text/table';
import type { WizardServices } from '../../services/wizards';
import { useConsole } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { colourOf } from '../theme';
import { useHint } from '../wizards/dialog-keys';

type Sample = { phase: 'sampling' } | { phase: 'done'; nodes: HotNode[] } | { phase: 'failed'; message: string };
/** An answer, for the sample it answers (node, type, round): an older one is not shown as the new one. */
type Answered = { key: string; sample: Sample };

export function HotThreadsView({
  index: nodeName,
  width,
  height,
  onClose,
  services,
}: {
  index: string;
  width: number;
  height: number;
  onClose: () => void;
  services: WizardServices;
}) {
  const nodes = useConsole((s) => s.snapshots.nodes.data);
  const [type, setType] = useState<HotThreadType>(HOT_THREADS_DEFAULTS.type);
  const [round, setRound] = useState(0);
  const [answered, setAnswered] = useState<Answered | undefined>();
  const [offset, setOffset] = useState(0);
  const found = hotThreadsNode(nodes ?? [], nodeName);
  const id = found.ok ? found.id : null;
  const key = `${id}:${type}:${round}`;
  const sample: Sample = answered?.key === key ? answered.sample : { phase: 'sampling' };
  useEffect(() => {
    if (!id) return;
    let live = true;
    const k = `${id}:${type}:${round}`;
    services
      .hotThreads(id, { ...HOT_THREADS_DEFAULTS, type })
      .then((n) => live && setAnswered({ key: k, sample: { phase: 'done', nodes: n } }))
      .catch((e: Error) => live && setAnswered({ key: k, sample: { phase: 'failed', message: e.message } }));
    return () => {
      live = false;
    };
  }, [id, type, round, services]);
  const keymap = useKeymap();
  const hint = useHint();
  const lines = sample.phase === 'done' ? hotThreadLines(sample.nodes, width) : [];
  const room = Math.max(1, height - 3);
  useKeyLayer('dialog', (name) => {
    const cmd = commandFor(name, ['dialog', 'list'], keymap)?.id;
    if (cmd === 'dialog.close') onClose();
    else if (cmd === 'dialog.change') setType((t) => HOT_THREAD_TYPES[(HOT_THREAD_TYPES.indexOf(t) + 1) % HOT_THREAD_TYPES.length]);
    else if (cmd === 'dialog.submit') setRound((r) => r + 1);
    else if (cmd === 'row.down') setOffset((o) => Math.min(o + 1, Math.max(0, lines.length - room)));
    else if (cmd === 'row.up') setOffset((o) => Math.max(0, o - 1));
    else if (cmd === 'row.pageDown') setOffset((o) => Math.min(o + room, Math.max(0, lines.length - room)));
    else if (cmd === 'row.pageUp') setOffset((o) => Math.max(0, o - room));
    return true;
  });
  const head = `${type} over ${HOT_THREADS_DEFAULTS.interval}, the ${HOT_THREADS_DEFAULTS.threads} busiest threads`;
  return (
    <Box flexDirection="column" height={height}>
      <Text dimColor>{fitText(head, width)}</Text>
      {!found.ok ? (
        <Text color={colourOf('red')}>{fitText(found.error, width)}</Text>
      ) : sample.phase === 'sampling' ? (
        <Text>{fitText(`sampling ${HOT_THREADS_DEFAULTS.interval} on the node…`, width)}</Text>
      ) : sample.phase === 'failed' ? (
        <Text color={colourOf('red')}>{fitText(sample.message, width)}</Text>
      ) : (
        lines.slice(offset, offset + room).map((l, i) => (
          <Text key={i} color={colourOf(l.tone)}>
            {l.text}
          </Text>
        ))
      )}
      <Box flexGrow={1} />
      <Text dimColor>
        {fitText(
          hint(
            ['dialog.change', 'cpu / wait / block'],
            ['dialog.submit', 'sample again'],
            ['row.down', 'scroll'],
            ['dialog.close', 'back'],
          ),
          width,
        )}
      </Text>
    </Box>
  );
}
