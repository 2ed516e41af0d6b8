// Index templates and component templates, pure: what composes what, the shards and replicas each
// index template gives a new index (its components' settings in composed_of order, then its own),
// and the platform's topic.elasticsearch.index-templates-settings value derived from the live
// templates (seed: "Index template settings"). Also the seed's component template that disables a
// field, and the index template put back whole with only composed_of changed.
import type { MutationPlan } from './mutation/plan';
import { displayText } from './text/display-text';
import { compareText } from './text/order';

type Json = Record<string, any>;

/** Elasticsearch's own defaults for an index whose templates say nothing (8.x: 1 shard, 1 replica). */
export const ES_DEFAULT_SHARDS = 1;
export const ES_DEFAULT_REPLICAS = 1;

/** The platform's key (seed, "Index template settings"). */
export const PLATFORM_TEMPLATES_KEY = 'topic.elasticsearch.index-templates-settings';

/** The platform's own index templates: service_v9 and service_v9_filter (any version). */
export const PLATFORM_TEMPLATE_NAME = /^service_v\d+(_filter)?$/;

export interface ComponentTemplate {
  name: string;
  /** number_of_shards / number_of_replicas it sets, null when it sets none. */
  shards: number | null;
  replicas: number | null;
  /** Top-level mapped fields, with `enabled: false` kept (the seed's way to stop indexing a field). */
  fields: { name: string; type: string; enabled: boolean }[];
  /** The index templates that list it in composed_of. */
  usedBy: string[];
  /** The definition as Elasticsearch returned it (component_template). */
  body: Json;
}

export interface IndexTemplate {
  name: string;
  patterns: string[];
  composedOf: string[];
  /** composed_of entries that name no existing component template (Elasticsearch then refuses new indices, unless ignored). */
  missing: string[];
  priority: number | null;
  /** Its own settings (template.settings), null when it sets none. */
  ownShards: number | null;
  ownReplicas: number | null;
  /** What a new index created from it gets, and where each value came from. */
  shards: number;
  replicas: number;
  shardsFrom: string;
  replicasFrom: string;
  /** A platform template (service_vN, service_vN_filter). */
  platform: boolean;
  /** The definition as Elasticsearch returned it (index_template). */
  body: Json;
}

export interface TemplatesView {
  index: IndexTemplate[];
  components: ComponentTemplate[];
}

