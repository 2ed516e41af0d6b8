// The screen's own state, which nothing below ui/ reads: per-pane table views (cursor, sort,
// filter, toggles), the selected row of each pane (which wizards read), and the one modal layer
// (help or a wizard). What the cluster looks like and which pane is open, which the poller needs,
// are in store/console.ts. A zustand vanilla store so the key router, the panes and the wizards
// share it without prop drilling.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { TableView } from '../domain/text/table';
import type { ListNav } from '../domain/console/list-nav';
import type { Selection } from '../domain/panes';
import type { DetailSection } from '../domain/inspect/index-detail';
import type { ProfileBadge } from '../domain/console/profile-badge';
import type { ColumnChoice } from '../domain/console/columns';
import { PANES, PANE_SPECS, type PaneId, type TablePane } from '../store/panes';

export type { TablePane };

export interface TableState extends TableView, ListNav {}

/** What the index detail shows (the data itself is in the console store's indexDetail). */
export interface DetailView extends ListNav {
  section: DetailSection;
  /** The search of the settings or mappings, and whether its prompt takes keys. */
  filter: string;
  searching: boolean;
  /** Paths of the folded mapping fields. */
  folded: string[];
  /** The section's request is shown as a curl line. */
  curl: boolean;
  /** One line of feedback (e.g. what `v` could not open). */
  note?: string;
}

export function emptyDetailView(): DetailView {
  return { section: 'stats', filter: '', searching: false, folded: [], curl: false, cursor: 0, offset: 0 };
}

/** A view opens over the pane for the row it was opened on (Esc goes back). */
export type Dialog =
  | { kind: 'help' }
  /** `target`: the marked indices (a comma list of names) the Indices pane's key opened it on; absent: the highlighted row. */
  | { kind: 'wizard'; id: string; target?: string }
  | { kind: 'view'; id: string; index: string }
  | { kind: 'fleet' }
  | { kind: 'columns'; pane: TablePane };

export interface UiState {
  tables: Record<TablePane, TableState>;
  selection: Selection;
  /** The filter prompt of the current pane is taking keys. */
  filtering: boolean;
  /** Hidden (dot) and system indices are shown. */
  showSystem: boolean;
  /** Indices marked on the Indices pane (Space), sorted: the pane's change keys act on them (domain/console/marks.ts). */
  marks: string[];
  /** Shards pane shows only unassigned/initializing/relocating shards. */
  problemsOnly: boolean;
  /** Nodes and Templates panes: the requests behind the pane as curl lines. */
  showCurl: boolean;
  /** Nodes pane: the selected node's pressure and history under the table instead of its details. */
  showPressure: boolean;
  /** Templates pane: the platform's index-templates-settings value instead of the details. */
  showPlatformJson: boolean;
  /** Tasks pane: the highlighted task's whole detail in place of the list (Enter). */
  showTaskDetail: boolean;
  dialog?: Dialog;
  detail: DetailView;
  /** A note for the timeline being typed (n); undefined when the prompt is closed. */
  note?: string;
  /** Follower, four eyes: the confirmation typed for the change shown. */
  approvalTyped?: string;
  /** One line for the status bar a few seconds after a key did something out of sight (y copied, w wrote the screen). */
  flash?: { text: string; at: number; tone: 'green' | 'yellow' | 'red' };
  /** The curl lines of the request preview on screen, for the copy key of a wizard (RequestPreview sets them). */
  previewCurl?: string;
  /** The command line (`:`) while open: what is typed, where in the history, what the last try said, Tab's choices. */
  commandLine?: { text: string; at?: number; message?: string; options?: string[] };
  /** This profile's command-line history, oldest first (config/command-history.ts). */
  history: string[];
  /** Columns of one's own per table pane (V), as this profile chose them (config/columns.ts). */
  columns: Partial<Record<TablePane, ColumnChoice>>;
  /** Each table pane's declared columns, as its table last drew them (the chooser lists them). */
  columnDefaults: Partial<Record<TablePane, { title: string; width: number | null }[]>>;
  /** Production: the cluster's name asked before a change that loses data (ui/components/ClusterNameAsk.tsx). */
  clusterName?: { badge: ProfileBadge; summary: string; typed: string; answer: (text: string | undefined) => void };
}

export type UiStore = StoreApi<UiState>;

function table(sortKey = 0, descending = false): TableState {
  return { filter: '', sortKey, descending, cursor: 0, offset: 0 };
}

export function createUiStore(init: Partial<UiState> = {}): UiStore {
  return createStore<UiState>()(() => ({
    // One cursor, sort and filter per table pane (its key scopes in domain/panes.ts): a new table pane needs no line here.
    tables: Object.fromEntries(PANES.filter(isTablePane).map((p) => [p, table()])) as Record<TablePane, TableState>,
    selection: {},
    filtering: false,
    showSystem: false,
    marks: [],
    problemsOnly: false,
    showCurl: false,
    showPressure: false,
    showPlatformJson: false,
    showTaskDetail: false,
    detail: emptyDetailView(),
    columns: {},
    columnDefaults: {},
    history: [],
    ...init,
  }));
}

export function patchTable(ui: UiStore, pane: TablePane, patch: Partial<TableState>): void {
  ui.setState((s) => ({ tables: { ...s.tables, [pane]: { ...s.tables[pane], ...patch } } }));
}

export function setSelection<K extends keyof Selection>(ui: UiStore, pane: K, value: Selection[K]): void {
  const cur = ui.getState().selection[pane];
  if (JSON.stringify(cur) === JSON.stringify(value)) return;
  ui.setState((s) => ({ selection: { ...s.selection, [pane]: value } }));
}

export function isTablePane(pane: PaneId): pane is TablePane {
  return PANE_SPECS[pane].keyScopes.includes('table');
}
