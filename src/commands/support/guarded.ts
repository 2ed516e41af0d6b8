// What the mutating subcommands share: a Guard for the connection, the preview printed before
// anything is sent, the confirmation on the terminal (or --yes), --dry-run, and exit codes.
import readline from 'node:readline/promises';
import type { PlanResult } from '../../domain/wizards/machine';
import { confirmationNeeded, type Confirmation } from '../../domain/mutation/confirmation';
import type { MutationPlan } from '../../domain/mutation/plan';
import { previewLines, type Preview } from '../../domain/mutation/preview';
import type { TargetOptions } from '../../domain/mutation/targets';
import { createEsApi, type EsApi } from '../../cluster/api';
import { closeClient, ConnError, isConnectionFailure } from '../../cluster/connection';
import { Guard, GuardRefusal, type Approver } from '../../services/guard';
import { describeHolder } from '../../config/cluster-lock';
import { badgeText, clusterNameQuestion, type ProfileBadge } from '../../domain/console/profile-badge';

const NO_FOLLOWER: Approver = {
  required: true,
  approve: () =>
    Promise.reject(
      new GuardRefusal(
        'unapproved',
        "this profile requires a follower's approval for every change (requireApproval): nothing was sent; make the change from a shared console (shardeck --share) that a second operator follows",
      ),
    ),
};
import type { Profile } from '../../config/profiles';
import { badgeOfFlags, EXIT, openConnection, type CommandContext, type CommandConnection } from './common';
import { paint } from './paint';
import { err, out, forTerminal, outJson } from './output';
import { displayText } from '../../domain/text/display-text';
import { inProcessRun } from './in-process';

/** Flags of every mutating command. */
export const MUTATION_OPTIONS = {
  yes: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
} as const;

export const JSON_SCHEMA = 1;

/** The facade for reads and the Guard for changes, over one client. */
export async function openGuard(
  values: CommandContext['values'],
  opts: { allocationCheck?: boolean; settle?: boolean } = {},
): Promise<{ es: EsApi; guard: Guard; profile: Profile | undefined; conn: CommandConnection['conn']; close: () => Promise<void> }> {
  const s = await openConnection(values, { allocationCheck: opts.allocationCheck });
  const guard = new Guard({
    client: s.client,
    conn: s.conn,
    profile: s.profileName,
    platformUser: s.profile?.platformUser,
    // One change at a time per cluster: say who holds it while this waits.
    onLockWait: (h) => {
      if (h) err(`shardeck: waiting for another change to this cluster to finish: ${describeHolder(h)}\n`);
    },
    // A subcommand has no followers: a profile that requires approval sends changes from a shared console only.
    ...(s.profile?.requireApproval ? { approver: NO_FOLLOWER } : {}),
    ...(s.badge ? { badge: s.badge, askClusterName: (q) => askClusterName(values, q) } : {}),
  });
  // A change an earlier run sent and never heard back from (killed mid-request): said and read back first, never resent.
  // (settle: false: the caller settles them itself, `shardeck audit --read-back`.)
  // (inside the console: its own dialog reads them back, never a read command run from its line)
  if (opts.settle !== false && !inProcessRun())
    for (const line of await guard.settleUnfinished())
      err(`shardeck: an earlier change was sent, but shardeck stopped before its answer; read back now: ${displayText(line)}\n`);
  return { es: createEsApi(s.client, s.conn.url), guard, profile: s.profile, conn: s.conn, close: () => closeClient(s.client) };
}

/**
 * Production, a change that loses data: the cluster's name from --cluster-name, else asked on the
 * terminal (never with --yes or --json: a script gives the flag). Undefined: the guard refuses.
 */
async function askClusterName(values: CommandContext['values'], q: { badge: ProfileBadge; summary: string }): Promise<string | undefined> {
  if (typeof values['cluster-name'] === 'string') return values['cluster-name'];
  if (values.yes || values.json || !process.stdin.isTTY) return undefined;
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (
      await rl.question(forTerminal(paintBadge(q.badge) + clusterNameQuestion(q.badge, q.summary).slice(badgeText(q.badge).length)))
    ).trim();
  } finally {
    rl.close();
  }
}

