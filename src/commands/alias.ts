// shardeck alias add ALIAS INDEX [--write] | alias remove ALIAS INDEX | alias swap ALIAS --from A
// --to B [--yes] [--dry-run] [--json]: one atomic POST /_aliases through the guard (remove with
// must_exist), refused when it would leave the alias without a write index.
import type { AliasChange } from '../domain/maintenance/aliases';
import { checkOneName, prepareAliasChange } from '../services/aliases';
import { oneChange } from '../services/one-change';
import type { CommandModule } from './support/common';
import { applyOnePlan, JSON_SCHEMA, MUTATION_OPTIONS, openGuard, reportFailure, usageError } from './support/guarded';

const NAME = 'alias';

/** The change the arguments ask for, or the usage error (checked before connecting). */
function changeOf(positionals: string[], values: { from?: unknown; to?: unknown; write?: unknown }): AliasChange | string {
  const [verb, alias, index, ...extra] = positionals;
  const from = typeof values.from === 'string' ? values.from : undefined;
  const to = typeof values.to === 'string' ? values.to : undefined;
  if (verb === 'swap') {
    if (alias === undefined || index !== undefined || from === undefined || to === undefined)
      return 'give the alias, the index it leaves and the one it goes to: shardeck alias swap ALIAS --from OLD --to NEW';
    if (from === to) return '--from and --to name the same index: nothing to swap';
    return { kind: 'swap', alias, from, to };
  }
  if (from !== undefined || to !== undefined) return '--from and --to are for swap only';
  if ((verb === 'add' || verb === 'remove') && alias !== undefined && index !== undefined && !extra.length) {
    if (verb === 'remove' && values.write) return '--write is for add only';
    return verb === 'add' ? { kind: 'add', alias, index, write: Boolean(values.write) } : { kind: 'remove', alias, index };
  }
  return 'use alias add ALIAS INDEX [--write], alias remove ALIAS INDEX, or alias swap ALIAS --from OLD --to NEW';
}

const alias: CommandModule = {
  summary:
    'Add an index to an alias, remove one, or swap one for another in one atomic request; never leaves an alias without a write index.',
  usage:
    'usage: shardeck alias add ALIAS INDEX [--write] | alias remove ALIAS INDEX | alias swap ALIAS --from OLD --to NEW [--yes] [--dry-run] [--json] [connection flags]',
  options: { ...MUTATION_OPTIONS, write: { type: 'boolean' }, from: { type: 'string' }, to: { type: 'string' } },
  group: 'change',
  flagHelp: {
    write: 'add: make the index the write index (the old one stops taking writes in the same request) (default: writes stay where they go)',
    from: 'swap: the index the alias leaves',
    to: 'swap: the index the alias goes to (it takes the writes when the one left did)',
    yes: 'confirm without asking',
    'dry-run': 'show the preview and send nothing',
  },
  examples: [
    'shardeck alias swap service_v9_abc_write --from service_v9_abc_old --to service_v9_abc --dry-run',
    'shardeck alias add logs logs-2026-11 --write',
    'shardeck alias remove logs logs-2025-01 --yes',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const change = changeOf(positionals, values);
    if (typeof change === 'string') return usageError(NAME, change, json);
    const names: [string, string][] = [
      ['alias', change.alias],
      ...(change.kind === 'swap'
        ? ([
            ['index', change.from],
            ['index', change.to],
          ] as [string, string][])
        : ([['index', change.index]] as [string, string][])),
    ];
    for (const [what, n] of names) {
      const bad = checkOneName(what, n);
      if (bad) return usageError(NAME, bad, json);
    }
    const { es, guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const checked = await prepareAliasChange(es, guard, change);
      if (!checked.ok) return usageError(NAME, checked.error, json);
      const head = { schema: JSON_SCHEMA, command: NAME, action: change.kind, alias: change.alias, actions: checked.actions };
      return await applyOnePlan(NAME, oneChange(guard, [checked.plan]), checked.plan, guard, values, head);
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default alias;
