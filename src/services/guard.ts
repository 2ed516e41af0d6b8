// The one guarded path every request that changes the cluster goes through:
//   preview -> confirmation (proportional to risk) -> the previewed indices still the ones matched
//   -> audit "sending" record -> send once -> audit outcome line -> read back.
// No answer (a timeout, a dropped connection) is not a failure: the read-back says applied / not
// applied / unknown.
// Read-only mode makes it impossible: the guard refuses before anything is sent. Nothing here
// retries: the client has maxRetries 0 and a failed mutation is reported, never resent.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { ClusterBusyError, withClusterLock, type ClusterLockHolder } from '../config/cluster-lock';
import { urlForMessage } from '../domain/urls';
import type { EsClient } from '../cluster/connection';
import { createEsApi, type EsApi } from '../cluster/api';
import { sendMutation } from '../cluster/mutations';
import { readBackOfRequest, recordedTaskAmong, taskOfRequest, unfinishedOutcome } from '../domain/mutation/unfinished';
import {
  auditOutcomeLine,
  formatAuditRecord,
  type Applied,
  type AuditOutcome,
  type AuditRecord,
  type AuditSending,
} from '../domain/mutation/audit';
import { confirmationNeeded, confirmationSatisfies, type Confirmation } from '../domain/mutation/confirmation';
import type { ApprovalPreview, ApprovalRequest } from '../domain/share';
import type { MutationPlan, Risk } from '../domain/mutation/plan';
import { buildPreview, type Preview, type PreviewConnection, type SearchCurl } from '../domain/mutation/preview';
import {
  checkIndexExpression,
  checkPlanPath,
  compareResolution,
  compareUuids,
  judgeResolution,
  type TargetOptions,
  type TargetResolution,
} from '../domain/mutation/targets';
import { appendAudit, appendJournal, auditFile, readAudit, unfinishedInLog } from './audit';
import { recordBefore, touchesAllocation, type AllocationRecord } from '../domain/maintenance/allocation-limits';
import { removeRecordFile } from '../boundary/records';
import { readAllocationRecord, writeAllocationRecord } from '../config/allocation-record';
import { dropRecordsBack } from './allocation-record';
import { badgeText, clusterNameRefusal, type ProfileBadge } from '../domain/console/profile-badge';

export interface GuardContext {
  client: EsClient;
  conn: { url: string; user?: string; caFile?: string; insecure?: boolean; readOnly: boolean; searchCurl?: SearchCurl };
  profile: string;
  /** The platform user when the profile is signed in (recorded in the audit log); the TUI passes a getter, as sign-in completes later. */
  platformUser?: string | (() => string | undefined);
  /** Defaults to <configDir>/audit.log. */
  auditFile?: string;
  /** Four eyes: when required, a follower approves each change before it is sent (services/share-server.ts). */
  approver?: Approver;
  /** Told once when another process holds the cluster's change lock (who, pid, what), then null when this one has it or gave up; the change waits up to lockWaitMs. */
  onLockWait?: (holder: ClusterLockHolder | null) => void;
  lockWaitMs?: number;
  /** A follower who proposed the change now on screen (the audit's proposedBy); this process's user otherwise. */
  proposedBy?: () => string | undefined;
  /** The profile's label and colour: every preview starts with it; a production one also asks for the cluster's name before data loss. */
  badge?: ProfileBadge;
  /** Production: asks the operator to type the cluster's name (undefined: declined, or no way to ask). Without it such a change is refused. */
  askClusterName?: (q: { cluster: string; badge: ProfileBadge; summary: string }) => Promise<string | undefined>;
  /** After a request went out (whatever its answer): the console reads again what it shows, so no pane shows the cluster as it was. */
  onSent?: () => void;
}

export interface Approver {
  /** --require-approval (flag or profile): every change waits for a follower. */
  readonly required: boolean;
  /** Resolves with the approving follower's user; rejects with a GuardRefusal('unapproved') (no follower, declined, gone). */
  approve(req: ApprovalRequest): Promise<{ approvedBy: string }>;
}

