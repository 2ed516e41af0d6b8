// shardeck replicas set <index|pattern> <n> [--template NAME] [--include-system] [--yes] [--dry-run] [--json] [--timeout S]
// The CLI twin of the replicas wizard: drives the same machine (domain/wizards/replicas.ts).
import { isConnectionFailure } from '../cluster/connection';
import { checkIndexExpression, describeMatch } from '../domain/mutation/targets';
import { parseReplicaCount, type ReplicasState } from '../domain/wizards/replicas';
import { replicasSession } from '../services/wizards/replicas';
import { parseTimeoutSeconds } from '../domain/text/values';
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
import { paint } from './support/paint';
import { err, out } from './support/output';
import { displayText } from '../domain/text/display-text';

const NAME = 'replicas';

const replicas: CommandModule = {
  summary: 'Set number_of_replicas on an index or pattern (and its index template), then watch health until it settles.',
  usage:
    'usage: shardeck replicas set <index|pattern> <n> [--template service_v9] [--include-system] [--yes] [--dry-run] [--json] [--timeout SECONDS]',
  options: { ...MUTATION_OPTIONS, template: { type: 'string' }, 'include-system': { type: 'boolean' }, timeout: { type: 'string' } },
  group: 'change',
  flagHelp: {
    yes: 'confirm without asking (for scripts; destructive plans still need their typed value)',
    'dry-run': 'show the preview and send nothing',
    template: 'also set number_of_replicas in this index template, so new indices get it (default: the index alone)',
    'include-system': 'let a pattern match system and hidden indices (.security, ...) (default: excluded)',
    timeout: 'seconds to watch health after the change (default 60, at most 120)',
  },
  examples: [
    'shardeck replicas set service_v9_alpha 0 --dry-run',
    "shardeck replicas set 'service_v9_*' 1 --template service_v9",
    'shardeck replicas set service_v9_alpha 1 --yes --json',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const [verb, target, n, ...extra] = positionals;
    if (verb !== 'set' || target === undefined || n === undefined || extra.length)
      return usageError(NAME, 'give the index (or pattern) and the number of replicas: shardeck replicas set service_v9_* 0', json);
    const includeSystem = Boolean(values['include-system']);
    // Bad input never reaches the cluster: both checks run before connecting.
    const count = parseReplicaCount(n);
    if (!count.ok) return usageError(NAME, count.error, json);
    const syntax = checkIndexExpression(target, { includeSystem });
    if (syntax) return usageError(NAME, syntax, json);
    const timeout = values.timeout === undefined ? { ok: true as const, value: 60 } : parseTimeoutSeconds(String(values.timeout), 120);
    if (!timeout.ok) return usageError(NAME, timeout.error, json);
    const timeoutS = timeout.value;

    const { es, guard, close } = await openGuard(values);
    try {
      guard.assertWritable();
      const template = values.template as string | undefined;
      const session = replicasSession(
        es,
        guard,
        { target, replicas: n, template: template ?? '', withTemplate: template !== undefined },
        { includeSystem, watchTimeoutMs: timeoutS * 1000 },
      );
      session.send({ type: 'submit' });
      let state: ReplicasState = await session.idle();
      if (state.phase === 'input') return usageError(NAME, state.error ?? 'invalid input', json);
      // Nothing was sent yet: a node that cannot be reached is exit 3, like every command.
      if (state.phase === 'failed' && isConnectionFailure(session.failure(state.message)))
        return reportFailure(NAME, session.failure(state.message), json);
      if (state.phase !== 'review') return failed(state, json);
      const review = state.review;
      const requests = previews(guard, review.plans, { includeSystem });
      const head = {
        schema: JSON_SCHEMA,
        command: NAME,
        target,
        replicas: review.replicas,
        matched: review.facts.indices,
        before: { health: review.facts.healthBefore, replicas: review.facts.before },
        expected: review.expected,
        warnings: review.warnings,
        notes: review.notes,
        requests,
        platformSettings: review.platformJson ?? null,
      };
      if (!json) {
        out(`${displayText(target)} matches ${describeMatch(review.facts.indices)}\n`);
        for (const w of review.warnings) out(`${paint('yellow', 'warning:')} ${w}\n`);
        for (const note of review.notes) out(`note: ${note}\n`);
        if (review.platformJson) out(`topic.elasticsearch.index-templates-settings:\n${JSON.stringify(review.platformJson, null, 2)}\n`);
        printPreviews(requests);
      }
      if (values['dry-run']) {
        if (json) printJson({ ...head, dryRun: true, sent: false });
        else out('dry run: nothing was sent\n');
        return EXIT.ok;
      }
      const confirmation = await confirmOnTerminal(NAME, review.plans, values);
      if (!confirmation) return EXIT.failed;
      // "sent" only once the guard let every request out and they were answered (the watching phase), never before it decided.
      const unsubscribe = json
        ? () => undefined
        : session.subscribe(() => {
            if (session.getState().phase !== 'watching') return;
            unsubscribe();
            out(`sent; watching health until ${review.expected} (up to ${timeoutS}s)...\n`);
          });
      session.send({ type: 'confirm', confirmation });
      state = await session.idle();
      unsubscribe();
      const results = state.phase === 'done' ? state.report.results : state.phase === 'failed' ? (state.report?.results ?? []) : [];
      for (const r of results) warnAudit(r.auditWarning);
      if (state.phase !== 'done') return failed(state, json, head);
      const { report } = state;
      const ok = report.after!.reachedExpected && report.results.every((r) => r.verified?.ok !== false);
      if (json) printJson({ ...head, dryRun: false, ok, report });
      else {
        for (const r of report.results) {
          // Without an answer the message says what the read-back found; an answered one shows the read-back alone.
          const detail = r.message.startsWith('done') ? r.verified?.message : r.message;
          out(`${r.ok ? 'ok' : 'FAILED'}: ${displayText(r.summary)}${detail ? ` — ${detail}` : ''}\n`);
        }
        out(
          `health ${paint(report.before.health, report.before.health)} -> ${paint(report.after!.health, report.after!.health)}` +
            (report.after!.reachedExpected ? '' : ` (expected ${report.expected}; not reached within ${timeoutS}s: see shardeck status)`) +
            '\n',
        );
      }
      return ok ? EXIT.ok : EXIT.failed;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

function failed(state: ReplicasState, json: boolean, head: object = { schema: JSON_SCHEMA, command: NAME }): number {
  const message = state.phase === 'failed' ? state.message : `stopped (${state.phase})`;
  if (json) printJson({ ...head, ok: false, error: message, report: state.phase === 'failed' ? state.report : undefined });
  err(`shardeck ${NAME}: ${message}\n`);
  return EXIT.failed;
}

export default replicas;