/** What a confirmation question starts with: the profile's label in its colour and a space, or nothing. */
export function labelFor(values: CommandContext['values']): string {
  const badge = badgeOfFlags(values);
  return badge ? `${paintBadge(badge)} ` : '';
}

/** The label in its colour (plain under NO_COLOR or off a terminal): "[PROD]". */
function paintBadge(b: ProfileBadge): string {
  return b.colour ? paint(b.colour, badgeText(b)) : badgeText(b);
}

/** Refusals and connection failures as one sentence on stderr, with the exit code they mean. */
export function reportFailure(command: string, e: unknown, json: boolean): number {
  const code =
    e instanceof GuardRefusal
      ? e.kind === 'read-only'
        ? EXIT.readOnly
        : e.kind === 'target'
          ? EXIT.usage
          : EXIT.failed
      : e instanceof ConnError
        ? isConnectionFailure(e)
          ? EXIT.unreachable
          : EXIT.failed
        : undefined;
  if (code === undefined) throw e;
  const message = (e as Error).message;
  if (json)
    printJson({ schema: JSON_SCHEMA, command, ok: false, error: message, ...(e instanceof GuardRefusal ? { refused: e.kind } : {}) });
  err(`shardeck ${command}: ${displayText(message)}\n`);
  return code;
}

export function usageError(command: string, message: string, json: boolean): number {
  if (json) printJson({ schema: JSON_SCHEMA, command, ok: false, error: message });
  err(`shardeck ${command}: ${displayText(message)}\n`);
  return EXIT.usage;
}

export function previews(guard: Guard, plans: MutationPlan[], opts: TargetOptions = {}): Preview[] {
  return plans.map((p) => guard.preview(p, opts));
}

export function printPreviews(ps: Preview[]): void {
  for (const p of ps)
    out(
      previewLines(p)
        .map((l, i) =>
          i !== 0 ? `  ${l}` : p.badge ? `${paintBadge(p.badge)}${paint('bold', l.slice(badgeText(p.badge).length))}` : paint('bold', l),
        )
        .join('\n') + '\n',
    );
}

/**
 * A wizard session's first stop, for its command: the review, or the exit code of the session's
 * refusal (bad input: the usage error; anything else said once, on stderr or as the JSON failure).
 * A failure throws (reportFailure words it).
 */
export async function reviewOf<S extends { phase: string }>(
  session: { idle(): Promise<S>; failure(message: string): Error },
  command: string,
  json: boolean,
): Promise<Extract<S, { phase: 'review' }> | number> {
  const state = (await session.idle()) as S & { kind?: string; message?: string };
  if (state.phase === 'failed') throw session.failure(state.message ?? 'failed');
  if (state.phase === 'refused') {
    const message = state.message ?? 'refused';
    if (state.kind === 'input') return usageError(command, message, json);
    if (json) printJson({ schema: JSON_SCHEMA, command, ok: false, error: message });
    err(`shardeck ${command}: ${displayText(message)}\n`);
    return EXIT.failed;
  }
  if (state.phase !== 'review') throw new Error(`stopped (${state.phase})`);
  return state as Extract<S, { phase: 'review' }>;
}

/**
 * How the operator says yes: --yes, else a question on the terminal (y for a reversible change,
 * the target's name for a destructive one). Null when declined or when there is no terminal.
 * `typedAhead` is what a flag gave for a destructive plan (--expect N): --yes alone does not do.
 */
