// The index detail (Enter on an Indices row): what it holds (one snapshot per read, kept in the
// console store by services/index-detail.ts), its sections, and each section as text lines that the
// view windows. Pure: the mapping tree's rows are computed once per mapping (mappingFields) and
// only the fold state and the filter are applied on each change.
import { formatBytes, formatCount, statusTone, type Tone } from '../text/format';
import {
  mappingParameters,
  settingRows,
  statRates,
  statsLines,
  templateDrift,
  unfoldedFields,
  type IndexSettings,
  type IndexStats,
  type MappingField,
  type TemplateMatch,
} from './inspect';
import { projectIdOfIndex } from '../naming';
import type { IndexAlias } from '../maintenance/aliases';
import type { Snapshot } from '../snapshot';
import type { ShardRow } from '../types';

export const DETAIL_SECTIONS = ['stats', 'settings', 'mappings', 'shards', 'template'] as const;
export type DetailSection = (typeof DETAIL_SECTIONS)[number];

export const SECTION_TITLES: Record<DetailSection, string> = {
  stats: 'Stats',
  settings: 'Settings',
  mappings: 'Mappings',
  shards: 'Shards',
  template: 'Template',
};

/** A read as shown by the curl key (built in cluster/inspect.ts). */
export interface DetailRequest {
  method: 'GET' | 'POST';
  path: string;
  querystring: Record<string, string>;
}

export interface IndexDetail {
  index: string;
  /** The request behind each section. */
  requests?: Record<DetailSection, DetailRequest>;
  settings: Snapshot<IndexSettings>;
  /** The index's `mappings` object. */
  mappings: Snapshot<unknown>;
  template: Snapshot<TemplateMatch>;
  shards: Snapshot<ShardRow[]>;
  stats: Snapshot<IndexStats & { health?: string; status?: string }>;
  /** Its aliases (issue 43): read with the settings, shown in the stats section (absent: not asked). */
  aliases?: Snapshot<IndexAlias[]>;
  /** The stats read before the latest one: the rates are computed between the two. */
  previousStats?: { data: IndexStats; fetchedAt: number };
}

export function emptyDetail(index: string): IndexDetail {
  return {
    index,
    settings: { failures: 0 },
    mappings: { failures: 0 },
    template: { failures: 0 },
    shards: { failures: 0 },
    stats: { failures: 0 },
    aliases: { failures: 0 },
  };
}

/** The stats section's aliases line: each alias, the write index said; none; or why they are not known. */
export function aliasesLine(a: Snapshot<IndexAlias[]> | undefined): DetailLine | null {
  if (!a) return null;
  if (a.data)
    return a.data.length
      ? { key: 'aliases', text: `aliases: ${a.data.map((x) => `${x.name}${x.write ? ' (write index)' : ''}`).join(', ')}` }
      : { key: 'aliases', text: 'aliases: none', dim: true };
  return a.error ? { key: 'aliases', text: `aliases: not read (${a.error.message})`, tone: 'yellow' } : null;
}

/** The snapshots a section draws from (its age and errors on the title line). */
export function sectionSnapshots(d: IndexDetail, section: DetailSection): Snapshot<unknown>[] {
  if (section === 'template') return [d.template, d.settings];
  return [d[section]];
}

export function nextSection(s: DetailSection, step: 1 | -1): DetailSection {
  const i = DETAIL_SECTIONS.indexOf(s);
  return DETAIL_SECTIONS[(i + step + DETAIL_SECTIONS.length) % DETAIL_SECTIONS.length];
}

export interface DetailLine {
  key: string;
  text: string;
  tone?: Tone;
  dim?: boolean;
  /** A mapping field with children: the path Enter folds. */
  fold?: string;
  /** What y copies on this line: a setting's value, a field's path; `path` names it on the footer. */
  copy?: { path: string; text: string };
}

