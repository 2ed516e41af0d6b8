// shardeck settings INDEX [--all] [--json]: every setting of one index, flattened (index.*), with
// --all also Elasticsearch's defaults it does not override. Reads only.
import { isSingleIndex, settingRows } from '../domain/inspect/inspect';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, printJson, usageError } from './support/guarded';
import { notFound, withReads } from './support/inspect-common';
import { out } from './support/output';
import { displayText } from '../domain/text/display-text';

const NAME = 'settings';

const settings: CommandModule = {
  summary: 'Every setting of one index, flattened; --all adds the defaults it does not set.',
  usage: 'usage: shardeck settings INDEX [--all] [--json] [connection flags]',
  group: 'inspect',
  options: { all: { type: 'boolean' } },
  flagHelp: { all: "also Elasticsearch's defaults the index does not override, marked (default) (default: only the index's own settings)" },
  examples: [
    'shardeck settings service_v9_abc',
    'shardeck settings service_v9_abc --all | grep refresh',
    'shardeck settings service_v9_abc --json',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [index, ...extra] = positionals;
    if (index === undefined || extra.length)
      return usageError(NAME, 'give exactly one index name, e.g. shardeck settings service_v9_abc', json);
    if (!isSingleIndex(index))
      return usageError(NAME, `"${index}" is a pattern or a list: settings shows one index; see the names with shardeck cat indices`, json);
    const all = Boolean(values.all);
    return withReads(NAME, values, json, async (es) => {
      const found = await es.indexSettings(index, all);
      const s = found?.find((x) => x.index === index) ?? found?.[0];
      if (!s) return notFound(NAME, `no index named "${index}": see the names with shardeck cat indices`, json, { index });
      const rows = settingRows(s);
      if (json)
        printJson({
          schema: JSON_SCHEMA,
          command: NAME,
          ok: true,
          index: s.index,
          settings: s.settings,
          ...(all ? { defaults: s.defaults ?? {} } : {}),
        });
      else {
        const width = Math.max(...rows.map((r) => r.key.length));
        out(rows.map((r) => `${r.key.padEnd(width)}  ${displayText(r.value)}${r.isDefault ? '  (default)' : ''}`).join('\n') + '\n');
      }
      return EXIT.ok;
    });
  },
};

export default settings;
