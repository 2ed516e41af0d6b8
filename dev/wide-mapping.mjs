// An index mapping with many fields (the index detail's "2,000 mapped fields" case): objects of
// leaf fields of every common type, multi-fields, a nested object and one `enabled: false` object.
// Used by dev/record-detail-fixtures.ts, the index detail tests and the benchmark.

const TYPES = ['keyword', 'text', 'long', 'date', 'boolean', 'double', 'ip', 'integer'];

/** Mappings with about `fields` fields in total (objects and multi-fields count as fields, as ES counts them). */
export function wideMapping(fields = 2000) {
  const properties = {
    modified_at: { type: 'date' },
    'assoc:sources': { type: 'keyword' },
    title: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 256 } } },
    raw_payload: { type: 'object', enabled: false },
    attachments: { type: 'nested', properties: { name: { type: 'keyword' }, size: { type: 'long' } } },
  };
  let count = 8; // the fields above (title.raw and the nested ones included)
  for (let g = 0; count < fields; g++) {
    const group = {};
    count++; // the object itself
    for (let i = 0; i < 49 && count < fields; i++) {
      const type = TYPES[(g + i) % TYPES.length];
      group[`f${String(i).padStart(2, '0')}`] = type === 'date' ? { type, format: 'strict_date_optional_time||epoch_millis' } : { type };
      count++;
    }
    properties[`group${String(g).padStart(2, '0')}`] = { properties: group };
  }
  return { dynamic: 'strict', properties };
}

/** Settings an index with that many fields needs (ES refuses more than 1,000 by default). */
export const WIDE_SETTINGS = { number_of_shards: 1, number_of_replicas: 0, 'mapping.total_fields.limit': 5000 };
