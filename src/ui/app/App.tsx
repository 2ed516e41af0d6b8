// The console: header, the active pane (or a dialog over it), key hints and the status bar.
// Global keys live here; panes add their own layer; dialogs (help, wizards) sit on top.
import React, { useMemo } from 'react';
import { Box, useApp } from 'ink';
import { Text } from '../components/Text';
import { keyLabel, type KeyCommand, type Scope } from '../../keys/keymap';
import type { ConsoleStore } from '../../store/console';
import { PANES, type PaneId } from '../../store/panes';
import { HelpOverlay } from '../components/HelpOverlay';
import { Header } from '../components/Header';
import { KeyHints } from '../components/KeyHints';
import { StatusBar } from '../components/StatusBar';
import { commandFor } from '../input/keys';
import { KeyRouter, useKeyLayer } from '../input/router';
import { PANE_REGISTRY } from '../panes/registry';
import { createUiStore, isTablePane, type UiStore } from '../state';
import { movedText } from '../../domain/console/list-nav';
import { markedTarget, marksLine } from '../../domain/console/marks';
import { fitText } from '../../domain/text/table';
import { colourOf } from '../theme';
import { VIEWS } from '../views/registry';
import { WIZARDS, type WizardEntry } from '../wizards/registry';
import {
  ConsoleProvider,
  useConsole,
  useConsoleContext,
  useUi,
  type ConsoleFiles,
  type FleetControl,
  type PollControl,
  type ShareControl,
} from './context';
import { useHabits } from './habits';
import { copyTargetOf } from '../../domain/console/clipboard';
import { ApprovalView, NoteLine, ShareKeys } from '../components/ShareViews';
import { ClusterNameKeys, ClusterNameView } from '../components/ClusterNameAsk';
import { ColumnsChooser } from '../components/ColumnsChooser';
import { CommandLineKeys, CommandLineView } from '../components/CommandLine';
import { FleetView } from '../panes/FleetView';
import { useKeymap } from './use-keymap';
import { FULL_ROWS, HINT_ROWS, MIN_COLUMNS, MIN_ROWS, useTerminalSize } from './terminal';

export interface AppProps {
  store: ConsoleStore;
  poller?: PollControl;
  /** Share, follow, notes and approvals (the tui and follow commands). */
  share?: ShareControl;
  /** Tests pass their own to look at selection and views. */
  ui?: UiStore;
  clock?: () => number;
  wizards?: WizardEntry[];
  /** The Fleet view's reads and the switch to another profile (the tui command gives them). */
  fleet?: FleetControl;
  /** Where a copy the terminal cannot take and the screen dumps go (the tui command gives them). */
  files?: ConsoleFiles;
}

export function App({ store, poller, share, ui, clock = Date.now, wizards = WIZARDS, fleet, files }: AppProps) {
  const value = useMemo(
    () => ({ store, ui: ui ?? createUiStore(), poller, share, clock, fleet, files }),
    [store, ui, poller, share, clock, fleet, files],
  );
  const { exit } = useApp();
  return (
    <ConsoleProvider value={value}>
      <KeyRouter onInterrupt={() => exit()}>
        <Screen wizards={wizards} />
      </KeyRouter>
    </ConsoleProvider>
  );
}

const HEADER_LINES = 2;

