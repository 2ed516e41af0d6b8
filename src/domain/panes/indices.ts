// The Indices pane's rows: each index of _cat/indices with its strongest block and, when signed in
// to the platform, the project behind service_v9_<project>; how they sort, filter and show.
import { formatBytes, formatCount, statusTone } from '../format';
import { DEFAULT_TEMPLATE_VERSION, projectIdOfIndex } from '../naming';
import { matchProjectsToIndices } from '../projects';
import type { Column, SortKey } from '../table';
import type { IndexBlocks, IndexRow } from '../types';

export interface IndexLine extends IndexRow {
  /** "ro/del", "ro", "write" or "" (the strongest block). */
  block: string;
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
  const byIndex = new Map(blocks.map((b) => [b.index, b]));
  return rows
    .filter((r) => showSystem || !r.system)
    .map((r) => {
      const id = projects ? projectIdOfIndex(r.name, templateVersion) : null;
      // Every field by name: a spread costs ~3 µs a row, 300 ms at 100,000 indices per poll.
      return {
        name: r.name,
        health: r.health,
        status: r.status,
        uuid: r.uuid,
        primaries: r.primaries,
        replicas: r.replicas,
        docsCount: r.docsCount,
        docsDeleted: r.docsDeleted,
        storeBytes: r.storeBytes,
        priStoreBytes: r.priStoreBytes,
        system: r.system,
        block: blockOf(byIndex.get(r.name)),
        project: id === null ? undefined : (projects?.[id] ?? `? ${id}`),
      };
    });
}

/** Projects the platform knows whose index is missing on this node, by name: shown, not hidden. */
export function projectsWithoutIndex(projects: Record<string, string> | undefined, indices: IndexRow[] | undefined, templateVersion: string): string[] {
  if (!projects || !indices) return [];
  const list = Object.entries(projects).map(([id, name]) => ({ id, name }));
  const report = matchProjectsToIndices(list, indices, templateVersion);
  return report.projectsWithoutIndex.map((id) => projects[id] ?? id);
}

/** The title line's counts: shown of all, the dot indices hidden, the projects without an index. */
export function indicesInfo(shown: number, total: number, hidden: number, showSystem: boolean, withoutIndex: string[]): string {
  return (
    `${shown} of ${total}${showSystem ? '' : hidden > 0 ? ` (${hidden} dot hidden: .)` : ''}` +
    (withoutIndex.length ? `  no index: ${withoutIndex.join(', ')}` : '')
  );
}

const HEALTH_ORDER: Record<string, number> = { red: 0, yellow: 1, unknown: 2, green: 3 };

export const INDEX_SORT_KEYS: SortKey<IndexLine>[] = [
  { title: 'index', value: (r) => r.name },
  { title: 'health', value: (r) => HEALTH_ORDER[r.health] ?? 2 },
  { title: 'docs', value: (r) => r.docsCount },
  { title: 'deleted', value: (r) => r.docsDeleted },
  { title: 'size', value: (r) => r.storeBytes },
];

/** What the filter searches in. */
export const indexSearchText = (r: IndexLine) => `${r.name} ${r.project ?? ''} ${r.health} ${r.status} ${r.block}`;

export function indexColumns(withProject: boolean): Column<IndexLine>[] {
  // At 80 columns the project name takes the place of the open/close status.
  const cols: (Column<IndexLine> | false)[] = [
    { title: 'health', width: 7, text: (r) => r.health, tone: (r) => statusTone(r.health) },
    !withProject && { title: 'status', width: 6, text: (r) => r.status },
    { title: 'index', width: null, text: (r) => r.name },
    withProject && { title: 'project', width: 12, text: (r) => r.project ?? '' },
    { title: 'p/r', width: 5, align: 'right', text: (r) => `${r.primaries}/${r.replicas}` },
    { title: 'docs', width: 9, align: 'right', text: (r) => formatCount(r.docsCount) },
    { title: 'deleted', width: 7, align: 'right', text: (r) => formatCount(r.docsDeleted) },
    { title: 'size', width: 7, align: 'right', text: (r) => formatBytes(r.storeBytes) },
    { title: 'block', width: 6, text: (r) => r.block, tone: (r) => (r.block ? 'red' : undefined) },
  ];
  return cols.filter((c): c is Column<IndexLine> => c !== false);
}
