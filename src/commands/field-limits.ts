// shardeck field-limits [--json] [--from PERCENT]: the indices whose mapped fields reach PERCENT
// (default 80) of index.mapping.total_fields.limit, fullest first, with the limit and the remedy
// (Elastic's "mapping explosion" guide). Reads every index's mapping once (not polled).
import { FIELD_LIMIT_REMEDY, FIELDS_LIST, FIELDS_WARN, fieldCountLine, nearFieldLimit } from '../domain/inspect/field-limits';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { out } from './support/output';

const NAME = 'field-limits';

const fieldLimits: CommandModule = {
  summary: `Indices near index.mapping.total_fields.limit (${FIELDS_LIST}%+ of it): fields, limit, the remedy. Exit 1 from ${FIELDS_WARN}%.`,
  usage: 'usage: shardeck field-limits [--json] [--from PERCENT] [connection flags]',
  group: 'inspect',
  options: { from: { type: 'string' } },
  flagHelp: { from: `list indices from this share of their limit (above 0, at most 100; default ${FIELDS_LIST})` },
  examples: ['shardeck field-limits', 'shardeck field-limits --from 50 --json'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length) return usageError(NAME, 'takes no arguments: shardeck field-limits [--json] [--from PERCENT]', json);
    const from = values.from === undefined ? FIELDS_LIST : Number(values.from);
    if (!Number.isFinite(from) || from <= 0 || from > 100)
      return usageError(NAME, `--from "${String(values.from)}" is not a percentage above 0, at most 100`, json);
    const { es, close } = await openGuard(values);
    try {
      const all = await es.fieldCounts();
      const near = nearFieldLimit(all, from);
      const code = near.some((c) => c.percent >= FIELDS_WARN) ? EXIT.yellow : EXIT.ok;
      if (json) {
        printJson({
          schema: JSON_SCHEMA,
          command: NAME,
          ok: true,
          from,
          checked: all.length,
          indices: near,
          remedy: near.length ? FIELD_LIMIT_REMEDY : null,
        });
        return code;
      }
      if (!near.length) {
        out(`no index at ${from}% of its field limit (${all.length} indices with mapped fields checked)\n`);
        return code;
      }
      out(`${near.length} of ${all.length} indices with mapped fields at ${from}%+ of index.mapping.total_fields.limit:\n`);
      for (const c of near) {
        const l = fieldCountLine(c, 80);
        out(`${l.tone ? paint(l.tone, l.text.trimEnd()) : l.text.trimEnd()}\n`);
      }
      out(`remedy: ${FIELD_LIMIT_REMEDY}\n`);
      return code;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default fieldLimits;
