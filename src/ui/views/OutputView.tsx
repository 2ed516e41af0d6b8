// The text of a read command run from the command line (`:cat allocation`, issue 44 item 1), in
// a view that scrolls: the table keys move the highlighted line, / searches (n the next line
// holding it), y copies the highlighted line, Y the whole text, Esc goes back. The command ran
// in-process on the console's connection, read-only (commands/tui/line-commands.ts); its text
// is display-safe and drawn as plain lines (domain/console/command-output.ts), its exit code last.
import React, { useEffect, useMemo, useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { LineInput } from '../components/LineInput';
import { exitText, findLine, outputLines } from '../../domain/console/command-output';
import { lineWords } from '../../domain/console/command-line';
import { editLine } from '../../domain/console/line-edit';
import { fitText, visibleRange } from '../../domain/text/table';
import { useLineCommands } from '../app/context';
import { useHabits } from '../app/habits';
import { useKeymap } from '../app/use-keymap';
import { commandFor, lineEditOf } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { useListNav } from '../input/use-list-nav';
import { colourOf } from '../theme';
import { useHint } from '../wizards/dialog-keys';

type Run = { phase: 'running' } | { phase: 'done'; code: number; meaning?: string; lines: string[] };

export function OutputView({ index: line, width, height, onClose }: { index: string; width: number; height: number; onClose: () => void }) {
  const commands = useLineCommands();
  const [run, setRun] = useState<Run>({ phase: 'running' });
  const [search, setSearch] = useState<{ text: string; typing: boolean; note?: string }>({ text: '', typing: false });
  useEffect(() => {
    let live = true;
    commands
      ?.run(lineWords(line))
      .then((r) => live && setRun({ phase: 'done', code: r.code, meaning: r.meaning, lines: outputLines(r.text) }))
      .catch((e: Error) => live && setRun({ phase: 'done', code: 70, lines: outputLines(`shardeck: ${e.message}`) }));
    return () => {
      live = false;
    };
  }, [commands, line]);
  const lines = useMemo(() => (run.phase === 'done' ? run.lines : []), [run]);
  // Title above, the exit code and the keys below.
  const room = Math.max(1, height - 2);
  // A line's key is its number: the same text on two lines stays two places.
  const nav = useListNav({ length: lines.length, keyAt: String, height: room });
  const keymap = useKeymap();
  const hint = useHint();
  const habits = useHabits();
  const find = (text: string, from: number) => {
    const at = findLine(lines, text, from);
    if (at === undefined) return setSearch({ text, typing: false, note: `"${text}" is not in the output` });
    nav.select(String(at));
    setSearch({ text, typing: false });
  };
  useKeyLayer('dialog', (name, input) => {
    if (search.typing) {
      const cmd = commandFor(name, ['dialog'], keymap)?.id;
      if (cmd === 'dialog.close') setSearch({ text: '', typing: false });
      else if (cmd === 'dialog.submit') find(search.text, nav.current().cursor - 1);
      else {
        const edit = lineEditOf(name, input);
        if (edit) setSearch({ text: editLine(search.text, edit).slice(0, 100), typing: true });
      }
      return true;
    }
    const cmd = commandFor(name, ['output', 'list', 'dialog'], keymap)?.id;
    if (cmd === 'dialog.close') onClose();
    else if (cmd && nav.move(cmd)) setSearch((s) => ({ ...s, note: undefined }));
    else if (cmd === 'output.search') setSearch({ text: '', typing: true });
    else if (cmd === 'output.next' && search.text) find(search.text, nav.current().cursor);
    else if (cmd === 'output.copyLine') habits.copy('line', lines[nav.current().cursor]);
    else if (cmd === 'output.copyAll') habits.copy('output', lines.join('\n'), { block: true });
    return true;
  });
  const { start, end } = visibleRange({ cursor: nav.nav.cursor, offset: nav.nav.offset }, lines.length, room);
  const exit = run.phase === 'done' ? exitText(run.code, run.meaning) : undefined;
  return (
    <Box flexDirection="column" height={height}>
      {!commands ? (
        <Text>{fitText('commands cannot run here (no connection to the cluster was given to the console)', width)}</Text>
      ) : run.phase === 'running' ? (
        <Text>{fitText(`running shardeck ${line}…`, width)}</Text>
      ) : (
        lines.slice(start, end).map((l, i) => (
          <Text key={start + i} inverse={start + i === nav.nav.cursor} wrap="truncate">
            {fitText(l, width)}
          </Text>
        ))
      )}
      <Box flexGrow={1} />
      {exit ? (
        <Text wrap="truncate">
          <Text color={colourOf(exit.tone)}>{exit.text.length > width ? fitText(exit.text, width) : exit.text}</Text>
          <Text dimColor>{lines.length > room ? ` · line ${nav.nav.cursor + 1} of ${lines.length}` : ''}</Text>
        </Text>
      ) : (
        <Text> </Text>
      )}
      {search.typing ? (
        <Text wrap="truncate">
          /<LineInput value={search.text} cursor />
          <Text dimColor>{'  Enter finds, Esc stops'}</Text>
        </Text>
      ) : (
        <Text dimColor wrap="truncate">
          {fitText(
            search.note ??
              hint(
                ['row.down', 'scroll'],
                ['output.search', 'search'],
                ['output.copyLine', 'copy line'],
                ['output.copyAll', 'all'],
                ['dialog.close', 'back'],
              ),
            width,
          )}
        </Text>
      )}
    </Box>
  );
}
