// Columns of one's own (V on a table pane): every column of the pane in the order shown, Space
// shows or hides the one under the cursor, < and > move it, Esc goes back. Each change is drawn at
// once and kept for the profile (ConsoleFiles.saveColumns), so the next start shows it again.
import React, { useState } from 'react';
import { Box } from 'ink';
import { Text } from './Text';
import { chooserRows, moveColumn, toggleColumn } from '../../domain/console/columns';
import { fitText } from '../../domain/text/table';
import { PANE_SPECS } from '../../store/panes';
import { useConsoleContext, useUi } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { useHint } from '../wizards/dialog-keys';
import type { TablePane } from '../state';
import { colourOf } from '../theme';

export function ColumnsChooser({ pane, width, height }: { pane: TablePane; width: number; height: number }) {
  const { ui, files } = useConsoleContext();
  const keymap = useKeymap();
  const hint = useHint();
  const declared = useUi((s) => s.columnDefaults[pane]) ?? [];
  const choice = useUi((s) => s.columns[pane]);
  const rows = chooserRows(declared, choice);
  const titles = declared.map((c) => c.title);
  const [cursor, setCursor] = useState(0);
  const [problem, setProblem] = useState<string | undefined>();
  const at = Math.min(cursor, Math.max(0, rows.length - 1));
  const choose = (next: typeof choice) => {
    if (!next) return;
    ui.setState((s) => ({ columns: { ...s.columns, [pane]: next } }));
    try {
      files?.saveColumns?.(pane, next);
      setProblem(undefined);
    } catch (e) {
      setProblem(`not kept for the next start: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  useKeyLayer('dialog', (name) => {
    // The list's arrows before the dialog's (there ↓ is the next field of a form).
    const cmd = commandFor(name, ['columns', 'list', 'dialog'], keymap)?.id;
    const row = rows[at];
    if (cmd === 'dialog.close') ui.setState({ dialog: undefined });
    else if (cmd === 'row.down') setCursor(Math.min(rows.length - 1, at + 1));
    else if (cmd === 'row.up') setCursor(Math.max(0, at - 1));
    else if (row && cmd === 'columns.toggle') choose(toggleColumn(titles, choice, row.title, row.fixed));
    else if (row && (cmd === 'columns.earlier' || cmd === 'columns.later')) {
      const by = cmd === 'columns.earlier' ? -1 : 1;
      choose(moveColumn(titles, choice, row.title, by));
      setCursor(Math.max(0, Math.min(rows.length - 1, at + by)));
    }
    return true;
  });
  const room = Math.max(1, height - 3);
  const offset = Math.max(0, Math.min(at - room + 1, rows.length - room));
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text bold>{fitText(`Columns of the ${PANE_SPECS[pane].title} pane · kept for this profile`, width)}</Text>
      {rows.length === 0 ? <Text dimColor>the table has not been drawn yet: open the pane first</Text> : null}
      {rows.slice(Math.max(0, offset), Math.max(0, offset) + room).map((r, i) => (
        <Text key={r.title} inverse={Math.max(0, offset) + i === at}>
          {fitText(`${r.shown ? '[x]' : '[ ]'} ${r.title}${r.fixed ? '  (the name: always shown)' : ''}`, width)}
        </Text>
      ))}
      <Box flexGrow={1} />
      {problem ? <Text color={colourOf('red')}>{fitText(problem, width)}</Text> : null}
      <Text dimColor>
        {fitText(
          hint(['columns.toggle', 'show / hide'], ['columns.earlier', 'left'], ['columns.later', 'right'], ['dialog.close', 'back']),
          width,
        )}
      </Text>
    </Box>
  );
}