/** The host user of this process (the audit's osUser, "proposed by"). */
export function hostUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

/** audit: the "sending" record could not be written, so nothing was sent (fail closed). */
/** target: the expression itself is not allowed (bad input); changed: it matches other indices than the preview showed. */
/** busy: another process held the cluster's change lock too long; unapproved: four eyes, no follower approved. */
export type RefusalKind = 'read-only' | 'target' | 'changed' | 'unconfirmed' | 'audit' | 'busy' | 'unapproved';

/** The guard said no; nothing was sent. */
export class GuardRefusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message);
    this.name = 'GuardRefusal';
  }
}

export const READ_ONLY_MESSAGE =
  "read-only mode (--read-only or the profile's readOnly): nothing was sent; run without it to change the cluster";

export interface MutationOutcome {
  preview: Preview;
  /** The node answered success. */
  ok: boolean;
  /**
   * What happened on the cluster. Without an answer (a timeout, a dropped connection) the plan's
   * read-back decides: yes / no, or unknown when the plan has none or it failed. Never resent.
   */
  applied: Applied;
  status?: number;
  body?: unknown;
  error?: { kind: string; message: string };
  /** The cluster read back after the mutation; absent when the plan has no check. */
  verified?: { ok: boolean; message: string };
  /** The change went out but its outcome could not be written to the audit log (it was applied all the same). */
  auditWarning?: string;
}

/**
 * Changes only: reads are the facade's (cluster/api.ts), which the guard itself uses for what it
 * checks before sending (the indices an expression matches) and for the read-back after.
 */
export class Guard {
  private readonly es: EsApi;

  constructor(private readonly ctx: GuardContext) {
    this.es = createEsApi(ctx.client, ctx.conn.url);
  }

  get readOnly(): boolean {
    return this.ctx.conn.readOnly;
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
    return judgeResolution(expr, await this.es.resolveIndices(expr), opts);
  }

