// shardeck cat [NAME [TARGET]] [--columns h1,h2] [--json]: any _cat command of the node as a table;
// without NAME, the _cat commands the node offers. The name and the columns are checked against
// what the node says it has (an unknown column would otherwise come back as empty rows).
import { catTable, splitColumns, unknownColumns } from '../domain/inspect/inspect';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, printJson, usageError } from './support/guarded';
import { notFound, withReads } from './support/inspect-common';
import { out } from './support/output';

const NAME = 'cat';

const cat: CommandModule = {
  summary: 'Any _cat command of the node as a table (without NAME: the _cat commands the node offers).',
  usage: 'usage: shardeck cat [NAME [TARGET]] [--columns h1,h2] [--json] [connection flags]',
  group: 'inspect',
  options: { columns: { type: 'string' } },
  flagHelp: { columns: "only these columns, comma-separated, by name or alias (default: the command's default columns)" },
  examples: ['shardeck cat', "shardeck cat shards 'service_v9_*' --columns index,shard,prirep,state,node", 'shardeck cat indices --json'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [name, target, ...extra] = positionals;
    if (extra.length) return usageError(NAME, 'give a _cat command and at most one target, e.g. shardeck cat shards service_v9_abc', json);
    const columnsRaw = values.columns as string | undefined;
    const columns = columnsRaw === undefined ? undefined : splitColumns(columnsRaw);
    if (columns && (columns.some((c) => c === '') || name === undefined))
      return usageError(
        NAME,
        name === undefined
          ? '--columns needs a command, e.g. shardeck cat indices --columns index,health'
          : `--columns "${columnsRaw}" has an empty name: give names separated by commas, e.g. index,health`,
        json,
      );
    return withReads(NAME, values, json, async (es) => {
      const commands = await es.catCommands();
      if (name === undefined) {
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, commands });
        else out(commands.map((c) => `${c.name}${c.takesTarget ? ' [TARGET]' : ''}`).join('\n') + '\n');
        return EXIT.ok;
      }
      const command = commands.find((c) => c.name === name.replace(/^\/?(_cat\/)?/, ''));
      if (!command)
        return usageError(NAME, `the node has no _cat command "${name}": it offers ${commands.map((c) => c.name).join(', ')}`, json);
      if (target !== undefined && !command.takesTarget)
        return usageError(NAME, `_cat/${command.name} takes no target: run shardeck cat ${command.name}`, json);
      if (columns) {
        const known = await es.catColumns(command.name);
        const unknown = unknownColumns(columns, known);
        if (unknown.length)
          return usageError(
            NAME,
            `_cat/${command.name} has no column ${unknown.map((u) => `"${u}"`).join(', ')}: it has ${known.map((k) => k.name).join(', ')}`,
            json,
          );
      }
      const rows = await es.cat(command.name, target, columns);
      if (rows === null)
        return notFound(NAME, `no index matches "${target}": see the names with shardeck cat indices`, json, {
          name: command.name,
          target,
        });
      if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, name: command.name, ...(target ? { target } : {}), rows });
      else out(rows.length ? catTable(rows, columns).join('\n') + '\n' : `_cat/${command.name}: no rows\n`);
      return EXIT.ok;
    });
  },
};

export default cat;
