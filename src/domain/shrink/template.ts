// The template side of right-sizing (issue 42): new project indices must be created with the new
// count too, so number_of_shards is changed where it is set — the index template's own settings
// (they win), else the last component template of composed_of that sets it, else (set nowhere)
// the index template — and the value of the platform's topic.elasticsearch.index-templates-settings
// is printed to paste: the platform re-applies its own configuration, and only after its services
// are restarted (the seed's rule). Pure.
import type { MutationPlan } from '../mutation/plan';

type Json = Record<string, any>;

export interface TemplateFacts {
  name: string;
  /** The index template's own definition (index_template of GET _index_template/<name>). */
  template: Json;
  /** Each component template it is composed of, by name (null: it does not exist). */
  components: Record<string, Json | null>;
  /** The replicas a new index gets (the composed settings), for the platform's JSON. */
  replicas: number;
}

/** number_of_shards as a settings object spells it (nested index.*, flat "index.*", or bare); undefined when not set. */
export function shardsIn(settings: Json | undefined): number | undefined {
  const s = settings ?? {};
  const v = s.index?.number_of_shards ?? s['index.number_of_shards'] ?? s.number_of_shards;
  return v === undefined || v === null ? undefined : Number(v);
}

export type ShardsSetter = { kind: 'index' | 'component'; name: string; shards: number | undefined };

/** Where number_of_shards of a new index comes from: the index template's own settings, else the last component that sets it, else nowhere (Elasticsearch's default, 1). */
export function shardsSetter(f: TemplateFacts): ShardsSetter {
  const own = shardsIn(f.template.template?.settings);
  if (own !== undefined) return { kind: 'index', name: f.name, shards: own };
  const composed = ((f.template.composed_of ?? []) as unknown[]).map(String);
  for (const c of [...composed].reverse()) {
    const n = shardsIn(f.components[c]?.template?.settings);
    if (n !== undefined) return { kind: 'component', name: c, shards: n };
  }
  return { kind: 'index', name: f.name, shards: undefined };
}

/** A template (index or component) as it is, with only template.settings.index.number_of_shards changed (other spellings removed). */
export function withShards(definition: Json, shards: number): Json {
  const next: Json = structuredClone(definition);
  next.template ??= {};
  const settings: Json = (next.template.settings ??= {});
  delete settings['index.number_of_shards'];
  delete settings.number_of_shards;
  settings.index = { ...(settings.index ?? {}), number_of_shards: shards };
  return next;
}

const seg = encodeURIComponent;

/** The PUT that sets the count where it is set; null when it says that count already. */
export function templateShardsPlan(f: TemplateFacts, shards: number): MutationPlan | null {
  const at = shardsSetter(f);
  if (at.shards === shards) return null;
  const definition = at.kind === 'index' ? f.template : f.components[at.name]!;
  const api = at.kind === 'index' ? '_index_template' : '_component_template';
  const what =
    at.kind === 'index'
      ? `index template ${at.name}`
      : `component template ${at.name} (of index template ${f.name}, where the count is set)`;
  return {
    method: 'PUT',
    path: `/${api}/${seg(at.name)}`,
    querystring: {},
    body: withShards(definition, shards),
    risk: 'reversible',
    target: at.name,
    summary: `set number_of_shards to ${shards} in ${what} (was ${at.shards ?? 'unset: 1'}; the rest unchanged), for indices created from now on`,
    verify: {
      path: `/${api}/${seg(at.name)}`,
      querystring: {},
      check(body) {
        const list = (body as Json)?.[at.kind === 'index' ? 'index_templates' : 'component_templates'] ?? [];
        const def = list.find((t: Json) => t.name === at.name)?.[at.kind === 'index' ? 'index_template' : 'component_template'];
        const n = shardsIn(def?.template?.settings);
        return n === shards
          ? { ok: true, message: `${what} now creates indices with ${shards} shard${shards === 1 ? '' : 's'}` }
          : { ok: false, message: `${what} says ${n ?? 'unset'} shards` };
      },
    },
  };
}

/** The value of topic.elasticsearch.index-templates-settings that keeps the template this way (the seed's fields). */
export function platformTemplateJson(f: TemplateFacts, shards: number): Json {
  return {
    [f.name]: {
      number_of_shards: shards,
      number_of_replicas: f.replicas,
      additional_components: ((f.template.composed_of ?? []) as unknown[]).map(String),
    },
  };
}

export const PLATFORM_REMINDER =
  "paste it as the platform's topic.elasticsearch.index-templates-settings (the other templates' keys kept as they are), then restart the platform services with the platform's restart command: until they restart, the platform keeps (and may re-apply) its old value";