function Screen({ wizards }: { wizards: WizardEntry[] }) {
  const { columns, rows } = useTerminalSize();
  const small = columns < MIN_COLUMNS || rows < MIN_ROWS;
  const cramped = rows < FULL_ROWS;
  // The key hints line: not under a wizard, a view or the help (they show their own keys), nor on
  // a short terminal; the status bar always stays.
  const modal = useUi((s) => s.dialog !== undefined && s.dialog.kind !== 'fleet');
  const footerLines = modal || rows < HINT_ROWS ? 1 : 2;
  const asking = useUi((s) => s.clusterName !== undefined);
  // One line short of the screen: Ink redraws a full-height frame by clearing the terminal (flicker).
  const height = rows - 1;
  const width = columns;
  return (
    <>
      <GlobalKeys wizards={wizards} />
      <ShareKeys />
      <ClusterNameKeys />
      <CommandLineKeys wizards={wizards} />
      {small ? (
        <Box flexDirection="column">
          <Text
            bold
          >{`terminal too small: ${columns}x${rows}, need ${MIN_COLUMNS}x${MIN_ROWS} (${MIN_COLUMNS}x${FULL_ROWS} for wizards)`}</Text>
          <Text>resize the window, or press q to quit</Text>
        </Box>
      ) : (
        <Box flexDirection="column" width={width} height={height}>
          <Header width={width} />
          <Box flexDirection="column" height={height - HEADER_LINES - footerLines} overflow="hidden">
            <ClusterNameView width={width} />
            {/* Under the cluster-name question the wizard that waits for it stays mounted, hidden. */}
            <Box display={asking ? 'none' : 'flex'} flexDirection="column">
              <Body wizards={wizards} width={width} height={height - HEADER_LINES - footerLines} cramped={cramped} />
            </Box>
          </Box>
          {footerLines === 2 ? <Footer width={width} /> : null}
          <StatusBar width={width} />
        </Box>
      )}
    </>
  );
}

function Body({ wizards, width, height, cramped }: { wizards: WizardEntry[]; width: number; height: number; cramped: boolean }) {
  const { ui } = useConsoleContext();
  const pane = useConsole((s) => s.pane);
  const dialog = useUi((s) => s.dialog);
  const keymap = useKeymap();
  const readOnly = useConsole((s) => s.connection.readOnly);
  const approval = useConsole((s) => (s.share?.role === 'follower' ? s.share.approval : undefined));
  if (approval) return <ApprovalView request={approval} width={width} />;
  if (dialog?.kind === 'fleet') return <FleetView width={width} height={height} />;
  if (dialog?.kind === 'columns') return <ColumnsChooser pane={dialog.pane} width={width} height={height} />;
  if (dialog?.kind === 'help') return <HelpOverlay keymap={keymap} readOnly={readOnly} width={width} height={height} />;
  if (dialog?.kind === 'wizard') {
    const entry = wizards.find((w) => w.id === dialog.id);
    if (entry) {
      const Wizard = entry.component;
      // Too short to show the whole review: the wizard stays (its session keeps its state) but
      // hidden, and takes only Esc (dialog-keys.ts), so nothing is confirmed unseen.
      return (
        <Box flexDirection="column" width={width} height={height}>
          <Text bold>{entry.title}</Text>
          {cramped ? (
            <Text
              color={colourOf('yellow')}
            >{`a wizard needs ${MIN_COLUMNS}x${FULL_ROWS}: make the terminal taller, or Esc to cancel`}</Text>
          ) : null}
          <Box display={cramped ? 'none' : 'flex'} flexDirection="column">
            <Wizard onClose={() => ui.setState({ dialog: undefined })} />
          </Box>
        </Box>
      );
    }
  }
  if (dialog?.kind === 'view') {
    const entry = VIEWS.find((v) => v.id === dialog.id);
    if (entry) {
      const View = entry.component;
      return (
        <Box flexDirection="column" width={width} height={height}>
          <Text bold>{entry.title(dialog.index)}</Text>
          <View index={dialog.index} width={width} height={height - 1} onClose={() => ui.setState({ dialog: undefined })} />
        </Box>
      );
    }
  }
  return <PaneView pane={pane} width={width} height={height} />;
}

function PaneView({ pane, width, height }: { pane: PaneId; width: number; height: number }) {
  const Pane = PANE_REGISTRY[pane].component;
  return <Pane width={width} height={height} />;
}

/** Scopes whose keys work now, most specific first (for hints and key resolution). */
export function scopesFor(pane: PaneId): Scope[] {
  return [...PANE_REGISTRY[pane].keyScopes, 'global'];
}

