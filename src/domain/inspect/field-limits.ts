// Mapping explosion (Elastic's troubleshooting guide "Mapping explosion"): an index whose mapped
// fields near `index.mapping.total_fields.limit` (1000 unless set) refuses documents with new fields
// once it is reached ("Limit of total fields [N] has been exceeded"). Counted as the node counts
// them: every mapped field, object and multi-field, and every runtime field (checked on 8.19:
// limit 5 refused, limit 6 took a b{c, d{raw}} plus one runtime field). Pure.
import { formatCount, formatPercent, type Tone } from '../text/format';
import { displayText } from '../text/display-text';
import { fitText } from '../text/table';

/** Elasticsearch's default for `index.mapping.total_fields.limit`. */
export const DEFAULT_FIELD_LIMIT = 1000;
/** Listed from this share of the limit; the doctor warns from FIELDS_WARN. */
export const FIELDS_LIST = 80;
export const FIELDS_WARN = 90;

/** GET /_mapping: only the parts that hold fields travel (not _meta, dynamic templates or _source). */
export const FIELD_MAPPING_FILTER = '*.mappings.properties,*.mappings.runtime';
/** GET /_all/_settings/index.mapping.total_fields.limit: only the indices that set it answer. */
export const FIELD_LIMIT_FILTER = '*.settings.index.mapping.total_fields.limit';

export const FIELD_LIMIT_REMEDY =
  'stop the growth: map the fields you need explicitly and set "dynamic": false (or "runtime") on the objects whose keys come from the data (ids, user input as keys); flatten such objects (type flattened); remove the producers of new field names; a new index (rollover or reindex) drops fields no longer sent. Raising index.mapping.total_fields.limit only buys time and costs heap';

export interface FieldCount {
  index: string;
  fields: number;
  limit: number;
  percent: number;
}

type Json = Record<string, any>;

/** Mapped fields under `properties` (objects and multi-fields count, as the node counts them). */
export function countProperties(properties: unknown): number {
  if (!properties || typeof properties !== 'object') return 0;
  let n = 0;
  for (const f of Object.values(properties as Json)) {
    n++;
    if (f && typeof f === 'object') {
      n += countProperties((f as Json).properties);
      if ((f as Json).fields && typeof (f as Json).fields === 'object') n += countProperties((f as Json).fields);
    }
  }
  return n;
}

/** Each index's field count against its limit, fullest first (ties by name). */
export function fieldCounts(mappings: unknown, limits: unknown): FieldCount[] {
  const m = (mappings ?? {}) as Json;
  const l = (limits ?? {}) as Json;
  return Object.entries(m)
    .map(([index, v]) => {
      const mapping = (v?.mappings ?? {}) as Json;
      const fields = countProperties(mapping.properties) + Object.keys((mapping.runtime ?? {}) as Json).length;
      const set = Number(l[index]?.settings?.index?.mapping?.total_fields?.limit);
      const limit = Number.isFinite(set) && set > 0 ? set : DEFAULT_FIELD_LIMIT;
      return { index, fields, limit, percent: (fields / limit) * 100 };
    })
    .sort((a, b) => b.percent - a.percent || (a.index < b.index ? -1 : a.index > b.index ? 1 : 0));
}

/** The indices at `from`% of their limit or more. */
export function nearFieldLimit(counts: readonly FieldCount[], from = FIELDS_LIST): FieldCount[] {
  return counts.filter((c) => c.percent >= from);
}

export function fieldTone(c: FieldCount): Tone | undefined {
  return c.percent >= FIELDS_WARN ? 'red' : c.percent >= FIELDS_LIST ? 'yellow' : undefined;
}

/** One line an index: share, fields of limit, the name (escaped), at `width` columns. */
export function fieldCountLine(c: FieldCount, width: number): { text: string; tone?: Tone } {
  const head = `${fitText(formatPercent(c.percent), 5, 'right')}  ${fitText(`${formatCount(c.fields)} / ${formatCount(c.limit)}`, 13)} `;
  return { text: fitText(head + displayText(c.index), width), tone: fieldTone(c) };
}
