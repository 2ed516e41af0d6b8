// shardeck cluster-settings [--changed] [--json]: the cluster settings that differ from their
// defaults, with their origin and default; `set KEY VALUE`, `reset KEY` and `restore KEY` change
// one through the guard, the value before kept first (config/settings-record.ts).
import {
  resetPlan,
  restorePlan,
  setPlan,
  settingRows,
  TRANSIENT_DEPRECATED,
  valueText,
  type PlanCheck,
  type SettingRow,
} from '../domain/maintenance/cluster-settings';
import { displayText } from '../domain/text/display-text';
import { changeSetting, restoreSetting, settingsRecordOf } from '../services/cluster-settings';
import { EXIT, type CommandModule } from './support/common';
import { applyOnePlan, JSON_SCHEMA, MUTATION_OPTIONS, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { out } from './support/output';

const NAME = 'cluster-settings';
const VERBS = ['set', 'reset', 'restore'];

function originText(r: SettingRow): string {
  if (r.origin === 'default') return 'default';
  if (r.origin === 'file') return `node file (${r.nodes?.join(', ')})`;
  return r.origin;
}

function rowLines(r: SettingRow): string {
  const origin = r.origin === 'transient' ? paint('yellow', 'transient, deprecated') : originText(r);
  const def =
    r.origin === 'default'
      ? ''
      : `; default ${r.default !== null ? displayText(valueText(r.default)) : r.origin === 'file' ? 'not known (the file sets it)' : 'not shown by the node while set'}`;
  const lines = [`${displayText(r.key)} = ${paint('bold', displayText(valueText(r.value)))}  (${origin}${def})`];
  if (r.shadowed) lines.push(`    also ${r.shadowed.origin} ${displayText(valueText(r.shadowed.value))}, hidden by the ${r.origin} value`);
  if (r.perNode)
    lines.push(
      `    the nodes' files differ: ${Object.entries(r.perNode)
        .map(([n, v]) => `${displayText(n)} ${displayText(valueText(v))}`)
        .join(', ')}`,
    );
  if (r.meaning) lines.push(`    ${paint('dim', r.meaning)}`);
  return lines.join('\n') + '\n';
}

const clusterSettings: CommandModule = {
  summary: 'Cluster settings that differ from their defaults (origin, default, meaning); set, reset or restore one.',
  usage:
    'usage: shardeck cluster-settings [--changed] [--json] | cluster-settings set KEY VALUE | reset KEY | restore KEY [--yes] [--dry-run] [--json] [connection flags]',
  options: { ...MUTATION_OPTIONS, changed: { type: 'boolean' } },
  group: 'change',
  flagHelp: {
    changed:
      'only the settings that differ from their defaults (default: also the watermarks, allocation, recovery and limits at their defaults)',
    yes: 'confirm without asking',
    'dry-run': 'show the preview and send nothing',
  },
  examples: [
    'shardeck cluster-settings --changed',
    'shardeck cluster-settings set cluster.routing.allocation.disk.watermark.low 80% --dry-run',
    'shardeck cluster-settings restore cluster.routing.allocation.disk.watermark.low',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [verb, key, value, ...extra] = positionals;
    if (verb !== undefined && !VERBS.includes(verb))
      return usageError(NAME, `"${verb}" is not a cluster-settings action: use set KEY VALUE, reset KEY or restore KEY`, json);
    if (verb === 'set' && (key === undefined || value === undefined || extra.length))
      return usageError(NAME, 'give the key and its new value: shardeck cluster-settings set search.max_open_scroll_context 1000', json);
    if ((verb === 'reset' || verb === 'restore') && (key === undefined || value !== undefined))
      return usageError(NAME, `give exactly one key: shardeck cluster-settings ${verb} search.max_open_scroll_context`, json);
    const { es, guard, close } = await openGuard(values);
    try {
      if (verb !== undefined) guard.assertWritable();
      const facts = await es.clusterSettingsFacts();
      if (verb === undefined) {
        const rows = settingRows(facts, Boolean(values.changed));
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, changedOnly: Boolean(values.changed), settings: rows });
        else {
          if (!rows.length) out('every cluster setting is at its default\n');
          for (const r of rows) out(rowLines(r));
          if (rows.some((r) => r.origin === 'transient')) out(`${paint('yellow', 'note:')} ${TRANSIENT_DEPRECATED}\n`);
        }
        return EXIT.ok;
      }
      const record = verb === 'restore' ? await settingsRecordOf(es) : null;
      const checked: PlanCheck =
        verb === 'set' ? setPlan(key, value, facts) : verb === 'reset' ? resetPlan(key, facts) : restorePlan(key, record, facts);
      if (!checked.ok) return usageError(NAME, checked.error, json);
      const session =
        verb === 'restore' ? restoreSetting(guard, record!, key, checked.plan) : changeSetting(es, guard, key, facts, checked.plan);
      return await applyOnePlan(NAME, session, checked.plan, guard, values, { schema: JSON_SCHEMA, command: NAME, action: verb, key });
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default clusterSettings;