/** The platform project behind the index, as the Indices pane knows it (service_<version>_<project>). */
export function projectText(index: string, projects: Record<string, string> | undefined, templateVersion: string): string {
  const id = projectIdOfIndex(index, templateVersion);
  if (id === null) return `not a project index (service_${templateVersion}_<project>)`;
  if (!projects) return `${id} (not signed in to the platform)`;
  return projects[id] ? `${projects[id]} (${id})` : `${id}: no such project on the platform`;
}

const lower = (s: string) => s.toLowerCase();

function filtered(lines: DetailLine[], filter: string): DetailLine[] {
  const f = lower(filter.trim());
  return f ? lines.filter((l) => lower(l.text).includes(f)) : lines;
}

const rateText = (n: number) => `${n >= 100 ? n.toFixed(0) : n.toFixed(1)}/s`;

export function statsSectionLines(d: IndexDetail): DetailLine[] {
  const s = d.stats.data;
  if (!s) return [];
  const lines: DetailLine[] = [{ key: 'health', text: `health ${s.health ?? '?'}, ${s.status ?? '?'}`, tone: statusTone(s.health) }];
  lines.push(...statsLines(s).map((text, i) => ({ key: `s${i}`, text })));
  const aliases = aliasesLine(d.aliases);
  if (aliases) lines.push(aliases);
  const r = d.stats.fetchedAt !== undefined ? statRates(d.previousStats?.data, d.previousStats?.fetchedAt, s, d.stats.fetchedAt) : null;
  lines.push(
    r
      ? {
          key: 'rates',
          text: `rates over the last ${r.seconds.toFixed(0)} s: indexing ${rateText(r.indexing)}, search ${rateText(r.search)}, docs ${r.docs >= 0 ? '+' : ''}${rateText(r.docs)}, merges ${rateText(r.merges)}`,
        }
      : { key: 'rates', text: 'rates: after the next poll', dim: true },
  );
  if (s.deleted > 0 && s.docs > 0) {
    const share = s.deleted / (s.docs + s.deleted);
    lines.push({
      key: 'deleted',
      text: `deleted documents: ${(share * 100).toFixed(1)}% of the index (a force merge frees their disk)`,
      tone: share > 0.2 ? 'yellow' : undefined,
    });
  }
  return lines;
}

export function settingsSectionLines(d: IndexDetail, filter: string): DetailLine[] {
  const s = d.settings.data;
  if (!s) return [];
  const rows = settingRows(s);
  // Keys padded to a column, but not so wide that values fall off an 80-column screen.
  const width = Math.min(44, Math.max(0, ...rows.map((r) => r.key.length)));
  return filtered(
    rows.map((r) => ({
      key: r.key,
      text: `${r.key.padEnd(width)}  ${r.value}${r.isDefault ? '  (default)' : ''}`,
      dim: r.isDefault,
      copy: { path: r.key, text: r.value },
    })),
    filter,
  );
}

/** The mapping as a tree: folded fields hide their children; a filter shows the matching fields flat, by path. */
export function mappingSectionLines(
  mapping: unknown,
  fields: readonly MappingField[],
  folded: ReadonlySet<string>,
  filter: string,
): DetailLine[] {
  const f = lower(filter.trim());
  const head: DetailLine[] = [
    {
      key: '#head',
      text: `${fields.length} fields${mappingParameters(mapping).length ? `; ${mappingParameters(mapping).join(', ')}` : ''}`,
      dim: true,
    },
  ];
  if (f) {
    const hits = fields.filter((x) => lower(x.path).includes(f) || lower(x.type).includes(f));
    return [...head, ...hits.map((x) => new FieldLine(x, x.path, false))];
  }
  return [...head, ...unfoldedFields(fields, folded).map((x) => new FieldLine(x, undefined, folded.size > 0 && folded.has(x.path)))];
}

/**
 * One field as a line. Its text is built only when read: the view reads the lines on screen, so
 * opening a mapping of thousands of fields builds a screenful of strings, not thousands.
 */
