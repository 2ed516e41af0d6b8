// shardeck service start|stop|restart|status: the engine of this host through its service manager
// (systemctl, or the profile's commands). Stop and restart are confirmed by the node's name.
import { SERVICE_VERBS, type ServiceVerb } from '../domain/host/engine';
import { type CommandModule } from './support/common';
import { ENGINE_FLAG_HELP, ENGINE_OPTIONS, runEngineAction } from './support/engine-run';
import { MUTATION_OPTIONS, usageError } from './support/guarded';

const NAME = 'service';

const service: CommandModule = {
  summary: 'The engine of this host: start, stop, restart (verified on the node) or its status.',
  group: 'recover',
  usage: [
    'usage: shardeck service start|stop|restart|status [--yes] [--node-name NAME] [--dry-run] [--json] [connection flags]',
    'flags: --stop-cmd CMD  --start-cmd CMD  --restart-cmd CMD  --status-cmd CMD  --wait-timeout SECONDS',
    'a service command still running after the wait timeout is stopped (its process group), not run again: exit 5.',
    'stop and restart take the node out of service: type its name to confirm (--yes needs --node-name NAME too).',
    'refused while a recovery checklist holds the node, and in read-only mode; every command is audited.',
    'exit 0: done and verified (status: running and answering); 3: status of a node that does not answer;',
    '4: read-only mode; 5: refused, declined or not verified; 64: bad input.',
  ].join('\n'),
  options: { ...MUTATION_OPTIONS, ...ENGINE_OPTIONS, 'node-name': { type: 'string' } },
  flagHelp: {
    ...ENGINE_FLAG_HELP,
    'node-name': "the node's name, typed ahead: confirms stop and restart (with or without --yes)",
    yes: 'confirms start; stop and restart also need --node-name',
    'dry-run': 'print the commands, run nothing',
  },
  examples: [
    'shardeck service status',
    'shardeck service restart --yes --node-name storage-1',
    "shardeck service stop --stop-cmd 'sudo systemctl stop elasticsearch' --node-name storage-1",
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const verb = positionals[0] as ServiceVerb | undefined;
    if (!verb || !SERVICE_VERBS.includes(verb) || positionals.length > 1)
      return usageError(NAME, `give one of ${SERVICE_VERBS.join(', ')}, e.g. shardeck service status`, json);
    if (values['wait-timeout'] !== undefined && !/^\d+$/.test(String(values['wait-timeout'])))
      return usageError(NAME, '--wait-timeout is a whole number of seconds', json);
    return runEngineAction(NAME, { kind: 'service', verb }, values);
  },
};

export default service;
