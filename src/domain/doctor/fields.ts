// Mapping explosion (Elastic's troubleshooting guide): an index at FIELDS_WARN% of its
// index.mapping.total_fields.limit soon refuses documents with new fields. One finding for all
// indices (the fullest named, at most MAX_NAMED), from every index's field count. Pure.
import { formatPercent } from '../text/format';
import { displayText } from '../text/display-text';
import { FIELD_LIMIT_REMEDY, FIELDS_WARN, nearFieldLimit, type FieldCount } from '../inspect/field-limits';
import type { Finding } from './finding';

const MAX_NAMED = 10;

export function fieldLimitFindings(counts: readonly FieldCount[]): Finding[] {
  const near = nearFieldLimit(counts, FIELDS_WARN);
  const evidence = near
    .slice(0, MAX_NAMED)
    .map((c) => `${displayText(c.index)}: ${c.fields} fields of index.mapping.total_fields.limit ${c.limit} (${formatPercent(c.percent)})`);
  if (near.length > MAX_NAMED) evidence.push(`and ${near.length - MAX_NAMED} more (shardeck field-limits)`);
  if (!near.length) {
    const top = counts[0];
    return [
      {
        id: 'mapping.field-limit',
        family: 'mapping',
        severity: 'ok',
        finding: `no index at ${FIELDS_WARN}% of its field limit (${counts.length} checked)`,
        evidence: top ? [`fullest: ${displayText(top.index)} ${top.fields} of ${top.limit} (${formatPercent(top.percent)})`] : [],
      },
    ];
  }
  const full = near.filter((c) => c.fields >= c.limit);
  return [
    {
      id: 'mapping.field-limit',
      family: 'mapping',
      severity: 'warn',
      finding: full.length
        ? `${full.length} index(es) at their field limit: documents with new fields are refused ("Limit of total fields [N] has been exceeded"); ${near.length} at ${FIELDS_WARN}%+`
        : `${near.length} index(es) at ${FIELDS_WARN}%+ of index.mapping.total_fields.limit: documents with new fields will be refused`,
      evidence,
      remedy: FIELD_LIMIT_REMEDY,
      fix: { command: 'shardeck field-limits' },
    },
  ];
}