function numberSetting(settings: Json | undefined, key: 'number_of_shards' | 'number_of_replicas'): number | null {
  if (!settings) return null;
  const v = settings.index?.[key] ?? settings[`index.${key}`] ?? settings[key];
  if (v === undefined || v === null || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

function topFields(mappings: Json | undefined): ComponentTemplate['fields'] {
  const props = (mappings?.properties ?? {}) as Record<string, Json>;
  return Object.entries(props).map(([name, m]) => ({
    name,
    type: String(m?.type ?? (m?.properties ? 'object' : '?')),
    enabled: m?.enabled !== false && m?.enabled !== 'false',
  }));
}

/** Raw answers of GET /_index_template and GET /_component_template into one view. */
export function parseTemplates(indexBody: Json, componentBody: Json): TemplatesView {
  const rawIndex = ((indexBody?.index_templates ?? []) as { name: string; index_template: Json }[]).map((t) => ({
    name: String(t.name),
    body: t.index_template ?? {},
  }));
  const rawComp = ((componentBody?.component_templates ?? []) as { name: string; component_template: Json }[]).map((c) => ({
    name: String(c.name),
    body: c.component_template ?? {},
  }));
  const compByName = new Map(rawComp.map((c) => [c.name, c]));
  const usedBy = new Map<string, string[]>();
  const index: IndexTemplate[] = rawIndex.map(({ name, body }) => {
    const composedOf = ((body.composed_of ?? []) as unknown[]).map(String);
    for (const c of composedOf) usedBy.set(c, [...(usedBy.get(c) ?? []), name]);
    const ownShards = numberSetting(body.template?.settings, 'number_of_shards');
    const ownReplicas = numberSetting(body.template?.settings, 'number_of_replicas');
    // Later components override earlier ones; the template's own settings override them all.
    let shards: number | null = null;
    let shardsFrom = 'the default';
    let replicas: number | null = null;
    let replicasFrom = 'the default';
    for (const c of composedOf) {
      const s = compByName.get(c)?.body.template?.settings;
      const cs = numberSetting(s, 'number_of_shards');
      const cr = numberSetting(s, 'number_of_replicas');
      if (cs !== null) [shards, shardsFrom] = [cs, `component ${c}`];
      if (cr !== null) [replicas, replicasFrom] = [cr, `component ${c}`];
    }
    if (ownShards !== null) [shards, shardsFrom] = [ownShards, 'the template'];
    if (ownReplicas !== null) [replicas, replicasFrom] = [ownReplicas, 'the template'];
    return {
      name,
      patterns: ((body.index_patterns ?? []) as unknown[]).map(String),
      composedOf,
      missing: composedOf.filter((c) => !compByName.has(c) && !((body.ignore_missing_component_templates ?? []) as string[]).includes(c)),
      priority: body.priority === undefined ? null : Number(body.priority),
      ownShards,
      ownReplicas,
      shards: shards ?? ES_DEFAULT_SHARDS,
      replicas: replicas ?? ES_DEFAULT_REPLICAS,
      shardsFrom,
      replicasFrom,
      platform: PLATFORM_TEMPLATE_NAME.test(name),
      body,
    };
  });
  const components: ComponentTemplate[] = rawComp.map(({ name, body }) => ({
    name,
    shards: numberSetting(body.template?.settings, 'number_of_shards'),
    replicas: numberSetting(body.template?.settings, 'number_of_replicas'),
    fields: topFields(body.template?.mappings),
    usedBy: usedBy.get(name) ?? [],
    body,
  }));
  index.sort((a, b) => compareText(a.name, b.name));
  components.sort((a, b) => compareText(a.name, b.name));
  return { index, components };
}

export interface PlatformTemplateSettings {
  number_of_shards: number;
  number_of_replicas: number;
  additional_components: string[];
}

/**
 * The platform's topic.elasticsearch.index-templates-settings as the live templates are: one key
 * per platform template (service_v9 and service_v9_filter alike), its shards and replicas as a new
 * index gets them, and additional_components = what the template is really composed of (the
 * platform re-applies its templates on restart: a component left out here would be dropped).
 */
export function platformTemplatesSettings(view: TemplatesView): Record<string, PlatformTemplateSettings> {
  return Object.fromEntries(
    view.index
      .filter((t) => t.platform)
      .map((t) => [t.name, { number_of_shards: t.shards, number_of_replicas: t.replicas, additional_components: [...t.composedOf] }]),
  );
}

/** The template a new project index gets (service_vN, the highest N: the platform's current version), or null. */
export function projectTemplate(view: TemplatesView): IndexTemplate | null {
  const version = (t: IndexTemplate) => Number(/^service_v(\d+)$/.exec(t.name)?.[1] ?? -1);
  return view.index.filter((t) => version(t) >= 0).sort((a, b) => version(b) - version(a))[0] ?? null;
}

/** The template whose name or pattern matches an index, highest priority first (as Elasticsearch picks). */
export function templateOfIndex(view: TemplatesView, index: string): IndexTemplate | null {
  const matches = view.index.filter((t) => t.patterns.some((p) => globMatch(p, index)));
  matches.sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0));
  return matches[0] ?? null;
}

function globMatch(pattern: string, s: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(s);
}

/** One line per index template: what composes it, and what a new index gets. */
export function templateLine(t: IndexTemplate): string {
  return `${displayText(t.name)} [${t.patterns.map(displayText).join(', ')}] <- ${t.composedOf.length ? t.composedOf.map(displayText).join(' + ') : '(no components)'}: ${t.shards} shards / ${t.replicas} replicas`;
}

// --- component template that disables a field (seed: PUT /_component_template/{name}) ---------

/** Field types the seed's example can take for a field that is not indexed (enabled:false needs object; flattened/others refuse it). */
export const DISABLE_FIELD_TYPES = ['object'] as const;

export const DEFAULT_DISABLE_TYPE = 'object';