function Footer({ width }: { width: number }) {
  const pane = useConsole((s) => s.pane);
  // The index detail over the Indices pane has keys of its own; so has the Fleet view.
  const detail = useConsole((s) => s.pane === 'indices' && s.indexDetail !== undefined);
  const fleetOpen = useUi((s) => s.dialog?.kind === 'fleet');
  // A wizard, a view or the help takes every key: the pane's keys are not offered under it.
  const modal = useUi((s) => s.dialog !== undefined && s.dialog.kind !== 'fleet');
  const keymap = useKeymap();
  const noting = useUi((s) => s.note !== undefined);
  const commanding = useUi((s) => s.commandLine !== undefined);
  const gone = useUi((s) => (isTablePane(pane) && !detail ? s.tables[pane].gone : undefined));
  const paused = useConsole((s) => s.paused);
  const marks = useUi((s) => (pane === 'indices' && !detail ? s.marks : undefined));
  if (noting) return <NoteLine width={width} />;
  if (commanding) return <CommandLineView width={width} />;
  if (gone !== undefined && !fleetOpen) return <Text color={colourOf('yellow')}>{fitText(movedText(gone, width), width)}</Text>;
  if (marks?.length && !modal && !fleetOpen) return <MarksLine marks={marks} width={width} paused={paused} />;
  return (
    <KeyHints
      keymap={keymap}
      scopes={modal ? ['dialog'] : fleetOpen ? ['fleet', 'global'] : detail ? ['detail', 'global'] : scopesFor(pane)}
      width={width}
      paused={paused}
    />
  );
}

/** Said by the marks line itself. */
const SAID = new Set(['indices.mark', 'indices.clearMarks']);
/** Offered first while indices are marked: what is done to whole indices. */
const WHOLE = new Set(['wizard.indexClose', 'wizard.indexOpen', 'wizard.indexDelete']);

/**
 * While indices are marked the footer leads with how many, and how to mark and clear (the pane's
 * change keys act on them); the pane's key hints follow in what room is left.
 */
function MarksLine({ marks, width, paused }: { marks: readonly string[]; width: number; paused: boolean }) {
  const keymap = useKeymap();
  const label = (id: string) => keyLabel(keymap.find((k) => k.id === id)?.keys[0] ?? '?');
  const text = marksLine(marks.length, label('indices.mark'), label('indices.clearMarks'), width);
  const rest = width - text.length - 2;
  return (
    <Box>
      <Text color={colourOf('magenta')} bold>
        {text}
      </Text>
      {rest > 10 ? (
        <>
          <Text>{'  '}</Text>
          <KeyHints
            keymap={[...keymap.filter((k) => WHOLE.has(k.id)), ...keymap.filter((k) => !WHOLE.has(k.id) && !SAID.has(k.id))]}
            scopes={scopesFor('indices')}
            width={rest}
            paused={paused}
          />
        </>
      ) : null}
    </Box>
  );
}

