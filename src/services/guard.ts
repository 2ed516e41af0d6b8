// The one guarded path every request that changes the cluster goes through:
//   preview -> confirmation (proportional to risk) -> send once -> audit record -> read back.
// Read-only mode makes it impossible: the guard refuses before anything is sent. Nothing here
// retries: the client has maxRetries 0 and a failed mutation is reported, never resent.
import type { Client } from '@elastic/elasticsearch';
import { resolveIndices, sendMutation } from '../cluster/admin';
import { ConnError, read, redactUrl } from '../cluster/connection';
import {
  buildPreview,
  checkIndexExpression,
  checkPlanPath,
  confirmationNeeded,
  confirmationSatisfies,
  judgeResolution,
  type AuditRecord,
  type Confirmation,
  type MutationPlan,
  type Preview,
  type PreviewConnection,
  type Risk,
  type TargetOptions,
  type TargetResolution,
} from '../domain/mutation';
import { appendAudit } from './audit';

export interface GuardContext {
  client: Client;
  conn: { url: string; user?: string; caFile?: string; insecure?: boolean; readOnly: boolean };
  profile: string;
  /** The platform user when the profile is signed in (recorded in the audit log); the TUI passes a getter, as sign-in completes later. */
  platformUser?: string | (() => string | undefined);
  /** Defaults to <configDir>/audit.log. */
  auditFile?: string;
}

export type RefusalKind = 'read-only' | 'target' | 'unconfirmed';

/** The guard said no; nothing was sent. */
export class GuardRefusal extends Error {
  constructor(readonly kind: RefusalKind, message: string) {
    super(message);
    this.name = 'GuardRefusal';
  }
}

export const READ_ONLY_MESSAGE = 'read-only mode (--read-only or the profile\'s readOnly): nothing was sent; run without it to change the cluster';

export interface MutationOutcome {
  preview: Preview;
  ok: boolean;
  status?: number;
  body?: unknown;
  error?: { kind: string; message: string };
  /** The cluster read back after the mutation; absent when the plan has no check or it failed. */
  verified?: { ok: boolean; message: string };
}

export class Guard {
  constructor(private readonly ctx: GuardContext) {}

  get readOnly(): boolean {
    return this.ctx.conn.readOnly;
  }

  get client(): Client {
    return this.ctx.client;
  }

  get url(): string {
    return this.ctx.conn.url;
  }

  /** Throws the read-only refusal; commands call it before they even read, so the exit is quick and certain. */
  assertWritable(): void {
    if (this.ctx.conn.readOnly) throw new GuardRefusal('read-only', READ_ONLY_MESSAGE);
  }

  /**
   * What an index expression matches, judged before anything runs: syntax first (nothing is
   * sent for `*`, `_all`, empty names...), then the names Elasticsearch resolves it to.
   */
  async resolveTarget(expr: string, opts: TargetOptions = {}): Promise<TargetResolution> {
    const syntax = checkIndexExpression(expr, opts);
    if (syntax) return { ok: false, error: syntax };
    return judgeResolution(expr, await resolveIndices(this.ctx.client, this.ctx.conn.url, expr), opts);
  }

  /** The connection as previews show it (no credentials); also in read-only mode, for printed plans. */
  get previewConnection(): PreviewConnection {
    const { url, user, caFile, insecure } = this.ctx.conn;
    return { url: redactUrl(url), user, caFile, insecure };
  }

  preview(plan: MutationPlan, opts: TargetOptions = {}): Preview {
    this.assertWritable();
    const bad = checkPlanPath(plan, opts);
    if (bad) throw new GuardRefusal('target', bad);
    return buildPreview(plan, this.previewConnection);
  }

  /** Sends the plan once, records it, reads the cluster back. Refusals throw before sending. */
  async execute(plan: MutationPlan, confirmation: Confirmation, opts: TargetOptions = {}): Promise<MutationOutcome> {
    const preview = this.preview(plan, opts);
    if (!confirmationSatisfies(plan, confirmation)) {
      const need = confirmationNeeded(plan);
      throw new GuardRefusal(
        'unconfirmed',
        need.kind === 'type' ? `this cannot be undone: type "${need.expected}" to confirm (nothing was sent)` : 'not confirmed: nothing was sent',
      );
    }
    const started = Date.now();
    const outcome: MutationOutcome = { preview, ok: false };
    try {
      const res = await sendMutation(this.ctx.client, this.ctx.conn.url, plan);
      Object.assign(outcome, { ok: true, status: res.status, body: res.body });
    } catch (e) {
      const err = e instanceof ConnError ? e : new ConnError('unknown', (e as Error).message);
      Object.assign(outcome, { status: err.status, error: { kind: err.kind, message: err.message } });
    }
    const record: AuditRecord = {
      ...this.recordHead(started),
      request: { method: plan.method, path: plan.path, querystring: plan.querystring, ...(plan.body !== undefined ? { body: plan.body } : {}) },
      risk: plan.risk,
      target: plan.target,
      summary: plan.summary,
      confirmedBy: confirmation.by,
      outcome: { ok: outcome.ok, status: outcome.status, error: outcome.error?.message, durationMs: Date.now() - started, ...taskField(outcome.body) },
    };
    appendAudit(record, this.ctx.auditFile);
    if (outcome.ok && plan.verify) outcome.verified = await this.verify(plan);
    return outcome;
  }

  /**
   * Runs a command on the node's host (the corruption checklist's stop, backup, repair, start)
   * under the same rules as a request: refused in read-only mode, only when confirmed, never
   * retried, one audit record with its outcome.
   */
  async runHostCommand<T extends { ok: boolean; exitCode?: number | null; error?: string }>(
    step: { command: string; risk: Risk; target: string; summary: string },
    confirmation: Confirmation,
    run: () => Promise<T>,
  ): Promise<T> {
    this.assertWritable();
    if (!confirmationSatisfies(step, confirmation)) throw new GuardRefusal('unconfirmed', `not confirmed: "${step.summary}" was not run`);
    const started = Date.now();
    const result = await run();
    appendAudit(
      {
        ...this.recordHead(started),
        command: step.command,
        risk: step.risk,
        target: step.target,
        summary: step.summary,
        confirmedBy: confirmation.by,
        outcome: {
          ok: result.ok,
          ...(result.exitCode != null ? { status: result.exitCode } : {}),
          ...(result.error ? { error: result.error } : {}),
          durationMs: Date.now() - started,
        },
      },
      this.ctx.auditFile,
    );
    return result;
  }

  private recordHead(started: number): Pick<AuditRecord, 'time' | 'profile' | 'platformUser' | 'url'> {
    const user = typeof this.ctx.platformUser === 'function' ? this.ctx.platformUser() : this.ctx.platformUser;
    return { time: new Date(started).toISOString(), profile: this.ctx.profile, ...(user ? { platformUser: user } : {}), url: redactUrl(this.ctx.conn.url) };
  }

  private async verify(plan: MutationPlan): Promise<{ ok: boolean; message: string }> {
    const v = plan.verify!;
    try {
      const { body } = await read(this.ctx.client, this.ctx.conn.url, { method: 'GET', path: v.path, querystring: v.querystring });
      return v.check(body);
    } catch (e) {
      return { ok: false, message: `could not read the cluster back: ${(e as Error).message}` };
    }
  }
}

/** A request sent with wait_for_completion=false answers {task: "node:id"}; the audit keeps it. */
function taskField(body: unknown): { task?: string } {
  const task = (body as { task?: unknown } | undefined)?.task;
  return typeof task === 'string' ? { task } : {};
}
