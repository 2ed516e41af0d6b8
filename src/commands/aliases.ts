// shardeck aliases [--all] [--json]: every alias with its indices and where writes through it go
// (the index marked is_write_index, or its only index); an alias with none is flagged. Reads only.
import { aliasViews } from '../domain/maintenance/aliases';
import { displayText } from '../domain/text/display-text';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, printJson, usageError } from './support/guarded';
import { withReads } from './support/inspect-common';
import { out } from './support/output';
import { paint } from './support/paint';

const NAME = 'aliases';

const aliases: CommandModule = {
  summary: 'Every alias with its indices and its write index; an alias writes cannot go through is flagged.',
  usage: 'usage: shardeck aliases [--all] [--json] [connection flags]',
  options: { all: { type: 'boolean' } },
  group: 'inspect',
  flagHelp: { all: 'also the aliases of system (dot) indices (default: left out, and counted)' },
  examples: ['shardeck aliases', 'shardeck aliases --json', 'shardeck aliases --all'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length) return usageError(NAME, 'aliases takes no arguments: shardeck aliases [--all]', json);
    return withReads(NAME, values, json, async (es) => {
      const all = aliasViews(await es.aliasRows());
      const shown = values.all ? all : all.filter((a) => !a.alias.startsWith('.') && !a.indices.every((i) => i.startsWith('.')));
      if (json) {
        printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, aliases: shown, hidden: all.length - shown.length });
        return EXIT.ok;
      }
      if (!shown.length) out('no aliases\n');
      for (const a of shown) {
        const idx = a.indices.map((i) =>
          i === a.writeIndex ? paint('bold', `${displayText(i)} (write${a.explicit ? '' : ': its only index'})`) : displayText(i),
        );
        out(
          `${displayText(a.alias)} -> ${idx.join(', ')}${a.writeIndex ? '' : `  ${paint('red', 'no write index: writes to it fail')}`}\n`,
        );
      }
      if (all.length > shown.length)
        out(paint('dim', `${all.length - shown.length} aliases of system indices left out (--all shows them)\n`));
      return EXIT.ok;
    });
  },
};

export default aliases;
