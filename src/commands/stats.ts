// shardeck stats [INDEX] [--json]: documents, deleted documents, store, segments, merges, indexing
// and search totals of one index (or pattern), or of the whole node with one line per index.
import { formatBytes, formatCount } from '../domain/text/format';
import { statsLines } from '../domain/inspect/inspect';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, printJson, usageError } from './support/guarded';
import { notFound, withReads } from './support/inspect-common';
import { out } from './support/output';
import { displayText } from '../domain/text/display-text';

const NAME = 'stats';

const stats: CommandModule = {
  summary: 'Index stats: docs, deleted, store, segments, merges, indexing and search totals (of one index or pattern, or the whole node).',
  usage: 'usage: shardeck stats [INDEX] [--json] [connection flags]',
  group: 'inspect',
  flagHelp: {},
  examples: ['shardeck stats', 'shardeck stats service_v9_abc', "shardeck stats 'service_v9_*' --json"],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [expr, ...extra] = positionals;
    if (extra.length || expr?.trim() === '')
      return usageError(NAME, 'give at most one index name or pattern, e.g. shardeck stats service_v9_abc (none: the whole node)', json);
    return withReads(NAME, values, json, async (es) => {
      const report = await es.indexStats(expr);
      const names = Object.keys(report?.indices ?? {});
      if (expr !== undefined && (!report || names.length === 0))
        return notFound(NAME, `no index matches "${expr}": see the names with shardeck cat indices`, json, { index: expr });
      const r = report!;
      if (json)
        printJson({
          schema: JSON_SCHEMA,
          command: NAME,
          ok: true,
          ...(expr !== undefined ? { index: expr } : {}),
          total: r.all,
          indices: r.indices,
        });
      else {
        const lines: string[] = [];
        if (expr === undefined || names.length > 1) {
          lines.push(
            `${expr === undefined ? 'all indices' : `"${displayText(expr)}"`}: ${names.length} ${names.length === 1 ? 'index' : 'indices'}`,
            ...statsLines(r.all).map((l) => `  ${l}`),
          );
          const width = Math.max(...names.map((n) => displayText(n).length));
          for (const n of names) {
            const s = r.indices[n];
            lines.push(
              `${displayText(n).padEnd(width)}  ${s.health ?? ''} docs ${formatCount(s.docs)} deleted ${formatCount(s.deleted)} store ${formatBytes(s.storeBytes)} segments ${s.segments}`,
            );
          }
        } else {
          const s = r.indices[names[0]];
          lines.push(`${displayText(names[0])}  ${s.health ?? ''} ${s.status ?? ''}`.trimEnd(), ...statsLines(s).map((l) => `  ${l}`));
        }
        out(lines.join('\n') + '\n');
      }
      return EXIT.ok;
    });
  },
};

export default stats;
