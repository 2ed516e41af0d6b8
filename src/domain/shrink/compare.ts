// What makes a copy the same index: its documents (counted), its mapping, every setting but the
// shard count, the routing requirement and the blocks (and what Elasticsearch gives each new index
// itself: uuid, creation date, name), and at the end its aliases. Pure.
import { canonicalJson } from '../inspect/inspect';

/** Settings that differ between an index and its copy by design, never compared. */
const OWN_TO_EACH_INDEX = new Set([
  'index.uuid',
  'index.creation_date',
  'index.provided_name',
  'index.version.created',
  'index.version.upgraded',
  'index.history.uuid',
  'index.number_of_shards',
  'index.number_of_routing_shards',
  'index.routing.allocation.require._name',
  'index.routing.allocation.initial_recovery._id',
]);

/** Settings whose absence means this value (a resized index states it where the original left it out). */
const DEFAULTS: Record<string, string> = { 'index.routing_partition_size': '1' };

export function comparedSetting(key: string): boolean {
  return (
    !OWN_TO_EACH_INDEX.has(key) && !key.startsWith('index.blocks.') && !key.startsWith('index.resize.') && !key.startsWith('index.shrink.')
  );
}

/** The settings that are compared, as one flat object (nulls dropped: a null is an unset). */
export function comparedSettings(flat: Record<string, string | null>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(flat)) if (v !== null && comparedSetting(k) && DEFAULTS[k] !== v) out[k] = String(v);
  return out;
}

export interface Difference {
  what: 'documents' | 'mapping' | 'setting' | 'alias' | 'shards';
  text: string;
}

export interface Snapshot {
  docs: number;
  shards: number;
  settings: Record<string, string | null>;
  /** canonicalJson of the mapping. */
  mapping: string;
  aliases?: Record<string, unknown>;
}

/** Every difference between the original (as recorded) and a copy, each in one line; [] when they are the same. */
export function differences(original: Omit<Snapshot, 'shards'>, copy: Snapshot, expectShards: number, withAliases: boolean): Difference[] {
  const out: Difference[] = [];
  if (copy.docs !== original.docs)
    out.push({ what: 'documents', text: `holds ${copy.docs} documents, the original held ${original.docs}` });
  if (copy.shards !== expectShards) out.push({ what: 'shards', text: `has ${copy.shards} shards, not ${expectShards}` });
  if (copy.mapping !== original.mapping)
    out.push({ what: 'mapping', text: `its mapping differs: ${mappingDiff(original.mapping, copy.mapping)}` });
  const a = comparedSettings(original.settings);
  const b = comparedSettings(copy.settings);
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
    if (a[k] !== b[k]) out.push({ what: 'setting', text: `${k} is ${b[k] ?? 'unset'}, the original had ${a[k] ?? 'unset'}` });
  if (withAliases) {
    const x = original.aliases ?? {};
    const y = copy.aliases ?? {};
    for (const k of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
      if (!(k in y)) out.push({ what: 'alias', text: `the alias ${k} is missing` });
      else if (!(k in x)) out.push({ what: 'alias', text: `the alias ${k} is new` });
      else if (canonicalJson(x[k]) !== canonicalJson(y[k])) out.push({ what: 'alias', text: `the alias ${k} is defined otherwise` });
    }
  }
  return out;
}

/** The top-level mapping keys (and properties) that differ, for the message. */
function mappingDiff(a: string, b: string): string {
  const pa = parse(a);
  const pb = parse(b);
  const props = (m: Record<string, unknown>) => (m.properties ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(props(pa)), ...Object.keys(props(pb))])].sort();
  const fields = keys.filter((k) => canonicalJson(props(pa)[k]) !== canonicalJson(props(pb)[k]));
  if (fields.length)
    return `field${fields.length === 1 ? '' : 's'} ${fields.slice(0, 5).join(', ')}${fields.length > 5 ? ` and ${fields.length - 5} more` : ''}`;
  const top = [...new Set([...Object.keys(pa), ...Object.keys(pb)])].filter((k) => canonicalJson(pa[k]) !== canonicalJson(pb[k]));
  return top.length ? top.join(', ') : 'its text';
}

function parse(s: string): Record<string, unknown> {
  try {
    const v = JSON.parse(s) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
