// shardeck plugin list|install NAME-OR-ZIP|remove NAME: the engine's own bin/elasticsearch-plugin,
// run as the engine's user; a change is read by the engine only at start (a restart is offered).
import { checkPluginName, parsePluginSource } from '../domain/host/engine';
import { type CommandModule } from './support/common';
import { ENGINE_FLAG_HELP, ENGINE_OPTIONS, runEngineAction } from './support/engine-run';
import { MUTATION_OPTIONS, usageError } from './support/guarded';

const NAME = 'plugin';

const plugin: CommandModule = {
  summary: "The engine's plugins: list, install (a name, a zip or an https URL), remove.",
  group: 'change',
  usage: [
    'usage: shardeck plugin list [--json] [connection flags]',
    '       shardeck plugin install NAME-OR-ZIP [--yes] [--dry-run] [--json]',
    '       shardeck plugin remove NAME [--yes] [--dry-run] [--json]',
    'flags: --es-home DIR  --es-user NAME  --conf-dir DIR  --java-home DIR',
    "runs <home>/bin/elasticsearch-plugin as the engine's user; install and remove are audited and refused in read-only mode;",
    'the engine reads plugins only when it starts: afterwards, shardeck service restart.',
    'exit 0: done and verified; 4: read-only mode; 5: refused, declined or failed; 64: bad input.',
  ].join('\n'),
  // The plugin tool's flags only: the service commands' flags belong to shardeck service.
  options: {
    ...MUTATION_OPTIONS,
    'es-home': ENGINE_OPTIONS['es-home'],
    'es-user': ENGINE_OPTIONS['es-user'],
    'conf-dir': ENGINE_OPTIONS['conf-dir'],
    'java-home': ENGINE_OPTIONS['java-home'],
  },
  flagHelp: {
    'es-home': ENGINE_FLAG_HELP['es-home'],
    'es-user': ENGINE_FLAG_HELP['es-user'],
    'conf-dir': ENGINE_FLAG_HELP['conf-dir'],
    'java-home': ENGINE_FLAG_HELP['java-home'],
    yes: 'confirms install or remove',
    'dry-run': 'print the command, run nothing',
  },
  examples: ['shardeck plugin list', 'shardeck plugin install /tmp/my-plugin-8.19.21.zip --yes', 'shardeck plugin remove my-plugin'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [verb, arg, ...extra] = positionals;
    if (verb === 'list' && arg === undefined) return runEngineAction(NAME, { kind: 'plugin', verb: 'list' }, values);
    if ((verb === 'install' || verb === 'remove') && arg !== undefined && extra.length === 0) {
      const bad =
        verb === 'remove'
          ? checkPluginName(arg)
          : (() => {
              const s = parsePluginSource(arg);
              return typeof s === 'string' ? s : null;
            })();
      if (bad) return usageError(NAME, bad, json);
      return runEngineAction(NAME, { kind: 'plugin', verb, arg }, values);
    }
    return usageError(NAME, 'give list, install NAME-OR-ZIP or remove NAME, e.g. shardeck plugin list', json);
  },
};

export default plugin;