function GlobalKeys({ wizards }: { wizards: WizardEntry[] }) {
  const { store, ui, poller, share } = useConsoleContext();
  const { exit } = useApp();
  const keymap = useKeymap();
  const dialog = useUi((s) => s.dialog);
  const habits = useHabits();

  // The dialog layer: help closes on Esc, ? or q and scrolls; a wizard gets Esc only if it does not
  // take it itself. Modal either way: nothing below sees a key while a dialog is open.
  useKeyLayer(
    'dialog',
    (name) => {
      const closing = commandFor(name, ['dialog', 'global'], keymap)?.id;
      const closesView =
        dialog?.kind === 'help'
          ? closing === 'help' || closing === 'quit'
          : dialog?.kind === 'fleet' && (closing === 'fleet.show' || closing === 'quit');
      if (closing === 'dialog.close' || closesView) {
        ui.setState({ dialog: undefined });
        return true;
      }
      // The help scrolls with its own layer (HelpOverlay); every other key stops here.
      return dialog?.kind === 'help';
    },
    dialog !== undefined,
  );

  useKeyLayer('global', (name) => {
    const pane = store.getState().pane;
    // Resolved within the pane's scopes: a wizard's key works where its keymap row says.
    const cmd = commandFor(name, scopesFor(pane), keymap);
    if (!cmd) return false;
    const wizard = wizards.find((w) => w.commandId === cmd.id);
    const view = VIEWS.find((v) => v.commandId === cmd.id);
    // The row chosen disappeared and the highlight is on a neighbour: nothing acts on it until the
    // operator moves (the footer says so).
    if ((wizard || view) && isTablePane(pane) && ui.getState().tables[pane].gone !== undefined) return true;
    if (wizard && share?.propose) {
      share.propose(wizard.id, ui.getState().selection);
      return true;
    }
    if (wizard) {
      // On the Indices pane (its table, not an index's detail) with indices marked, its change keys
      // act on them: the names still there, read now (a wizard opened any other way, from the line
      // or the Doctor, gets none).
      const u = ui.getState();
      const onTable = pane === 'indices' && store.getState().indexDetail === undefined;
      const names = onTable && u.marks.length ? (store.getState().snapshots.indices.data ?? []).map((i) => i.name) : [];
      const target = markedTarget(u.marks, names);
      ui.setState({ dialog: { kind: 'wizard', id: wizard.id, ...(target ? { target } : {}) }, filtering: false });
      return true;
    }
    if (view) {
      const sel = ui.getState().selection;
      const index = view.target ? view.target(sel) : sel.indices?.index;
      if (!index) return false;
      ui.setState({ dialog: { kind: 'view', id: view.id, index }, filtering: false });
      return true;
    }
    if (cmd.id === 'copy') {
      // The index detail over the Indices pane: its index; else the pane's highlighted row.
      const detail = pane === 'indices' ? store.getState().indexDetail?.index : undefined;
      const target = detail ? { what: 'index name', text: detail } : copyTargetOf(pane, ui.getState().selection);
      habits.copy(target?.what ?? 'name', target?.text);
      return true;
    }
    if (cmd.id === 'screen.dump') {
      habits.dump();
      return true;
    }
    if (cmd.id === 'command.line') {
      ui.setState({ commandLine: { text: '' }, filtering: false });
      return true;
    }
    if (cmd.id === 'table.columns' && isTablePane(pane)) {
      ui.setState({ dialog: { kind: 'columns', pane }, filtering: false });
      return true;
    }
    return runGlobal(cmd, { exit, openHelp: () => ui.setState({ dialog: { kind: 'help' } }), store, poller, ui, share });
  });
  return null;
}

function runGlobal(
  cmd: KeyCommand,
  ctx: { exit: () => void; openHelp: () => void; store: ConsoleStore; poller?: PollControl; ui: UiStore; share?: ShareControl },
): boolean {
  const { store } = ctx;
  if (cmd.id.startsWith('pane.') && cmd.id !== 'pane.next' && cmd.id !== 'pane.prev') {
    const pane = cmd.id.slice('pane.'.length) as PaneId;
    if (!PANES.includes(pane)) return false;
    store.setState({ pane });
    ctx.ui.setState({ filtering: false });
    return true;
  }
  switch (cmd.id) {
    case 'quit':
      ctx.exit();
      return true;
    case 'help':
      ctx.openHelp();
      return true;
    case 'pane.next':
    case 'pane.prev': {
      const i = PANES.indexOf(store.getState().pane);
      const by = cmd.id === 'pane.next' ? 1 : PANES.length - 1;
      store.setState({ pane: PANES[(i + by) % PANES.length] });
      return true;
    }
    case 'poll.pause':
      store.setState((s) => ({ paused: !s.paused }));
      return true;
    case 'poll.refresh':
      void ctx.poller?.refreshNow();
      return true;
    case 'share.toggle':
      if (!ctx.share?.toggleShare) return false;
      ctx.share.toggleShare();
      return true;
    case 'follow.toggle':
      if (!ctx.share?.toggleFollow) return false;
      ctx.share.toggleFollow();
      return true;
    case 'timeline.note':
      if (!ctx.share?.addNote) return false;
      ctx.ui.setState({ note: '' });
      return true;
    case 'fleet.show':
      ctx.ui.setState({ dialog: { kind: 'fleet' }, filtering: false });
      return true;
    default:
      return false;
  }
}
