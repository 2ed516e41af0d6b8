// shardeck dangling [--json] | dangling import|delete UUID [--accept-data-loss UUID] [--yes]
// [--dry-run]: the dangling indices (uuid, name, created, nodes); importing or deleting one through
// the guard with accept_data_loss, confirmed by its uuid typed (even with --yes).
import { danglingPlan } from '../domain/maintenance/dangling';
import { displayText } from '../domain/text/display-text';
import { oneChange } from '../services/one-change';
import { EXIT, type CommandModule } from './support/common';
import { applyOnePlan, JSON_SCHEMA, MUTATION_OPTIONS, openGuard, printJson, reportFailure, usageError } from './support/guarded';
import { out } from './support/output';
import { paint } from './support/paint';

const NAME = 'dangling';

const dangling: CommandModule = {
  summary: 'Dangling indices (on a node, unknown to the cluster): list them; import or delete one by uuid, typed.',
  usage: 'usage: shardeck dangling [import|delete UUID --accept-data-loss UUID] [--yes] [--dry-run] [--json] [connection flags]',
  options: { ...MUTATION_OPTIONS, 'accept-data-loss': { type: 'string' } },
  group: 'recover',
  flagHelp: {
    'accept-data-loss': 'import or delete: the uuid typed again, to confirm (required with --yes; --yes alone never confirms)',
    yes: 'confirm without asking (with --accept-data-loss UUID)',
    'dry-run': 'show the preview and send nothing',
  },
  examples: [
    'shardeck dangling',
    'shardeck dangling import zmM4e0JtBkeUjiHD-MihPQ --dry-run',
    'shardeck dangling delete zmM4e0JtBkeUjiHD-MihPQ --accept-data-loss zmM4e0JtBkeUjiHD-MihPQ --yes',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [verb, uuid, ...extra] = positionals;
    if (extra.length || (verb !== undefined && ((verb !== 'import' && verb !== 'delete') || uuid === undefined)))
      return usageError(NAME, 'give nothing to list them, or import|delete UUID: shardeck dangling import UUID', json);
    const typed = typeof values['accept-data-loss'] === 'string' ? values['accept-data-loss'] : undefined;
    if (verb === undefined && typed !== undefined) return usageError(NAME, '--accept-data-loss belongs to import or delete', json);
    if (verb !== undefined && values.yes && !values['dry-run'] && typed === undefined)
      return usageError(NAME, `${verb} with --yes needs the uuid typed again: --accept-data-loss ${uuid}`, json);
    const { es, guard, close } = await openGuard(values);
    try {
      if (verb !== undefined) guard.assertWritable();
      const all = await es.danglingIndices();
      if (verb === undefined) {
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, dangling: all });
        else if (!all.length) out(`${paint('green', 'no dangling index')}: every index a node holds is known to the cluster\n`);
        else
          for (const d of all)
            out(
              `${paint('yellow', displayText(d.uuid))}  ${displayText(d.name)}  created ${d.created ?? '?'}  on ${d.nodes.map(displayText).join(', ')}\n`,
            );
        return EXIT.ok;
      }
      const d = all.find((x) => x.uuid === uuid);
      if (!d) return usageError(NAME, `no dangling index has the uuid ${uuid} (shardeck dangling lists them): nothing was sent`, json);
      if (verb === 'import' && (await es.resolveIndices(d.name)) !== null)
        return usageError(
          NAME,
          `an index named ${d.name} exists: Elasticsearch cannot import the dangling one beside it (nothing was sent)`,
          json,
        );
      const plan = danglingPlan(verb, d);
      const head = { schema: JSON_SCHEMA, command: NAME, action: verb, index: d };
      return await applyOnePlan(NAME, oneChange(guard, [plan], { typedAhead: typed }), plan, guard, values, head);
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default dangling;