  /** The connection as previews show it (no credentials); also in read-only mode, for printed plans. */
  get previewConnection(): PreviewConnection {
    const { url, user, caFile, insecure, searchCurl } = this.ctx.conn;
    return { url: urlForMessage(url), user, caFile, insecure, searchCurl, ...(this.ctx.badge ? { badge: this.ctx.badge } : {}) };
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
        need.kind === 'type'
          ? `this cannot be undone: type "${need.expected}" to confirm (nothing was sent)`
          : 'not confirmed: nothing was sent',
      );
    }
    await this.productionCheck(plan);
    // The set the preview showed must still be what the expression matches: else an index created
    // (or removed) since would silently change what the operator confirmed.
    let uuids: Map<string, string> | null = null;
    if (plan.resolved) {
      uuids = await this.es.resolveIndexUuids(plan.resolved.expression);
      const changed = compareResolution(plan.resolved, uuids ? [...uuids.keys()] : null);
      if (changed) throw new GuardRefusal('changed', changed);
    }
    const four = await this.fourEyes(preview, plan);
    return this.oneAtATime(plan.summary, async () => {
      // After the approval wait and the lock wait (minutes, maybe): still the same indices, by UUID, right before sending.
      if (plan.resolved && uuids) {
        const changed = compareUuids(plan.resolved.expression, uuids, await this.es.resolveIndexUuids(plan.resolved.expression));
        if (changed) throw new GuardRefusal('changed', changed);
      }
      if (!touchesAllocation(plan)) return this.send(plan, confirmation, preview, four);
      // A restore is what a record asked for (this operator's own, or one chosen by owner after its
      // preview): recording it would only say "left changed" of allocation put back.
      const record = plan.restoresAllocation ? null : await this.recordAllocation(plan);
      try {
        return await this.send(plan, confirmation, preview, four);
      } finally {
        await this.dropRecordIfBack(record?.clusterUuid ?? (await this.lockKey()));
      }
    });
  }

  /**
   * Before a change of allocation (enable, rebalance, an exclude): the values before it, written
   * to this user's record of the cluster (config/allocation-record.ts, seen by every operator of the host), so that a crash, Ctrl-C or
   * a lost session never leaves allocation off unnoticed. Not written: not sent.
   */
  private async recordAllocation(plan: MutationPlan): Promise<AllocationRecord> {
    const uuid = await this.lockKey();
    const now = await this.es.allocationSettings();
    const head = {
      clusterUuid: uuid,
      url: urlForMessage(this.ctx.conn.url),
      at: new Date().toISOString(),
      user: hostUser(),
      pid: process.pid,
    };
    // Only this operator's own record: another operator's (a crash of theirs, or a record planted in
    // the shared folder) is theirs to put back, never inherited into what this one restores (issue 40 N2).
    const own = readAllocationRecord(uuid);
    const record = recordBefore(own, plan, now, head)!;
    try {
      writeAllocationRecord(record);
    } catch (e) {
      throw new GuardRefusal(
        'audit',
        `cannot write the record of the allocation settings before the change (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): nothing was sent`,
      );
    }
    return record;
  }

  /** Once every recorded setting is what it was before (put back, or the change not applied), this user's record goes (another operator's stays theirs). */
  private async dropRecordIfBack(clusterUuid: string): Promise<void> {
    try {
      dropRecordsBack(clusterUuid, await this.es.allocationSettings());
    } catch {
      // not read: the record stays, and the next start compares again
    }
  }

  /**
   * On a production profile, a step that loses data also needs the cluster's name typed: the name
   * the node gives now (never the profile's), so a habit typed for staging does not pass here.
   * Refused (nothing sent) when the name cannot be read or is not typed exactly.
   */
  private async productionCheck(step: { risk: Risk; summary: string }): Promise<void> {
    const badge = this.ctx.badge;
    if (!badge?.production || step.risk !== 'destructive') return;
    let cluster: string;
    try {
      cluster = await this.es.clusterName();
    } catch (e) {
      throw new GuardRefusal(
        'unconfirmed',
        `${badgeText(badge)} is a production profile and the cluster's name could not be read to confirm (${(e as Error).message}): nothing was sent`,
      );
    }
    const typed = await this.ctx.askClusterName?.({ cluster, badge, summary: step.summary });
    if (typed?.trim() !== cluster) throw new GuardRefusal('unconfirmed', clusterNameRefusal(badge, cluster, typed));
  }

  /** With four eyes required: waits for a follower to approve what the preview shows (throws when none does). */
  private async fourEyes(
    preview: ApprovalPreview,
    step: Pick<MutationPlan, 'risk' | 'target' | 'confirmText'>,
  ): Promise<Pick<AuditRecord, 'proposedBy' | 'approvedBy'>> {
    const approver = this.ctx.approver;
    const proposer = this.ctx.proposedBy?.();
    if (!approver?.required) return proposer ? { proposedBy: proposer } : {};
    const proposedBy = proposer ?? hostUser();
    const { approvedBy } = await approver.approve({ id: randomUUID(), preview, need: confirmationNeeded(step), proposedBy });
    return { proposedBy, approvedBy };
  }

  private uuid?: Promise<string>;

  /**
   * What the change lock is keyed by: the cluster's UUID (read once), so two URLs or profiles of one
   * cluster take turns. A cluster that does not give it (no monitor privilege, unreachable) is
   * keyed by its URL: the change then most likely fails anyway.
   */
  private lockKey(): Promise<string> {
    this.uuid ??= this.es.clusterUuid().catch(() => {
      this.uuid = undefined; // asked again next time
      return `url ${urlForMessage(this.ctx.conn.url)}`;
    });
    return this.uuid;
  }

  /** Holds the cluster's change lock (every shardeck on the host) while fn runs; waits for another holder, then refuses. */
  private async oneAtATime<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await withClusterLock(await this.lockKey(), what, fn, { waitMs: this.ctx.lockWaitMs, onWait: this.ctx.onLockWait });
    } catch (e) {
      if (e instanceof ClusterBusyError) throw new GuardRefusal('busy', e.message);
      throw e;
    }
  }

  private async send(
    plan: MutationPlan,
    confirmation: Confirmation,
    preview: Preview,
    four: Pick<AuditRecord, 'proposedBy' | 'approvedBy'>,
  ): Promise<MutationOutcome> {
    const started = Date.now();
    const sending = this.writeSending(started, {
      request: {
        method: plan.method,
        path: plan.path,
        querystring: plan.querystring,
        ...(plan.body !== undefined ? { body: plan.body } : {}),
      },
      risk: plan.risk,
      target: plan.target,
      summary: plan.summary,
      confirmedBy: confirmation.by,
      ...four,
    });
    const res = await sendMutation({ client: this.ctx.client, url: this.ctx.conn.url }, plan);
    const outcome: MutationOutcome = res.ok
      ? { preview, ok: true, applied: 'yes', status: res.status, body: res.body }
      : { preview, ok: false, applied: 'no', status: res.error.status, error: { kind: res.error.kind, message: res.error.message } };
    // A client error answered by Elasticsearch was not applied; a connection never made sent nothing.
    // Without an answer (or with a server error) only reading the cluster back tells.
    const uncertain = !res.ok && res.maybeSent && (!res.answered || (res.error.status ?? 0) >= 500);
    let readBack: string | undefined;
    if (uncertain) {
      if (plan.verify) {
        const v = await this.verify(plan);
        outcome.verified = { ok: v.ok, message: v.message };
        outcome.applied = v.read ? (v.ok ? 'yes' : 'no') : 'unknown';
        readBack = v.message;
      } else {
        outcome.applied = 'unknown';
        readBack = 'this request has no read-back check';
      }
    }
    outcome.auditWarning = this.writeOutcome(sending, {
      ok: outcome.ok,
      status: outcome.status,
      error: outcome.error?.message,
      durationMs: Date.now() - started,
      ...taskField(outcome.body),
      applied: outcome.applied,
      ...(readBack !== undefined ? { readBack } : {}),
    });
    if (outcome.ok && plan.verify) {
      const v = await this.verify(plan);
      outcome.verified = { ok: v.ok, message: v.message };
    }
    if (res.ok || res.maybeSent) this.ctx.onSent?.();
    return outcome;
  }

  /**
   * Runs a command on the node's host (the corruption checklist's stop, backup, repair, start)
   * under the same rules as a request: refused in read-only mode, only when confirmed, never
   * retried, a "sending" audit record before it runs (none written: it does not run) and its
   * outcome after (a failure to write that is returned as auditWarning, not thrown).
   */
  async runHostCommand<T extends { ok: boolean; exitCode?: number | null; error?: string }>(
    step: { command: string; risk: Risk; target: string; summary: string },
    confirmation: Confirmation,
    run: () => Promise<T>,
  ): Promise<T> {
    this.assertWritable();
    if (!confirmationSatisfies(step, confirmation)) throw new GuardRefusal('unconfirmed', `not confirmed: "${step.summary}" was not run`);
    await this.productionCheck(step);
    const four = await this.fourEyes({ command: step.command, risk: step.risk, target: step.target, summary: step.summary }, step);
    return this.oneAtATime(step.summary, () =>
      this.runOnHost(
        { command: step.command, risk: step.risk, target: step.target, summary: step.summary, confirmedBy: confirmation.by, ...four },
        run,
      ),
    );
  }

  /** A host command between its "sending" record (not run when that cannot be written) and its outcome. */
  private async runOnHost<T extends { ok: boolean; exitCode?: number | null; error?: string }>(
    what: Pick<AuditSending, 'command' | 'risk' | 'target' | 'summary' | 'confirmedBy' | 'proposedBy' | 'approvedBy'>,
    run: () => Promise<T>,
  ): Promise<T> {
    const started = Date.now();
    const sending = this.writeSending(started, what, `"${what.summary}" was not run`);
    const result = await run();
    const auditWarning = this.writeOutcome(sending, {
      ok: result.ok,
      ...(result.exitCode != null ? { status: result.exitCode } : {}),
      ...(result.error ? { error: result.error } : {}),
      durationMs: Date.now() - started,
    });
    return auditWarning ? { ...result, auditWarning } : result;
  }

  /**
   * Takes over a cluster lock another operator's process holds (root only, issue 40): their lock
   * file goes, so the next change here may run while theirs may still be running. Never silent:
   * confirmed by typing the holder's user name (the file's owner, even with --yes), audited
   * before and after like any change, refused in read-only mode, and only if the lock still
   * belongs to that owner when it is removed.
   */
  async takeOverLock(
    lock: { file: string; ownerUid: number; owner: string; kind: string },
    confirmation: Confirmation,
  ): Promise<{ ok: boolean; error?: string }> {
    this.assertWritable();
    if ((process.getuid?.() ?? 0) !== 0)
      throw new GuardRefusal('unconfirmed', `only root takes over another operator's lock; ask ${lock.owner} instead`);
    const holderName = lock.owner.split(' (')[0];
    const step = { risk: 'destructive' as const, target: lock.file, confirmText: holderName };
    if (!confirmationSatisfies(step, confirmation))
      throw new GuardRefusal(
        'unconfirmed',
        `not confirmed: type ${holderName} (the lock's owner) to take over their ${lock.kind} lock; nothing was changed`,
      );
    return this.runOnHost(
      {
        command: `rm -- ${lock.file}`,
        risk: 'destructive',
        target: lock.file,
        summary: `take over the ${lock.kind} lock of this cluster from ${lock.owner}`,
        confirmedBy: confirmation.by,
      },
      () =>
        Promise.resolve(
          removeRecordFile(lock.file, lock.ownerUid)
            ? { ok: true }
            : { ok: false, error: `${lock.file} is no longer ${lock.owner}'s: nothing was removed` },
        ),
    );
  }

  /**
   * Runs a command on the node's host only to read (`service status`, the plugin tool's list): it
   * changes nothing, so it runs in read-only mode and needs no confirmation, lock or approval, but
   * it is still a program run on the host (often as root): a "sending" record with risk "read"
   * before it runs (none written: it does not run) and its outcome after. The audit and the
   * timeline show it as a read, never as a change.
   */
  async runHostRead<T extends { ok: boolean; exitCode?: number | null; error?: string }>(
    step: { command: string; target: string; summary: string },
    run: () => Promise<T>,
  ): Promise<T> {
    return this.runOnHost({ ...step, risk: 'read', confirmedBy: 'none' }, run);
  }

  /**
   * The changes to this cluster this audit log holds without an outcome, their sender gone (killed
   * between "sending" and the answer): each read back from its request (a settings change) and
   * its outcome recorded by this run, never sent again. One line per change, for the operator.
   * A read-back that fails leaves the record open for the next run.
   */
  async settleUnfinished(): Promise<string[]> {
    if (!this.unfinished().length) return [];
    // Two shardecks started at once would both read one record back and write two outcomes: one
    // at a time under the cluster's change lock, the list read again inside it (the first one's
    // outcomes written, the second finds nothing left).
    try {
      return await this.oneAtATime('reading back unfinished changes', () => this.settleUnfinishedNow());
    } catch (e) {
      if (!(e instanceof GuardRefusal)) throw e;
      return [`the unfinished changes were not read back now (${e.message}): shardeck audit --read-back reads them later`];
    }
  }

  private async settleUnfinishedNow(): Promise<string[]> {
    const said: string[] = [];
    for (const r of this.unfinished()) {
      const v = readBackOfRequest(r.request!);
      // A merge or delete has no settings to compare: its task, when it still runs, says it was applied.
      const task = v ? null : taskOfRequest(r.request!);
      let check: { ok: boolean; message: string } | null = null;
      if (v || task) {
        try {
          if (v) check = v.check(await this.es.readBack(v.path, v.querystring));
          else {
            const found = recordedTaskAmong(task!, r.time, await this.es.runningTasks(), Date.now());
            if (found) check = { ok: true, message: `its task ${found.id} runs (shardeck tasks ${found.id} follows it)` };
          }
        } catch (e) {
          said.push(
            `${formatAuditRecord(r)}; it could not be read back now (${(e as Error).message}): check the cluster before running it again`,
          );
          continue;
        }
      }
      const outcome = unfinishedOutcome(
        check,
        task
          ? 'no task of it runs now (it ended, or never started): check the cluster (shardeck tasks; a delete: preview it again) before running it again'
          : 'this request has no read-back check: check the cluster (shardeck status, shardeck tasks) before running it again',
      );
      const warning = this.writeOutcome(r as AuditSending, outcome);
      said.push(`${formatAuditRecord({ ...r, outcome })}; it was not resent${warning ? ` (warning: ${warning})` : ''}`);
    }
    return said;
  }

  /** The changes to this cluster settleUnfinished would read back (none when the log cannot be read: the change itself reports it). */
  unfinished(): AuditRecord[] {
    try {
      return unfinishedInLog(readAudit(this.auditPath).records, urlForMessage(this.ctx.conn.url));
    } catch {
      return [];
    }
  }

  private get auditPath(): string {
    return this.ctx.auditFile ?? auditFile();
  }

  /** The record written before anything is sent; if it cannot be written nothing is sent. */
  private writeSending(
    started: number,
    what: Omit<AuditSending, 'id' | 'phase' | 'time' | 'profile' | 'platformUser' | 'url' | 'osUser' | 'pid'>,
    notDone = 'nothing was sent',
  ): AuditSending {
    const record: AuditSending = { id: randomUUID(), phase: 'sending', ...this.recordHead(started), ...what };
    try {
      appendAudit(record, this.auditPath);
    } catch (e) {
      throw new GuardRefusal(
        'audit',
        `cannot write the audit log ${this.auditPath} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): ${notDone}; make it writable and run again`,
      );
    }
    appendJournal(record, record.url);
    return record;
  }

  /** The outcome line; a failure to write it must not turn a change that went out into a failure. Returns the warning. */
  private writeOutcome(sending: AuditSending, outcome: AuditOutcome): string | undefined {
    try {
      const line = auditOutcomeLine(sending, new Date().toISOString(), outcome);
      appendAudit(line, this.auditPath);
      appendJournal(line, sending.url);
      return undefined;
    } catch (e) {
      return `its outcome could not be written to the audit log ${this.auditPath} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); the log keeps only its "sending" record ${sending.id}`;
    }
  }

  private recordHead(started: number): Pick<AuditRecord, 'time' | 'profile' | 'platformUser' | 'url' | 'osUser' | 'pid'> {
    const user = typeof this.ctx.platformUser === 'function' ? this.ctx.platformUser() : this.ctx.platformUser;
    return {
      time: new Date(started).toISOString(),
      profile: this.ctx.profile,
      ...(user ? { platformUser: user } : {}),
      osUser: hostUser(),
      pid: process.pid,
      url: urlForMessage(this.ctx.conn.url),
    };
  }

  /** read: false when the cluster could not be read back (then nothing is known). */
  private async verify(plan: MutationPlan): Promise<{ read: boolean; ok: boolean; message: string }> {
    const v = plan.verify!;
    try {
      return { read: true, ...v.check(await this.es.readBack(v.path, v.querystring)) };
    } catch (e) {
      return { read: false, ok: false, message: `could not read the cluster back: ${(e as Error).message}` };
    }
  }
}

/** A request sent with wait_for_completion=false answers {task: "node:id"}; the audit keeps it. */
function taskField(body: unknown): { task?: string } {
  const task = (body as { task?: unknown } | undefined)?.task;
  return typeof task === 'string' ? { task } : {};
}
