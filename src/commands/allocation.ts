// shardeck allocation [--json] | allocation enable VALUE | allocation restore: what limits shard
// allocation now (whoever set it) and what shardeck changed and did not put back; `enable` sets
// cluster.routing.allocation.enable through the guard (recorded first), `restore` puts back what
// this operator's record says was there before (another operator's only with --of USER, after
// its preview: a record in the shared folder is its owner's claim, never obeyed silently).
import {
  allocationEnablePlan,
  allocationLimits,
  effectiveAllocation,
  ENABLE_VALUES,
  isEnableValue,
  type AllocationLimit,
} from '../domain/maintenance/allocation-limits';
import { clearFilterPlan, isFilterKey, type AllocationFilter } from '../domain/maintenance/allocation-filters';
import { displayText } from '../domain/text/display-text';
import type { MutationPlan } from '../domain/mutation/plan';
import { allocationLeft, dropChosenRecord, type LeftAllocation } from '../services/allocation-record';
import { performMutations } from '../services/wizards/session';
import { EXIT, type CommandModule } from './support/common';
import {
  confirmOnTerminal,
  JSON_SCHEMA,
  MUTATION_OPTIONS,
  openGuard,
  previews,
  printJson,
  printPreviews,
  reportFailure,
  usageError,
  warnAudit,
} from './support/guarded';
import { out } from './support/output';
import { paint } from './support/paint';
import type { Guard } from '../services/guard';
import type { CommandContext } from './support/common';

const NAME = 'allocation';

function leftJson(left: LeftAllocation | null) {
  return left
    ? {
        at: left.record.at,
        by: left.record.user,
        recordOwner: left.owner,
        pid: left.record.pid,
        what: left.record.what,
        settings: left.diffs,
        message: left.message,
      }
    : null;
}

function showState(limits: AllocationLimit[], left: LeftAllocation | null, foreign: string[]): void {
  if (limits.length === 0) out(`${paint('green', 'allocation is not limited')}: every shard may go to every node\n`);
  for (const l of limits) out(`${paint('yellow', 'limited')}: ${displayText(l.text)}\n`);
  if (left) out(`${paint('yellow', 'left by shardeck')}: ${left.message}\n  put it back: shardeck allocation restore\n`);
  for (const line of foreign) out(`${paint('yellow', 'left by another operator')}: ${line}\n`);
}

/** Preview, --dry-run, confirmation, the guard; the verified outcome. */
async function sendPlan(guard: Guard, plan: MutationPlan, values: CommandContext['values'], head: object): Promise<number> {
  const json = Boolean(values.json);
  const requests = previews(guard, [plan]);
  if (!json) printPreviews(requests);
  if (values['dry-run']) {
    if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, requests });
    else out('dry run: nothing was sent\n');
    return EXIT.ok;
  }
  const confirmation = await confirmOnTerminal(NAME, [plan], values);
  if (!confirmation) return EXIT.failed;
  const [result] = await performMutations(guard, { type: 'mutate', plans: [plan], confirmation });
  const ok = result.ok && result.verified?.ok !== false;
  warnAudit(result.auditWarning);
  if (json) printJson({ ...head, ok, ...(ok ? {} : { error: result.message }), dryRun: false, sent: true, requests, result });
  else out(`${ok ? 'ok' : 'FAILED'}: ${result.verified && ok ? result.verified.message : result.message}\n`);
  return ok ? EXIT.ok : EXIT.failed;
}

function filterLine(f: AllocationFilter): string {
  const where = f.level === 'cluster' ? `cluster (${f.origin})` : `index ${displayText(f.index ?? '')}`;
  const off = f.keepsOff.length
    ? paint('yellow', `keeps shards off ${f.keepsOff.map(displayText).join(', ')}`)
    : paint('dim', 'keeps shards off no node now');
  return `${where}: ${displayText(f.key)} = ${displayText(f.value)}  ${off}\n`;
}