/** A component template name Elasticsearch accepts (lowercase, no spaces, commas, wildcards, leading _ - +). */
export function checkComponentName(name: string): string | null {
  if (!name.trim()) return 'no component template named: give a name such as service_v9_no_body';
  if (name !== name.toLowerCase())
    return `component template name "${name}" has capitals: Elasticsearch needs it lowercase (e.g. ${name.toLowerCase()})`;
  if (/[\s,*?"<>|\\/#:]/.test(name))
    return `component template name "${name}" has a character Elasticsearch refuses (space , * ? " < > | \\ / # :): use letters, digits, _ and -`;
  if (/^[_\-+]/.test(name)) return `component template name "${name}" starts with ${name[0]}: start it with a letter or a digit`;
  if (name.length > 255) return 'component template name is longer than 255 characters';
  return null;
}

/** A field name to disable: a top-level name, or a dotted path (object notation). */
export function checkFieldName(field: string): string | null {
  if (!field.trim()) return 'no field named: give the field to stop indexing with --disable-field FIELD';
  if (/\s/.test(field) || field.startsWith('.') || field.endsWith('.') || field.includes('..'))
    return `field "${field}" is not a field name: no spaces, no leading, trailing or doubled dots`;
  if (field.startsWith('_')) return `field "${field}" starts with _: metadata fields cannot be disabled`;
  return null;
}

export function checkFieldType(type: string): string | null {
  return (DISABLE_FIELD_TYPES as readonly string[]).includes(type)
    ? null
    : `type "${type}" cannot be disabled: Elasticsearch accepts enabled:false only on ${DISABLE_FIELD_TYPES.join(', ')} fields (the default)`;
}

/** The seed's body: {"template":{"mappings":{"properties":{FIELD:{"type":TYPE,"enabled":false}}}}}. */
export function disableFieldBody(field: string, type: string): Json {
  return { template: { mappings: { properties: { [field]: { type, enabled: false } } } } };
}

/** The field as mapped in a component or index template body (dots as object paths). */
export function mappedField(mappings: Json | undefined, field: string): Json | undefined {
  let props: Json | undefined = mappings?.properties;
  const parts = field.split('.');
  // A dotted name is kept as one key by Elasticsearch in templates; try it whole first.
  if (props?.[field]) return props[field];
  for (let i = 0; i < parts.length; i++) {
    const m = props?.[parts[i]];
    if (!m) return undefined;
    if (i === parts.length - 1) return m;
    props = m.properties;
  }
  return undefined;
}

export function componentTemplatePlan(name: string, field: string, type: string, existing: boolean): MutationPlan {
  return {
    method: 'PUT',
    path: `/_component_template/${encodeURIComponent(name)}`,
    querystring: {},
    body: disableFieldBody(field, type),
    risk: 'reversible',
    target: name,
    summary: `${existing ? 'replace' : 'create'} component template ${name}: field ${field} (${type}) kept in _source but not indexed (enabled: false)`,
    verify: {
      path: `/_component_template/${encodeURIComponent(name)}`,
      querystring: {},
      check(body) {
        const c = (body as Json)?.component_templates?.find((t: Json) => t.name === name)?.component_template;
        const m = mappedField(c?.template?.mappings, field);
        return m && m.enabled === false && m.type === type
          ? { ok: true, message: `component template ${name} maps ${field} as ${type} with enabled: false` }
          : { ok: false, message: `component template ${name} reads back ${m ? JSON.stringify(m) : 'without ' + field}` };
      },
    },
  };
}

/** The index template as it is, with only composed_of gaining `component` (at the end: it overrides the others). */
export function templateWithComponent(template: Json, component: string): Json {
  const next: Json = structuredClone(template);
  const list = ((next.composed_of ?? []) as string[]).filter((c) => c !== component);
  next.composed_of = [...list, component];
  return next;
}

export function composeTemplatePlan(templateName: string, template: Json, component: string): MutationPlan {
  return {
    method: 'PUT',
    path: `/_index_template/${encodeURIComponent(templateName)}`,
    querystring: {},
    body: templateWithComponent(template, component),
    risk: 'reversible',
    target: templateName,
    summary: `add ${component} to composed_of of index template ${templateName} (the rest of the template unchanged), for indices created from now on`,
    verify: {
      path: `/_index_template/${encodeURIComponent(templateName)}`,
      querystring: {},
      check(body) {
        const t = (body as Json)?.index_templates?.find((x: Json) => x.name === templateName)?.index_template;
        const list = (t?.composed_of ?? []) as string[];
        return list.includes(component)
          ? { ok: true, message: `index template ${templateName} is composed of ${list.join(' + ')}` }
          : { ok: false, message: `index template ${templateName} is composed of ${list.join(' + ') || 'nothing'}, without ${component}` };
      },
    },
  };
}

/**
 * The platform value as lines an operator can paste: one template per line (valid JSON, compact
 * enough to read on 80 columns).
 */
export function platformJsonLines(value: Record<string, PlatformTemplateSettings>): string[] {
  const entries = Object.entries(value);
  if (!entries.length) return ['{}'];
  return [
    '{',
    ...entries.map(
      ([k, v], i) =>
        `  ${JSON.stringify(k)}: ${JSON.stringify(v).replace(/,"/g, ', "').replace(/":/g, '": ')}${i < entries.length - 1 ? ',' : ''}`,
    ),
    '}',
  ];
}
