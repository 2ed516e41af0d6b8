// The Indices pane's rows: each index of _cat/indices with its strongest block and, when signed in
// to the platform, the project behind service_v9_<project>; how they sort, filter and show.
import { formatBytes, formatCount, statusTone } from '../text/format';
import { DEFAULT_TEMPLATE_VERSION, projectIdOfIndex } from '../naming';
import { matchProjectsToIndices } from '../projects';
import type { Column, SortKey } from '../text/table';
import type { IndexBlocks, IndexRow } from '../types';

/**
 * A row of the pane. An index without a block and without a platform project is its own line (the
 * parser's row itself: no copy of 100,000 rows per snapshot); the others are copies with these.
 */
export interface IndexLine extends IndexRow {
  /** "ro/del", "ro", "write", or absent / "" (none): the strongest block. */
  block?: string;
  project?: string;
}

function blockOf(b: IndexBlocks | undefined): string {
  if (!b) return '';
  return b.readOnly ? 'ro' : b.readOnlyAllowDelete ? 'ro/del' : b.write ? 'write' : '';
}

export function indexLines(
  rows: IndexRow[],
  blocks: IndexBlocks[],
  projects: Record<string, string> | undefined,
  showSystem: boolean,
  templateVersion = DEFAULT_TEMPLATE_VERSION,
): IndexLine[] {
  return indexLinesAgain(rows, blocks, projects, showSystem, templateVersion).lines;
}

/** The lines of one snapshot and what they were made from, so the next snapshot reuses them. */
export interface IndexLinesMemo {
  rows: readonly IndexRow[];
  /** at[i]: the line of rows[i], null when it is hidden. */
  at: (IndexLine | null)[];
  lines: IndexLine[];
  blocks: IndexBlocks[];
  projects: Record<string, string> | undefined;
  showSystem: boolean;
  templateVersion: string;
}

/**
 * indexLines, keeping the line of every row the new snapshot repeats at the same position (the
 * parser reuses unchanged rows, domain/parse.ts) while blocks, projects and the switches are the
 * same: a poll that changed a few of 100,000 indices makes a few lines, not 100,000.
 */
export function indexLinesAgain(
  rows: readonly IndexRow[],
  blocks: IndexBlocks[],
  projects: Record<string, string> | undefined,
  showSystem: boolean,
  templateVersion: string,
  last?: IndexLinesMemo,
): IndexLinesMemo {
  const reuse =
    last &&
    last.blocks === blocks &&
    last.projects === projects &&
    last.showSystem === showSystem &&
    last.templateVersion === templateVersion
      ? last
      : undefined;
  let byIndex: Map<string, IndexBlocks> | undefined;
  // Rows that moved (an index created or deleted before them) are found by identity.
  let lineOf: Map<IndexRow, IndexLine | null> | undefined;
  const at: (IndexLine | null)[] = new Array(rows.length);
  // Sized once and cut to the lines shown (a push at a time copies a 100,000-line array ~20 times).
  const lines: IndexLine[] = new Array(rows.length);
  let shown = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (!showSystem && r.system) {
      at[i] = null;
      continue;
    }
    // A row changed in place (same index, new values) needs a new line; only a row that moved
    // (an index created or deleted before it) is looked up by identity.
    const was = reuse?.rows[i];
    let line = !reuse ? null : was === r ? reuse.at[i] : was?.name === r.name ? null : (lineOf ??= linesByRow(reuse)).get(r);
    if (!line) byIndex ??= new Map(blocks.map((b) => [b.index, b]));
    const id = line || !projects ? null : projectIdOfIndex(r.name, templateVersion);
    const block = line ? '' : blockOf(byIndex?.get(r.name));
    if (!line && id === null && !block) line = r;
    if (!line) {
      // Every field by name: a spread costs ~3 µs a row, 300 ms at 100,000 indices per poll.
      line = {
        name: r.name,
        health: r.health,
        status: r.status,
        primaries: r.primaries,
        replicas: r.replicas,
        docsCount: r.docsCount,
        docsDeleted: r.docsDeleted,
        storeBytes: r.storeBytes,
        priStoreBytes: r.priStoreBytes,
        system: r.system,
        block,
        project: id === null ? undefined : (projects?.[id] ?? `? ${id}`),
      };
    }
    at[i] = line;
    lines[shown++] = line;
  }
  lines.length = shown;
  return { rows, at, lines, blocks, projects, showSystem, templateVersion };
}

