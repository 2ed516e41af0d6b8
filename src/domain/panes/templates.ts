// The Templates pane's rows: every index template (what composes it, the shards and replicas a new
// index gets) and every component template (which index templates use it, what it sets), and the
// details of the selected one.
import type { Tone } from '../text/format';
import type { Column, SortKey } from '../text/table';
import type { ComponentTemplate, IndexTemplate, TemplatesView } from '../templates';

export type TemplateLine =
  { kind: 'index'; key: string; name: string; t: IndexTemplate } | { kind: 'component'; key: string; name: string; c: ComponentTemplate };

/** Index templates first, then component templates (each by name: parseTemplates sorted them). */
export function templateLines(view: TemplatesView): TemplateLine[] {
  return [
    ...view.index.map((t) => ({ kind: 'index' as const, key: `i:${t.name}`, name: t.name, t })),
    ...view.components.map((c) => ({ kind: 'component' as const, key: `c:${c.name}`, name: c.name, c })),
  ];
}

const composition = (r: TemplateLine) =>
  r.kind === 'index'
    ? `<- ${r.t.composedOf.join(' + ') || '(none)'}`
    : r.c.usedBy.length
      ? `-> ${r.c.usedBy.join(', ')}`
      : '(used by none)';

export const TEMPLATE_SORT_KEYS: SortKey<TemplateLine>[] = [
  { title: 'kind', value: (r) => (r.kind === 'index' ? 0 : 1) },
  { title: 'name', value: (r) => r.name },
  { title: 'shards', value: (r) => (r.kind === 'index' ? r.t.shards : (r.c.shards ?? -1)) },
  { title: 'replicas', value: (r) => (r.kind === 'index' ? r.t.replicas : (r.c.replicas ?? -1)) },
  { title: 'composed of / used by', value: composition },
];

export const templateSearchText = (r: TemplateLine) =>
  r.kind === 'index'
    ? `${r.name} ${r.t.patterns.join(' ')} ${r.t.composedOf.join(' ')}`
    : `${r.name} ${r.c.usedBy.join(' ')} ${r.c.fields.map((f) => f.name).join(' ')}`;

export const TEMPLATE_COLUMNS: Column<TemplateLine>[] = [
  {
    title: 'kind',
    width: 5,
    text: (r) => (r.kind === 'index' ? 'index' : 'comp'),
    tone: (r) => (r.kind === 'index' && r.t.platform ? 'green' : undefined),
  },
  { title: 'name', width: 26, text: (r) => r.name, cut: 'middle' },
  {
    title: 'composed of / used by',
    width: null,
    text: composition,
    tone: (r) => (r.kind === 'index' && r.t.missing.length ? 'red' : undefined),
  },
  { title: 'shards', width: 6, align: 'right', text: (r) => String(r.kind === 'index' ? r.t.shards : (r.c.shards ?? '-')) },
  { title: 'replicas', width: 8, align: 'right', text: (r) => String(r.kind === 'index' ? r.t.replicas : (r.c.replicas ?? '-')) },
];

/** The selected template in a few lines. */
export function templateDetails(r: TemplateLine): { text: string; tone?: Tone }[] {
  if (r.kind === 'index') {
    const t = r.t;
    const lines: { text: string; tone?: Tone }[] = [
      {
        text: `index template ${t.name}${t.platform ? ' (platform)' : ''}: patterns ${t.patterns.join(', ') || '-'}${t.priority === null ? '' : ` · priority ${t.priority}`}`,
      },
      { text: `composed of ${t.composedOf.join(' + ') || 'no component templates'}, then its own template` },
      { text: `new index: ${t.shards} shards (from ${t.shardsFrom}), ${t.replicas} replicas (from ${t.replicasFrom})` },
    ];
    if (t.missing.length)
      lines.push({
        text: `missing component templates: ${t.missing.join(', ')}: Elasticsearch refuses to create indices from it`,
        tone: 'red',
      });
    return lines;
  }
  const c = r.c;
  const sets = [c.shards === null ? null : `${c.shards} shards`, c.replicas === null ? null : `${c.replicas} replicas`]
    .filter(Boolean)
    .join(', ');
  const disabled = c.fields.filter((f) => !f.enabled);
  return [
    { text: `component template ${c.name}: used by ${c.usedBy.join(', ') || 'no index template'}` },
    {
      text: `sets ${sets || 'no shards or replicas'} · ${c.fields.length} top-level fields${c.fields.length ? `: ${c.fields.map((f) => `${f.name} ${f.type}${f.enabled ? '' : ' enabled:false'}`).join(', ')}` : ''}`,
    },
    ...(disabled.length
      ? [{ text: `not indexed (enabled: false): ${disabled.map((f) => f.name).join(', ')}`, tone: 'yellow' as Tone }]
      : []),
  ];
}