/** allocation filters [clear KEY [--index INDEX]]: every filter and the nodes it keeps shards off; clear one through the guard. */
async function runFilters(args: string[], values: CommandContext['values'], json: boolean): Promise<number> {
  const [clear, key, ...rest] = args;
  const index = typeof values.index === 'string' ? values.index : undefined;
  if (rest.length || (clear !== undefined && (clear !== 'clear' || key === undefined)) || (clear === undefined && index !== undefined))
    return usageError(
      NAME,
      'give nothing, or clear KEY [--index INDEX]: shardeck allocation filters clear cluster.routing.allocation.exclude._name',
      json,
    );
  if (key !== undefined && !isFilterKey(key))
    return usageError(
      NAME,
      `"${key}" is not an allocation filter (cluster|index.routing.allocation.include|exclude|require.ATTRIBUTE)`,
      json,
    );
  const { es, guard, close } = await openGuard(values, { allocationCheck: false });
  try {
    if (key !== undefined) guard.assertWritable();
    const filters = await es.allocationFilters();
    const head = { schema: JSON_SCHEMA, command: NAME, filters };
    if (key === undefined) {
      if (json) printJson({ ...head, ok: true });
      else if (!filters.length) out(`${paint('green', 'no allocation filter')}: no include, exclude or require keeps shards off a node\n`);
      else for (const f of filters) out(filterLine(f));
      return EXIT.ok;
    }
    const found = filters.filter((f) => f.key === key && (index === undefined ? f.level === 'cluster' : f.index === index));
    if (!found.length)
      return usageError(
        NAME,
        `${key} is not set${index === undefined ? ' on the cluster' : ` on ${index}`} (shardeck allocation filters lists those set): nothing to clear`,
        json,
      );
    if (!json) for (const f of found) out(filterLine(f));
    return await sendPlan(guard, clearFilterPlan(found), values, head);
  } catch (e) {
    return reportFailure(NAME, e, json);
  } finally {
    await close();
  }
}

const allocation: CommandModule = {
  summary:
    'What limits shard allocation now and what shardeck left changed; enable VALUE sets it, restore puts back what shardeck changed.',
  usage: `usage: shardeck allocation [enable ${ENABLE_VALUES.join('|')} | restore [--of USER] | filters [clear KEY [--index INDEX]]] [--yes] [--dry-run] [--json] [connection flags]`,
  options: { ...MUTATION_OPTIONS, of: { type: 'string' }, index: { type: 'string' } },
  group: 'change',
  flagHelp: {
    yes: 'confirm without asking',
    'dry-run': 'show the preview and send nothing',
    of: "restore: put back another operator's record of this host (by user name or uid), after its preview",
    index: 'filters clear: the index whose filter is cleared (default: the cluster-level filter)',
  },
  examples: ['shardeck allocation filters', 'shardeck allocation enable primaries --yes', 'shardeck allocation restore --yes'],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals[0] === 'filters') return runFilters(positionals.slice(1), values, json);
    if (values.index !== undefined)
      return usageError(NAME, '--index belongs to filters clear: shardeck allocation filters clear KEY --index INDEX', json);
    const [verb, value, ...rest] = positionals;
    if (rest.length || (verb !== undefined && verb !== 'enable' && verb !== 'restore'))
      return usageError(NAME, `give nothing, enable ${ENABLE_VALUES.join('|')}, restore, or filters`, json);
    if (verb === 'enable' && (value === undefined || !isEnableValue(value)))
      return usageError(NAME, `give what to allow: shardeck allocation enable ${ENABLE_VALUES.join('|')}`, json);
    if (verb === 'restore' && value !== undefined) return usageError(NAME, 'restore takes no value', json);
    const of = typeof values.of === 'string' ? values.of : undefined;
    if (of !== undefined && verb !== 'restore')
      return usageError(NAME, '--of belongs to restore: shardeck allocation restore --of USER', json);
    const { es, guard, close } = await openGuard(values, { allocationCheck: false });
    try {
      if (verb) guard.assertWritable();
      const [settings, all] = await Promise.all([es.allocationSettings(), allocationLeft(es)]);
      const limits = allocationLimits(effectiveAllocation(settings));
      const left = all.own;
      const foreign = [...all.others.map((l) => l.message), ...all.unread];
      const head = {
        schema: JSON_SCHEMA,
        command: NAME,
        limits,
        left: leftJson(left),
        others: all.others.map(leftJson),
        unread: all.unread,
      };
      if (!json) showState(limits, left, foreign);
      if (verb === undefined) {
        if (json) printJson({ ...head, ok: true });
        return EXIT.ok;
      }
      if (verb === 'enable')
        return await sendPlan(
          guard,
          allocationEnablePlan(value as (typeof ENABLE_VALUES)[number], 'by shardeck allocation enable'),
          values,
          head,
        );
      if (of !== undefined) {
        const chosen = all.others.find((l) => l.owner.split(' (')[0] === of || String(l.ownerUid) === of);
        if (!chosen) return usageError(NAME, `no record of ${displayText(of)} on this cluster differs from now: nothing to put back`, json);
        const code = await sendPlan(guard, chosen.plan, values, head);
        if (code === EXIT.ok && !values['dry-run']) dropChosenRecord(await es.clusterUuid(), chosen);
        return code;
      }
      if (!left) {
        if (json) printJson({ ...head, ok: true, sent: false });
        else
          out(
            `nothing of yours to put back: you left no allocation setting changed on this cluster${all.others.length ? " (another operator's record is shown above: shardeck allocation restore --of USER puts it back after its preview)" : ''}\n`,
          );
        return EXIT.ok;
      }
      return await sendPlan(guard, left.plan, values, head);
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default allocation;