function linesByRow(memo: IndexLinesMemo): Map<IndexRow, IndexLine | null> {
  const m = new Map<IndexRow, IndexLine | null>();
  memo.rows.forEach((r, i) => m.set(r, memo.at[i]));
  return m;
}

/** Projects the platform knows whose index is missing on this node, by name: shown, not hidden. */
export function projectsWithoutIndex(
  projects: Record<string, string> | undefined,
  indices: IndexRow[] | undefined,
  templateVersion: string,
): string[] {
  if (!projects || !indices) return [];
  const list = Object.entries(projects).map(([id, name]) => ({ id, name }));
  const report = matchProjectsToIndices(list, indices, templateVersion);
  return report.projectsWithoutIndex.map((id) => projects[id] ?? id);
}

/** The title line's counts: shown of all, the dot indices hidden, the projects without an index. */
export function indicesInfo(shown: number, total: number, hidden: number, showSystem: boolean, withoutIndex: string[]): string {
  return (
    `${shown} of ${total}${showSystem ? '' : hidden > 0 ? ` (${hidden} dot hidden: .)` : ''}` +
    (withoutIndex.length ? `  no index yet: ${withoutIndex.join(', ')}` : '')
  );
}

const HEALTH_ORDER: Record<string, number> = { red: 0, yellow: 1, unknown: 2, green: 3 };

export const INDEX_SORT_KEYS: SortKey<IndexLine>[] = [
  { title: 'index', value: (r) => r.name },
  { title: 'health', value: (r) => HEALTH_ORDER[r.health] ?? 2 },
  { title: 'docs', value: (r) => r.docsCount },
  { title: 'deleted', value: (r) => r.docsDeleted },
  { title: 'size', value: (r) => r.storeBytes },
  { title: 'status', value: (r) => r.status },
  { title: 'project', value: (r) => r.project ?? '' },
  { title: 'p/r', value: (r) => r.primaries * (r.replicas + 1) },
  { title: 'block', value: (r) => r.block ?? '' },
];

/** What the filter searches in. */
export const indexSearchText = (r: IndexLine) => `${r.name} ${r.project ?? ''} ${r.health} ${r.status} ${r.block ?? ''}`;

export function indexColumns(withProject: boolean): Column<IndexLine>[] {
  // At 80 columns the project name takes the place of the open/close status.
  const cols: (Column<IndexLine> | false)[] = [
    { title: 'health', width: 7, text: (r) => r.health, tone: (r) => statusTone(r.health) },
    !withProject && { title: 'status', width: 6, text: (r) => r.status },
    { title: 'index', width: null, text: (r) => r.name, cut: 'middle' },
    withProject && { title: 'project', width: 12, text: (r) => r.project ?? '' },
    { title: 'p/r', width: 5, align: 'right', text: (r) => `${r.primaries}/${r.replicas}` },
    { title: 'docs', width: 9, align: 'right', text: (r) => formatCount(r.docsCount) },
    { title: 'deleted', width: 7, align: 'right', text: (r) => formatCount(r.docsDeleted) },
    { title: 'size', width: 7, align: 'right', text: (r) => formatBytes(r.storeBytes) },
    { title: 'block', width: 6, text: (r) => r.block ?? '', tone: (r) => (r.block ? 'red' : undefined) },
  ];
  return cols.filter((c): c is Column<IndexLine> => c !== false);
}
