// Columns of one's own (issue 44 item 4): per table pane, which columns show and in what order,
// chosen in the console (V) and kept per profile. The defaults stay as they are: a pane without a
// choice, or a choice naming columns that no longer exist, shows what the pane declares.

export interface ColumnChoice {
  /** Titles in the order chosen; a column the list does not name keeps its default place after them. */
  order: string[];
  hidden: string[];
}

/** The pane's columns as chosen. The elastic column (the row's name) is never hidden: a row must say what it is. */
export function applyColumnChoice<C extends { title: string; width: number | null }>(columns: readonly C[], choice?: ColumnChoice): C[] {
  if (!choice) return [...columns];
  const byTitle = new Map(columns.map((c) => [c.title, c]));
  const ordered = [
    ...choice.order.filter((t) => byTitle.has(t)).map((t) => byTitle.get(t)!),
    ...columns.filter((c) => !choice.order.includes(c.title)),
  ];
  return ordered.filter((c) => c.width === null || !choice.hidden.includes(c.title));
}

/** The chooser's rows: every column in the chosen order, with whether it shows and whether it may be hidden. */
export function chooserRows(columns: readonly { title: string; width: number | null }[], choice?: ColumnChoice) {
  const all = applyColumnChoice(columns, choice ? { ...choice, hidden: [] } : undefined);
  return all.map((c) => ({ title: c.title, shown: c.width === null || !choice?.hidden.includes(c.title), fixed: c.width === null }));
}

/** Shows or hides one column (the elastic one stays). */
export function toggleColumn(titles: readonly string[], choice: ColumnChoice | undefined, title: string, fixed: boolean): ColumnChoice {
  const c = choice ?? { order: [...titles], hidden: [] };
  if (fixed) return c;
  return {
    order: c.order.length ? c.order : [...titles],
    hidden: c.hidden.includes(title) ? c.hidden.filter((t) => t !== title) : [...c.hidden, title],
  };
}

/** Moves one column earlier (-1) or later (+1) among all of them, in the order shown. */
export function moveColumn(titles: readonly string[], choice: ColumnChoice | undefined, title: string, by: -1 | 1): ColumnChoice {
  const order = chooserOrder(titles, choice);
  const i = order.indexOf(title);
  const j = i + by;
  if (i < 0 || j < 0 || j >= order.length) return choice ?? { order, hidden: [] };
  [order[i], order[j]] = [order[j], order[i]];
  return { order, hidden: choice?.hidden ?? [] };
}

function chooserOrder(titles: readonly string[], choice?: ColumnChoice): string[] {
  const known = (choice?.order ?? []).filter((t) => titles.includes(t));
  return [...known, ...titles.filter((t) => !known.includes(t))];
}

/** The choices kept per profile: profile -> pane -> choice. A file holding anything else is refused whole (its remedy: move it aside). */
export type ColumnChoices = Record<string, Record<string, ColumnChoice>>;

export function parseColumnChoices(text: string): ColumnChoices | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'is not JSON';
  }
  const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const strings = (x: unknown) => Array.isArray(x) && x.every((s) => typeof s === 'string');
  if (!isObj(v)) return 'is not a JSON object';
  for (const panes of Object.values(v)) {
    if (!isObj(panes)) return 'holds a profile that is not an object of panes';
    for (const c of Object.values(panes))
      if (!isObj(c) || !strings(c.order) || !strings(c.hidden)) return 'holds a pane choice without its order and hidden lists';
  }
  return v as ColumnChoices;
}
