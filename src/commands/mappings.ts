// shardeck mappings PATTERN [--field NAME] [--max N] [--json]: the mapping of every index a pattern
// matches, indices with identical mappings shown once. The pattern is resolved first and its count
// checked, so a pattern matching thousands of indices does not pull thousands of mappings.
import { fieldDefinition, mappingFields, mappingParameters, namesText, type MappingField } from '../domain/inspect/inspect';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, printJson, usageError } from './support/guarded';
import { notFound, withReads } from './support/inspect-common';
import { out } from './support/output';
import { displayText } from '../domain/text/display-text';

const NAME = 'mappings';
export const DEFAULT_MAX_INDICES = 100;

/** One field as a line of the tree: indent, name, type, what stands out. */
export function fieldLine(f: MappingField): string {
  const extra = [f.disabled ? 'enabled: false' : '', ...f.notes].filter(Boolean);
  return `${'  '.repeat(f.depth + 1)}${f.multi ? '+' : ''}${displayText(f.name)}  ${displayText(f.type)}${extra.length ? `  (${extra.join(', ')})` : ''}`;
}

const mappings: CommandModule = {
  summary: 'The mapping of each index a pattern matches (identical mappings shown once); --field NAME looks up one field.',
  usage: 'usage: shardeck mappings PATTERN [--field NAME] [--max N] [--json] [connection flags]',
  group: 'inspect',
  options: { field: { type: 'string' }, max: { type: 'string' } },
  flagHelp: {
    field:
      'only this field, by its dotted path (e.g. meta.author or title.raw); says which indices do not map it (default: the whole mapping)',
    max: `read the mappings only if the pattern matches at most N indices (default: ${DEFAULT_MAX_INDICES})`,
  },
  examples: [
    'shardeck mappings service_v9_abc',
    "shardeck mappings 'service_v9_*' --field modified_at",
    "shardeck mappings 'service_v9_*' --json",
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [pattern, ...extra] = positionals;
    if (pattern === undefined || extra.length || pattern.trim() === '')
      return usageError(NAME, "give one index name or pattern, e.g. shardeck mappings 'service_v9_*'", json);
    const field = values.field as string | undefined;
    if (field !== undefined && (field.trim() === '' || /^\.|\.$|\.\./.test(field)))
      return usageError(
        NAME,
        `--field "${field}" is not a field path: give a name like modified_at or a dotted path like meta.author`,
        json,
      );
    const maxRaw = values.max as string | undefined;
    const max = maxRaw === undefined ? DEFAULT_MAX_INDICES : Number(maxRaw);
    if (!Number.isInteger(max) || max < 1)
      return usageError(NAME, `--max "${maxRaw}" is not a count: give a whole number of indices, 1 or more`, json);
    return withReads(NAME, values, json, async (es) => {
      // Resolve first: the count decides whether the mappings are read at all.
      const indices = await es.resolveIndices(pattern);
      if (!indices || indices.length === 0)
        return notFound(NAME, `no index matches "${pattern}": see the names with shardeck cat indices`, json, { pattern });
      if (indices.length > max)
        return usageError(
          NAME,
          `"${pattern}" matches ${indices.length} indices; mappings are read for at most ${max} at once: narrow the pattern (e.g. ${indices[0]}) or raise --max`,
          json,
        );
      const groups = (await es.mappingGroups(pattern)) ?? [];
      if (field === undefined) {
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, pattern, matched: indices.length, groups });
        else {
          const lines: string[] = [];
          for (const g of groups) {
            const fields = mappingFields(g.mapping);
            lines.push(
              `${namesText(g.indices)} (${g.indices.length} ${g.indices.length === 1 ? 'index' : 'indices'}): ${fields.length} fields`,
            );
            for (const p of mappingParameters(g.mapping)) lines.push(`  ${p}`);
            lines.push(...fields.map(fieldLine));
          }
          if (groups.length > 1) lines.push(`${indices.length} indices, ${groups.length} different mappings`);
          out(lines.join('\n') + '\n');
        }
        return EXIT.ok;
      }
      const found = groups
        .map((g) => ({ indices: g.indices, definition: fieldDefinition(g.mapping, field) }))
        .filter((g) => g.definition !== undefined);
      const missing = groups.filter((g) => fieldDefinition(g.mapping, field) === undefined).flatMap((g) => g.indices);
      if (found.length === 0)
        return notFound(
          NAME,
          `no index matching "${pattern}" maps the field "${field}" (${indices.length} ${indices.length === 1 ? 'index' : 'indices'} looked at)`,
          json,
          { pattern, field, missing },
        );
      if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, pattern, matched: indices.length, field, found, missing });
      else {
        const lines = found.map((g) => `${field}: ${JSON.stringify(g.definition)}  in ${namesText(g.indices)}`);
        if (missing.length) lines.push(`not mapped in ${missing.length}: ${namesText(missing)}`);
        out(lines.join('\n') + '\n');
      }
      return EXIT.ok;
    });
  },
};

export default mappings;
