// shardeck recovery [--json]: the shard recoveries in progress (bytes and files done, rate, ETA,
// source and target, type and stage) and the recovery throttle; `recovery throttle
// --max-bytes-per-sec V [--concurrent N]` changes it through the guard (the value before recorded
// first), `recovery throttle --restore` puts back what was there before shardeck changed it.
import { displayText } from '../domain/text/display-text';
import {
  activeRecoveries,
  CONCURRENT,
  isByteRate,
  isCount,
  MAX_BYTES,
  recoveryLine,
  recoveryProgress,
  throttleLines,
  throttlePlan,
  type ThrottleChange,
} from '../domain/nodes/shard-recovery';
import { changeThrottle, restoreThrottle, throttleRestore, transientShadow } from '../services/recovery-throttle';
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

const NAME = 'recovery';

const recovery: CommandModule = {
  summary: 'Shard recoveries in progress (%, rate, ETA, source and target) and the recovery throttle; throttle changes or restores it.',
  usage: [
    'usage: shardeck recovery [--json] [connection flags]',
    '       shardeck recovery throttle [--max-bytes-per-sec RATE] [--concurrent N] [--yes] [--dry-run] [--json]',
    '       shardeck recovery throttle --restore [--yes] [--dry-run] [--json]',
    `The throttle is ${MAX_BYTES} and ${CONCURRENT} (persistent); the values before shardeck's first change are kept, --restore puts them back.`,
  ].join('\n'),
  options: { ...MUTATION_OPTIONS, 'max-bytes-per-sec': { type: 'string' }, concurrent: { type: 'string' }, restore: { type: 'boolean' } },
  group: 'change',
  flagHelp: {
    yes: 'confirm without asking',
    'dry-run': 'show the preview and send nothing',
    'max-bytes-per-sec': `${MAX_BYTES}: e.g. 40mb, 100mb, 1gb`,
    concurrent: `${CONCURRENT}: recoveries at once per node`,
    restore: 'put the throttle back to what it was before shardeck changed it',
  },
  examples: [
    'shardeck recovery',
    'shardeck recovery throttle --max-bytes-per-sec 100mb --yes',
    'shardeck recovery throttle --restore --yes',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [verb, ...rest] = positionals;
    if (rest.length || (verb !== undefined && verb !== 'throttle')) return usageError(NAME, 'give nothing, or throttle', json);
    const rate = values['max-bytes-per-sec'] === undefined ? undefined : String(values['max-bytes-per-sec']);
    const count = values.concurrent === undefined ? undefined : String(values.concurrent);
    const restore = Boolean(values.restore);
    if (verb === undefined && (rate !== undefined || count !== undefined || restore))
      return usageError(NAME, 'the throttle flags go with: shardeck recovery throttle', json);
    if (rate !== undefined && !isByteRate(rate))
      return usageError(NAME, `--max-bytes-per-sec takes a rate like 40mb or 1gb, not ${rate}`, json);
    if (count !== undefined && !isCount(count)) return usageError(NAME, `--concurrent takes a whole number from 1, not ${count}`, json);
    if (verb === 'throttle' && restore && (rate !== undefined || count !== undefined))
      return usageError(NAME, '--restore takes no new value', json);
    const { es, guard, close } = await openGuard(values);
    try {
      if (verb && !values['dry-run']) guard.assertWritable();
      const [all, throttle] = await Promise.all([es.recoveries(true), es.recoveryThrottle()]);
      const active = activeRecoveries(all);
      const head = { schema: JSON_SCHEMA, command: NAME, throttle };
      if (verb === undefined) {
        if (json)
          printJson({
            ...head,
            ok: true,
            recoveries: active.map((r) => ({ ...r, ...recoveryProgress(r) })),
          });
        else {
          out(
            active.length
              ? `${paint('bold', `${active.length} recover${active.length === 1 ? 'y' : 'ies'} in progress`)}\n`
              : 'no shard recovery in progress\n',
          );
          for (const r of active) out(`  ${displayText(recoveryLine(r))}\n`);
          out(
            `throttle:\n${throttleLines(throttle)
              .map((l) => `  ${displayText(l)}`)
              .join('\n')}\n`,
          );
        }
        return EXIT.ok;
      }
      if (!json)
        out(
          `throttle now:\n${throttleLines(throttle)
            .map((l) => `  ${displayText(l)}`)
            .join('\n')}\n`,
        );
      let plan;
      let back: Awaited<ReturnType<typeof throttleRestore>> = null;
      if (restore) {
        back = await throttleRestore(es);
        if (!back) {
          if (json) printJson({ ...head, ok: true, sent: false });
          else out('nothing to put back: shardeck has not changed the recovery throttle of this cluster\n');
          return EXIT.ok;
        }
        plan = back.plan;
      } else {
        const change: ThrottleChange = {
          ...(rate === undefined ? {} : { [MAX_BYTES]: rate }),
          ...(count === undefined ? {} : { [CONCURRENT]: count }),
        };
        if (Object.keys(change).length === 0) return usageError(NAME, 'give --max-bytes-per-sec RATE, --concurrent N or --restore', json);
        const shadow = transientShadow(throttle, change);
        if (shadow) return usageError(NAME, `${shadow}; nothing was changed`, json);
        plan = throttlePlan(change, 'set the recovery throttle');
      }
      const requests = previews(guard, [plan]);
      if (!json) printPreviews(requests);
      if (values['dry-run']) {
        if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, requests });
        else out('dry run: nothing was sent\n');
        return EXIT.ok;
      }
      const confirmation = await confirmOnTerminal(NAME, [plan], values);
      if (!confirmation) return EXIT.failed;
      const result = back
        ? await restoreThrottle(guard, back, confirmation)
        : await changeThrottle(es, guard, (plan.body as { persistent: ThrottleChange }).persistent, confirmation);
      warnAudit(result.auditWarning);
      const ok = result.ok && result.verified?.ok !== false;
      if (json) printJson({ ...head, ok, ...(ok ? {} : { error: result.message }), sent: true, requests, result });
      else
        out(
          `${ok ? 'ok' : 'FAILED'}: ${displayText(ok && result.verified ? result.verified.message : result.message)}${ok && !restore ? '\nput it back later: shardeck recovery throttle --restore' : ''}\n`,
        );
      return ok ? EXIT.ok : EXIT.failed;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default recovery;
