// The command line (`:`): typed at the bottom, Enter runs it (domain/console/command-line.ts parseLine):
// a pane jump with its filter, a wizard or a view opened on a name (a wizard previews and confirms
// as from its key: nothing is sent from the line), a read command's text in a view (`cat
// allocation`), another profile's console, the Fleet, the help, q. Tab completes (a second Tab
// takes the next choice), ↑/↓ walk the history of this profile (kept in a 0600 file, never a line
// with a password), Esc closes.
import React, { useEffect, useRef } from 'react';
import { useApp } from 'ink';
import { Text } from './Text';
import { LineInput } from './LineInput';
import { addToHistory, choicesText, completeLine, cycleChoice, parseLine } from '../../domain/console/command-line';
import { editLine } from '../../domain/console/line-edit';
import { fitText } from '../../domain/text/table';
import { useConsoleContext, useLineCommands, useUi } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { commandFor, lineEditOf } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { isTablePane, patchTable, setSelection } from '../state';
import { colourOf } from '../theme';
import type { WizardEntry } from '../wizards/registry';

export function CommandLineView({ width }: { width: number }) {
  const line = useUi((s) => s.commandLine);
  if (!line) return null;
  const room = Math.max(1, width - Math.min(line.text.length, line.message ? 16 : width - 20) - 4);
  // The choice a second Tab put in the line is shown in brackets.
  const chosen = line.options?.indexOf(line.text.split(/\s+/).pop() ?? '');
  const note =
    line.message ?? (line.options?.length ? choicesText(line.options, chosen !== undefined && chosen >= 0 ? chosen : undefined, room) : '');
  return (
    <Text wrap="truncate">
      <Text bold>:</Text>
      {/* What the last try said needs the room: the line's end stays, cut to its last characters. */}
      <LineInput value={line.text.slice(-Math.max(1, line.message ? 16 : width - 20))} cursor />
      {note ? (
        <Text color={colourOf(line.message ? 'yellow' : undefined)} dimColor={!line.message}>{`  ${fitText(note, room)}`}</Text>
      ) : null}
    </Text>
  );
}

export function CommandLineKeys({ wizards }: { wizards: WizardEntry[] }) {
  const { store, ui, files, fleet } = useConsoleContext();
  const commands = useLineCommands();
  // Tab's choices being cycled: the line they were listed for, the one in the line now.
  const cycling = useRef<{ stem: string; at: number | undefined; shown: string } | undefined>(undefined);
  const { exit } = useApp();
  const keymap = useKeymap();
  const open = useUi((s) => s.commandLine !== undefined);
  // The cluster's names as read when the line opened: Tab offers them on a pane that does not poll them.
  const read = useRef<{ indices: string[]; nodes: string[] }>({ indices: [], nodes: [] });
  useEffect(() => {
    if (!open || !commands) return;
    // The command table loads the first time the line opens (not at the console's start).
    void commands.ready();
    let live = true;
    commands
      .names()
      .then((n) => {
        if (live) read.current = n;
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open, commands]);
  const set = (patch: Partial<NonNullable<ReturnType<typeof ui.getState>['commandLine']>>) =>
    ui.setState((s) => ({ commandLine: { text: '', ...s.commandLine, ...patch } }));
  /** Tab: the line completed as far as its choices agree, the choices listed. */
  const complete = (text: string) => {
    const s = store.getState().snapshots;
    const done = completeLine(
      text,
      {
        indices: [...(s.indices.data ?? []).map((r) => r.name), ...read.current.indices],
        nodes: [...(s.nodes.data ?? []).map((n) => n.name), ...read.current.nodes],
        ...(commands ? { profiles: commands.profiles() } : {}),
      },
      { readOnly: store.getState().connection.readOnly, commands: commands?.table() },
    );
    // Completed as far as the choices agree, the word may already be one of them (sec of sec, secro): the next Tab takes the one after.
    const at = done.options.indexOf(done.line.split(/\s+/).pop() ?? '');
    cycling.current = done.options.length ? { stem: done.line, at: at >= 0 ? at : undefined, shown: done.line } : undefined;
    set({ text: done.line, options: done.options, message: undefined });
  };
  const run = (text: string): void => {
    // Typed before the command table was loaded (the first second): run once it is.
    if (commands && !commands.table()) {
      set({ message: 'loading the commands…' });
      return void commands.ready().then(() => ui.getState().commandLine?.text === text && run(text));
    }
    const action = parseLine(text, {
      readOnly: store.getState().connection.readOnly,
      commands: commands?.table(),
      ...(commands ? { profiles: commands.profiles() } : {}),
    });
    if (action.kind === 'error') return set({ message: action.message, options: undefined });
    const history = addToHistory(ui.getState().history, text);
    ui.setState({ commandLine: undefined, history });
    try {
      files?.saveHistory?.(history);
    } catch {
      // a config folder that cannot be written: the history lasts this session
    }
    switch (action.kind) {
      case 'quit':
        return exit();
      case 'help':
        return ui.setState({ dialog: { kind: 'help' } });
      case 'fleet':
        return ui.setState({ dialog: { kind: 'fleet' } });
      case 'pane':
        store.setState({ pane: action.pane });
        if (isTablePane(action.pane)) patchTable(ui, action.pane, { filter: action.filter ?? '' });
        return;
      case 'view':
        return ui.setState({ dialog: { kind: 'view', id: action.view, index: action.index } });
      case 'run':
        // The words as typed, for the view to run and show (ui/views/OutputView.tsx).
        return ui.setState({ dialog: { kind: 'view', id: 'output', index: text.trim() } });
      case 'profile':
        if (!fleet) return set({ message: 'this console cannot switch profile' });
        return fleet.open(action.profile);
      case 'wizard': {
        const entry = wizards.find((w) => w.id === action.wizard);
        if (!entry) return set({ message: `no ${action.wizard} wizard in this console` });
        if (action.index) setSelection(ui, 'indices', { index: action.index });
        if (action.node) setSelection(ui, 'nodes', { node: action.node });
        return ui.setState({ dialog: { kind: 'wizard', id: entry.id } });
      }
    }
  };
  useKeyLayer(
    'filter',
    (name, input) => {
      const line = ui.getState().commandLine;
      if (!line) return false;
      const cmd = commandFor(name, ['dialog'], keymap)?.id;
      const history = ui.getState().history;
      if (cmd === 'dialog.close') ui.setState({ commandLine: undefined });
      else if (cmd === 'dialog.submit') run(line.text);
      else if (name === 'tab') {
        // A second Tab on the same choices takes the next one into the line.
        const cycle = cycling.current;
        if (line.options?.length && cycle && line.text === cycle.shown) {
          const next = cycleChoice(cycle.stem, line.options, cycle.at);
          cycling.current = { stem: cycle.stem, at: next.at, shown: next.line };
          set({ text: next.line });
          return true;
        }
        // Pressed before the command table was loaded (the line's first second): completed once it is.
        if (commands && !commands.table()) {
          set({ message: 'loading the commands…' });
          void commands.ready().then(() => ui.getState().commandLine?.text === line.text && complete(line.text));
        } else complete(line.text);
      } else if (name === 'up' || name === 'down') {
        const at = Math.max(0, Math.min(history.length, (line.at ?? history.length) + (name === 'up' ? -1 : 1)));
        set({ at, text: history[at] ?? '', message: undefined, options: undefined });
      } else {
        const edit = lineEditOf(name, input);
        if (edit) set({ text: editLine(line.text, edit).slice(0, 300), message: undefined, options: undefined });
      }
      return true;
    },
    open,
  );
  return null;
}