class FieldLine implements DetailLine {
  readonly key: string;
  readonly tone: Tone | undefined;
  readonly fold: string | undefined;
  constructor(
    private readonly x: MappingField,
    private readonly label: string | undefined,
    private readonly isFolded: boolean,
  ) {
    this.key = x.path;
    this.tone = x.disabled ? 'yellow' : undefined;
    this.fold = x.children ? x.path : undefined;
  }
  /** A field's line copies its path (what a query names), its type said beside it on the footer. */
  get copy(): { path: string; text: string } {
    return { path: `${this.x.type} field`, text: this.x.path };
  }
  get text(): string {
    const x = this.x;
    const label = this.label ?? `${'  '.repeat(x.depth)}${x.multi ? '+' : ''}${x.name}`;
    const marker = x.children ? (this.isFolded ? '▸ ' : '▾ ') : '  ';
    const extra = [...x.notes, x.children && this.isFolded ? `${x.children} fields folded` : ''].filter(Boolean);
    return `${marker}${label}  ${x.type}${x.disabled ? '  enabled: false' : ''}${extra.length ? `  (${extra.join(', ')})` : ''}`;
  }
}

export function shardsSectionLines(d: IndexDetail): DetailLine[] {
  const rows = d.shards.data;
  if (!rows) return [];
  const sorted = [...rows].sort((a, b) => a.shard - b.shard || Number(b.primary) - Number(a.primary));
  const head: DetailLine = { key: '#head', text: 'shard copy    state         node                 docs       store  why', dim: true };
  return [
    head,
    ...sorted.map((s, i): DetailLine => ({
      key: `${s.shard}-${s.primary}-${i}`,
      text: `${String(s.shard).padStart(5)} ${s.primary ? 'primary' : 'replica'} ${s.state.padEnd(13)} ${(s.node ?? '-').slice(0, 20).padEnd(20)} ${formatCount(s.docs).padStart(5)} ${formatBytes(s.storeBytes).padStart(11)}  ${s.unassignedReason ?? ''}${s.unassignedDetails ? `: ${s.unassignedDetails}` : ''}`,
      tone: s.state === 'STARTED' ? undefined : s.state === 'UNASSIGNED' ? (s.primary ? 'red' : 'yellow') : 'yellow',
    })),
  ];
}

export function templateSectionLines(d: IndexDetail): DetailLine[] {
  const m = d.template.data;
  if (!m) return [];
  const lines: DetailLine[] = [];
  if (!m.template)
    lines.push({
      key: 'none',
      text: `no index template matches ${d.index}: a new index of this name gets Elasticsearch's defaults`,
      tone: 'yellow',
    });
  else {
    const t = m.template;
    lines.push({ key: 'name', text: `template ${t.name} (priority ${t.priority}, patterns ${t.indexPatterns.join(', ')})` });
    lines.push({
      key: 'composed',
      text: `composed of: ${t.composedOf.length ? t.composedOf.join(', ') : 'nothing (its own template only)'}`,
    });
  }
  if (m.overlapping.length)
    lines.push({ key: 'overlap', text: `also matching, at lower priority: ${m.overlapping.map((o) => o.name).join(', ')}`, dim: true });
  lines.push({
    key: 'given',
    text: `what it gives a new index of this name (${m.mappingFields} mapped fields${m.aliases.length ? `, aliases ${m.aliases.join(', ')}` : ''}):`,
    dim: true,
  });
  const own = d.settings.data?.settings ?? {};
  const drift = new Map(templateDrift(m, own).map((x) => [x.key, x]));
  for (const key of Object.keys(m.settings).sort()) {
    const dr = drift.get(key);
    const differs = dr && d.settings.data !== undefined;
    lines.push({
      key: `set:${key}`,
      text: `  ${key} ${m.settings[key]}${differs ? `  (this index: ${dr.index ?? 'not set'})` : ''}`,
      tone: differs ? 'yellow' : undefined,
    });
  }
  return lines;
}

/** Searchable sections (the `/` key). */
export function sectionSearchable(section: DetailSection): boolean {
  return section === 'settings' || section === 'mappings';
}