export async function confirmOnTerminal(
  command: string,
  plans: MutationPlan[],
  values: CommandContext['values'],
  typedAhead?: string,
): Promise<Confirmation | null> {
  if (values.yes) return typedAhead === undefined ? { by: 'yes-flag' } : { by: 'yes-flag', text: typedAhead };
  // A script asked for JSON: never a question on the terminal, the plan it would confirm instead.
  if (values.json) {
    const need = plans.find((p) => p.risk === 'destructive');
    outJson({
      schema: JSON_SCHEMA,
      command,
      ok: false,
      confirmationNeeded: true,
      error: `confirmation needed: add --yes${need ? ' (and what the preview asks for, e.g. --expect N)' : ''} to send ${plans.length === 1 ? 'this request' : `these ${plans.length} requests`}; nothing was sent`,
      plan: plans.map((p) => ({
        summary: p.summary,
        risk: p.risk,
        method: p.method,
        path: p.path,
        ...(p.body === undefined ? {} : { body: p.body }),
      })),
    });
    return null;
  }
  if (!process.stdin.isTTY) {
    err(
      `shardeck ${command}: no terminal to confirm on: add --yes to confirm from a script (or --dry-run to only preview); nothing was sent\n`,
    );
    return null;
  }
  const destructive = plans.find((p) => p.risk === 'destructive');
  // The question starts with the profile's label too: the answer is given to the cluster it names.
  const label = labelFor(values);
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    if (destructive) {
      const need = confirmationNeeded(destructive);
      const text = await rl.question(
        forTerminal(`${label}this cannot be undone: type ${need.kind === 'type' ? need.expected : ''} to go on: `),
      );
      return { by: 'typed', text: text.trim() };
    }
    const answer = await rl.question(
      forTerminal(`${label}send ${plans.length === 1 ? 'this request' : `these ${plans.length} requests`}? [y/N] `),
    );
    if (/^y(es)?$/i.test(answer.trim())) return { by: 'key' };
    err('not confirmed: nothing was sent\n');
    return null;
  } finally {
    rl.close();
  }
}

/** The change went out but its outcome is not in the audit log: said on stderr, with or without --json. */
export function warnAudit(warning: string | undefined): void {
  if (warning) err(`${paint('yellow', 'warning:')} ${warning}\n`);
}

/** One JSON document (a failure gets its exit code: output.ts outJson). */
export const printJson = outJson;

/** The end states of a wizard that sends one plan. */
type OnePlanState = { phase: string; result?: PlanResult; message?: string };

/**
 * The end of every one-plan command: preview, --dry-run, confirmation, send through the wizard,
 * print the verified outcome. `head` is the --json shape so far.
 */
export async function applyOnePlan(
  command: string,
  session: { send(e: { type: 'confirm'; confirmation: Confirmation }): void; idle(): Promise<OnePlanState> },
  /** One plan, or the parts of one change (each previewed, one confirmation, sent in order). */
  plan: MutationPlan | MutationPlan[],
  guard: Guard,
  values: CommandContext['values'],
  head: object,
  /** What the plans' targets may name (--include-system): the preview checks them too. */
  targetOptions: TargetOptions = {},
): Promise<number> {
  const json = Boolean(values.json);
  const plans = Array.isArray(plan) ? plan : [plan];
  const requests = previews(guard, plans, targetOptions);
  if (!json) printPreviews(requests);
  if (values['dry-run']) {
    if (json) printJson({ ...head, ok: true, dryRun: true, sent: false, requests });
    else out('dry run: nothing was sent\n');
    return EXIT.ok;
  }
  const confirmation = await confirmOnTerminal(command, plans, values);
  if (!confirmation) return EXIT.failed;
  session.send({ type: 'confirm', confirmation });
  const state = await session.idle();
  const result: PlanResult = state.result ?? { summary: plans[0].summary, ok: false, message: state.message ?? `stopped (${state.phase})` };
  const ok = state.phase === 'done' && result.ok && result.verified?.ok !== false;
  warnAudit(result.auditWarning);
  // A failure's sentence is its error (the one failure shape), not the bare word "failed".
  if (json)
    printJson({
      ...head,
      ok,
      ...(ok ? {} : { error: result.message }),
      dryRun: false,
      sent: true,
      applied: result.applied ?? 'no',
      requests,
      result,
    });
  // An answered success reads best as its read-back; anything else (no answer, read back) says it all in its message.
  else out(`${ok ? 'ok' : 'FAILED'}: ${result.verified && result.message.startsWith('done') ? result.verified.message : result.message}\n`);
  return ok ? EXIT.ok : EXIT.failed;
}
