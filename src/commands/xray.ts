// shardeck xray INDEX [--json]: everything about one index in one tree (domain/inspect/xray.ts): its
// project, the templates that set its settings and mappings, aliases, shards with their nodes and
// disks, the snapshots holding it, the tasks on it and shardeck's changes to it (the audit log).
import { checkIndexExpression } from '../domain/mutation/targets';
import { xrayLines } from '../domain/inspect/xray';
import { xrayOf } from '../services/xray';
import { EXIT, type CommandModule } from './support/common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { out } from './support/output';
import { paint } from './support/paint';

const NAME = 'xray';

const xray: CommandModule = {
  summary: 'Everything about one index: project, templates, aliases, shards and disks, snapshots, tasks, shardeck changes.',
  usage: 'usage: shardeck xray INDEX [--json] [connection flags]',
  group: 'inspect',
  flagHelp: {},
  examples: ['shardeck xray service_v9_abc', 'shardeck xray service_v9_abc --json | jq .tree'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const index = positionals[0];
    if (!index || positionals.length > 1) return usageError(NAME, 'give one index by its name: shardeck xray service_v9_abc', json);
    // One index by its exact name: a pattern would x-ray several at once.
    if (/[*,]/.test(index) || index.startsWith('-')) return usageError(NAME, `"${index}" is a pattern: give one index by its name`, json);
    const syntax = checkIndexExpression(index, { includeSystem: true });
    if (syntax) return usageError(NAME, syntax, json);
    const { es, profile, close } = await openGuard(values, { settle: false });
    try {
      const found = await xrayOf(es, index, profile?.templateVersion);
      if (!found) return usageError(NAME, `no index named "${index}" (shardeck cat indices lists them)`, json);
      const { tree, facts } = found;
      if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, index, tree, facts });
      // Each line in its state's colour; what says "nothing here" dimmed.
      else
        out(
          xrayLines(tree)
            .map((l) => paint(l.tone === 'gray' ? 'dim' : (l.tone ?? ''), l.text))
            .join('\n') + '\n',
        );
      return EXIT.ok;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default xray;
