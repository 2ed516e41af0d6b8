// The one place that holds the store instances: panes, the key router and wizards reach them
// through these hooks, never through imports, so tests can mount the UI on a store of their own.
import React, { createContext, useContext, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { ConsoleState, ConsoleStore } from '../../store/console';
import type { FleetStore } from '../../store/fleet';
import type { UiState, UiStore } from '../state';
import type { ProposedSelection } from '../../domain/share';
import type { ColumnChoice } from '../../domain/console/columns';
import type { LineCommandTable } from '../../domain/console/command-line';

/** What the UI may ask of the poller (refresh key); the poller itself lives outside React. */
export interface PollControl {
  refreshNow(): Promise<void>;
  /** Fetches the verbose (expensive) health report of the indicators that are not green. */
  diagnose?(): Promise<void>;
  /** Runs the doctor's checks (Doctor pane) into the store's `doctor`. */
  doctor?(): Promise<void>;
}

/** Sharing and following (services/share-server.ts, follow-client.ts), as the keys use them. */
export interface ShareControl {
  /** Leader: s starts or stops sharing. */
  toggleShare?(): void;
  /** Follower: f follows the leader's pane and selection, or not. */
  toggleFollow?(): void;
  /** n: a note on the incident timeline (a follower's goes to the leader, who records it with its author). */
  addNote?(text: string): void;
  /** Follower, four eyes: approve the change shown (with the typed confirmation it needs) or decline it. */
  approve?(id: string, text?: string): void;
  decline?(id: string): void;
  /** Follower: a wizard's key proposes that change to the leader (whose console opens the wizard) instead of opening it here. */
  propose?(wizard: string, selection: ProposedSelection): void;
}

/** The Fleet view's reads (services/fleet.ts FleetWatcher) and switching the console to another profile. */
export interface FleetControl {
  store: FleetStore;
  /** Starts reading every saved profile's cluster (the view opened). */
  start(): void;
  /** Stops reading (the view closed). */
  stop(): void;
  /** Leaves this console and opens the console of the profile (same process, its own connection). */
  open(profile: string): void;
}

/** The console's own files (config/console-files.ts): a copy the terminal cannot take, screen dumps. */
export interface ConsoleFiles {
  /** Writes the copied text to its 0600 file; the path as the footer shows it. */
  saveCopied(text: string): string;
  /** Writes the screen as it is now, plain text, to a new 0600 file; the path as shown and its lines. */
  saveScreen(): { file: string; lines: number };
  /** Keeps the columns chosen for a table pane (V) for this profile's next start. */
  saveColumns?(pane: string, choice: ColumnChoice): void;
  /** Keeps the command line's history (`:`) for this profile's next start. */
  saveHistory?(lines: readonly string[]): void;
}

/**
 * The read commands of the command table, run in-process by the command line (`:cat allocation`):
 * commands/tui/line-commands.ts gives them, on the console's connection, always read-only.
 */
export interface LineCommands {
  /** The commands the line runs and those it leaves to a wizard or a shell; undefined while they load. */
  table(): LineCommandTable | undefined;
  /** The table once loaded (a line typed right after the start waits for it). */
  ready(): Promise<LineCommandTable>;
  /** The saved profiles' names (Tab after `profile`). */
  profiles(): string[];
  /** The cluster's index and node names, read once when the line opens (a pane that does not poll them leaves the store without). */
  names(): Promise<{ indices: string[]; nodes: string[] }>;
  /** Runs one command's words; its text (display-safe), exit code and what the code means. */
  run(words: readonly string[]): Promise<{ code: number; text: string; meaning?: string }>;
}

const LineCommandsCtx = createContext<LineCommands | undefined>(undefined);

/** Given by the console (ui/app/mount.tsx); absent where the UI is mounted without a connection (tests, a follower). */
export const LineCommandsProvider = LineCommandsCtx.Provider;

export function useLineCommands(): LineCommands | undefined {
  return useContext(LineCommandsCtx);
}

export interface ConsoleContextValue {
  store: ConsoleStore;
  ui: UiStore;
  poller?: PollControl;
  share?: ShareControl;
  fleet?: FleetControl;
  files?: ConsoleFiles;
  /** Epoch ms; tests pin it so ages ("3s ago") are deterministic. */
  clock: () => number;
}

const Ctx = createContext<ConsoleContextValue | null>(null);

export function ConsoleProvider({ value, children }: { value: ConsoleContextValue; children: React.ReactNode }) {
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useConsoleContext(): ConsoleContextValue {
  const v = useContext(Ctx);
  if (!v) throw new Error('useConsoleContext outside <ConsoleProvider>');
  return v;
}

/** The console, or null for a part mounted on its own (a wizard in its own test). */
export function useOptionalConsoleContext(): ConsoleContextValue | null {
  return useContext(Ctx);
}

/** Narrow, shallow-compared selection from the console store (cluster snapshots, pane, paused). */
export function useConsole<T>(selector: (s: ConsoleState) => T): T {
  return useStore(useConsoleContext().store, useShallow(selector));
}

/** Narrow, shallow-compared selection from the UI store (tables, selection, dialog). */
export function useUi<T>(selector: (s: UiState) => T): T {
  return useStore(useConsoleContext().ui, useShallow(selector));
}

/**
 * Current time, re-read every `everyMs` so ages on screen move on their own. The component renders
 * again only when `shown(now)` changes: a clock that re-rendered every second would cost an idle
 * console a frame a second for text that did not change.
 */
export function useNow(shown: (now: number) => string, everyMs = 1000): number {
  const { clock } = useConsoleContext();
  const shownRef = useRef(shown);
  // eslint-disable-next-line react-hooks/refs -- the latest `shown` for the timer below, written each render on purpose
  shownRef.current = shown;
  const now = clock();
  // The text as this render shows it; the timer compares with it itself rather than counting on
  // React's bail-out for an equal state value (which may still call the component).
  const lastRef = useRef('');
  // eslint-disable-next-line react-hooks/refs -- the text this render shows, for the timer to compare with
  lastRef.current = shown(now);
  const [, setTick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => {
      if (shownRef.current(clock()) !== lastRef.current) setTick((n) => n + 1);
    }, everyMs);
    return () => clearInterval(t);
  }, [clock, everyMs]);
  return now;
}
