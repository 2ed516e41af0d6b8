// What crosses a shared console's socket, as plain values: newline-delimited JSON messages. The
// leader sends what it already fetched (snapshots, timeline, pane and selection); the state sent is
// a WHITELIST of the console's fields, so a credential or token added to the store later does not
// cross by accident (the platform view's free-text message is left out for the same reason).
import crypto from 'node:crypto';
import type { ConfirmationNeed } from './mutation/confirmation';
import type { Preview } from './mutation/preview';
import type { Selection } from './panes';
import type { Snapshot } from './snapshot';
import type { TimelineEntry } from './timeline';
import type { DoctorReport } from './doctor/report';

/** At most this many followers; the ninth is refused. */
export const MAX_FOLLOWERS = 8;
/** A follower whose unread bytes pile up past this stopped reading: it is dropped, never waited for. */
export const MAX_UNREAD_BYTES = 4 * 1024 * 1024;
/** The longest line a follower may send (a note, an approval), in bytes: longer is a protocol error. */
export const MAX_FOLLOWER_LINE = 8 * 1024;
/** A follower's messages: a burst of this many, then this many a second (a person types far fewer). */
export const FOLLOWER_BURST = 20;
export const FOLLOWER_PER_SECOND = 5;
/** Notes land on the leader's timeline (a file and a screen): a burst of 5, then one every 2 s. */
export const NOTE_BURST = 5;
export const NOTES_PER_SECOND = 0.5;
/** A follower that keeps sending past its limit this many times is dropped. */
export const MAX_OVER_LIMIT = 200;
/**
 * Connections to the leader's socket: a burst of this many, then this many a second. Past it a
 * connection is refused before its peer is looked up (each look-up reads /proc), so a follower that
 * reconnects in a loop costs the leader a write of one line.
 */
export const CONNECT_BURST = 16;
export const CONNECTS_PER_SECOND = 2;
/** Peers looked up at once; the others wait their turn. */
export const MAX_IDENTIFYING = 2;
/** What a connection past the rate is told. */
export const TOO_MANY_CONNECTIONS = 'too many connections to this console at once: try again in a few seconds';

/** The console's fields a follower gets. */
export interface SharedState {
  snapshots?: Record<string, Snapshot<unknown>>;
  intervalMs?: number;
  paused?: boolean;
  connection?: { url: string; profile: string; user?: string; insecure: boolean; readOnly: boolean };
  platform?: { state: string; user?: string; tenant?: string };
  projects?: Record<string, string>;
  templateVersion?: string;
  timeline?: TimelineEntry[];
  requireApproval?: boolean;
  /** The leader's last doctor run (the follower cannot run one: no credential, no node files of its own). */
  doctor?: SharedDoctor;
}

/** The doctor's state as the Doctor pane shows it: findings and evidence (settings, file lines, log lines), never a credential. */
export interface SharedDoctor {
  report?: DoctorReport;
  fetchedAt?: number;
  inFlight: boolean;
  error?: string;
}

/** The leader's pane and table views (cursor, order, filter), which a following follower takes. */
export interface Focus {
  pane: string;
  tables?: unknown;
  showSystem?: boolean;
  problemsOnly?: boolean;
}

/** What a follower sees to approve a change: the same preview and the same confirmation the leader gave. */
export interface ApprovalRequest {
  id: string;
  /** A request's preview, or a host command's (command instead of method/path/curl). */
  preview: ApprovalPreview;
  need: ConfirmationNeed;
  proposedBy: string;
}

export type ApprovalPreview = Pick<Preview, 'risk' | 'target' | 'summary'> &
  Partial<Pick<Preview, 'method' | 'path' | 'body' | 'curl'>> & { command?: string };

/** The approval request as the followers get it: its preview flattened in. */
export type ApprovalMessage = Omit<ApprovalRequest, 'preview'> &
  ApprovalPreview & {
    /** Set for a follower that may not approve (four eyes: the leader's own user, or the proposer): it sees the change, and why. */
    cannotApprove?: string;
  };

export type LeaderMessage =
  | { t: 'hello'; leader: string; you: string }
  | { t: 'state'; state: SharedState }
  /** fetchedAt of each snapshot: a poll that brought the same data moves only its time. */
  | { t: 'ages'; fetchedAt: Record<string, number> }
  | { t: 'focus'; focus: Focus }
  | { t: 'approval'; request: ApprovalMessage | null }
  | { t: 'refused'; reason: string }
  /** A word to one follower (e.g. why its approval did not count). */
  | { t: 'notice'; text: string }
  | { t: 'bye'; reason: string };

export type FollowerMessage =
  | { t: 'hello'; token?: string }
  | { t: 'note'; text: string }
  | { t: 'approve'; id: string; text?: string }
  | { t: 'decline'; id: string }
  /** A change the follower proposes: the leader's console opens that wizard on this row for review. */
  | { t: 'propose'; wizard: string; selection: ProposedSelection };

/** The row a proposal is about (the wizards read it as the leader's selection). */
export type ProposedSelection = Pick<Selection, 'indices' | 'shards' | 'nodes'>;

/** The console state's fields sharedState reads: the shapes are SharedState's (declared once, above). */
type SharedSource = Required<Pick<SharedState, 'snapshots' | 'intervalMs' | 'paused' | 'connection' | 'platform' | 'templateVersion'>> &
  Pick<SharedState, 'projects' | 'timeline' | 'doctor'> & { share?: { requireApproval?: boolean } };

/** The whitelisted fields of the console state (a structural subset; no secrets by construction). */
export function sharedState(s: SharedSource): SharedState {
  const { url, profile, user, insecure, readOnly } = s.connection;
  return {
    snapshots: { ...s.snapshots },
    intervalMs: s.intervalMs,
    paused: s.paused,
    connection: { url, profile, ...(user ? { user } : {}), insecure, readOnly },
    platform: {
      state: s.platform.state,
      ...(s.platform.user ? { user: s.platform.user } : {}),
      ...(s.platform.tenant ? { tenant: s.platform.tenant } : {}),
    },
    ...(s.projects ? { projects: s.projects } : {}),
    templateVersion: s.templateVersion,
    timeline: s.timeline ?? [],
    requireApproval: Boolean(s.share?.requireApproval),
    ...(s.doctor ? { doctor: s.doctor } : {}),
  };
}

/**
 * What changed since the last state sent, by reference (the store replaces what changes), so an
 * idle leader sends nothing; snapshots per resource. Null when nothing changed.
 */
export function stateDiff(prev: SharedState | undefined, next: SharedState): SharedState | null {
  if (!prev) return next;
  const out: SharedState = {};
  let any = false;
  for (const key of Object.keys(next) as (keyof SharedState)[]) {
    if (key === 'doctor') {
      // By reference, like the snapshots: the store replaces it when a run starts or ends.
      if (prev.doctor !== next.doctor) {
        out.doctor = next.doctor;
        any = true;
      }
    } else if (key === 'snapshots') {
      const snaps: Record<string, Snapshot<unknown>> = {};
      for (const [name, snap] of Object.entries(next.snapshots ?? {})) {
        if (prev.snapshots?.[name] !== snap) snaps[name] = snap;
      }
      if (Object.keys(snaps).length) {
        out.snapshots = snaps;
        any = true;
      }
    } else if (JSON.stringify(prev[key]) !== JSON.stringify(next[key])) {
      (out as Record<string, unknown>)[key] = next[key];
      any = true;
    }
  }
  return any ? out : null;
}

/**
 * Splits a byte stream into lines; a line longer than maxLine bytes is an error (the caller drops
 * the peer), whether it is still arriving or came whole inside one chunk.
 */
export class LineSplitter {
  private buf = '';
  constructor(private readonly maxLine = Infinity) {}

  push(chunk: string): string[] {
    this.buf += chunk;
    const parts = this.buf.split('\n');
    this.buf = parts.pop() ?? '';
    // Characters first (cheap); bytes only when a line could be near the cap (UTF-8: at most 4 per character... 3 for a UTF-16 unit).
    const tooLong = (l: string) => l.length > this.maxLine || (l.length * 3 > this.maxLine && Buffer.byteLength(l) > this.maxLine);
    if (tooLong(this.buf) || parts.some(tooLong)) throw new Error(`a line longer than ${this.maxLine} bytes`);
    return parts.filter((l) => l.length > 0);
  }
}

/**
 * Whether a join token a peer sent is the leader's. Both sides are hashed first: the comparison
 * is constant-time over equal-length digests whatever the peer sent (any length, any characters).
 */
export function tokenMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string' || given.length === 0 || expected.length === 0) return false;
  const digest = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

/** A token bucket: up to `burst` at once, refilled at `perSecond`; times in ms, given by the caller. */
export class RateBucket {
  private tokens: number;
  private last: number | undefined;
  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
  ) {
    this.tokens = burst;
  }

  /** Takes one token at time now; false when the bucket is empty (the message is over the limit). */
  take(now: number): boolean {
    if (this.last !== undefined) this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Who a follower is, as the leader established it: the uid and pid from the kernel, or unknown (joined by token). */
export interface PeerWho {
  user: string;
  uid?: number;
  pid?: number;
}

/**
 * Four eyes means two people: null when this follower may approve a change, else why not. The
 * approver must be a process the leader identified (its uid read from the kernel), neither the
 * leader's own process nor its OS user, nor whoever proposed the change. A follower whose uid could
 * not be read joined with the one-time token, which the leader's own user holds too (it is printed
 * on the leader's screen): it may follow and see, never approve.
 */
export function approvalRefusal(approver: PeerWho, leader: { uid: number; user: string; pid: number }, proposedBy: string): string | null {
  if (approver.uid === undefined)
    return `${approver.user} joined with the join token, so the leader cannot tell who it is (it may be the leader's own user): four eyes needs a second person the leader can identify by uid`;
  if (approver.uid === leader.uid)
    return `${approver.user} runs as the leader's own user (uid ${leader.uid}): four eyes needs a second person`;
  if (approver.pid === leader.pid)
    return `${approver.user} is the leader's own process (pid ${leader.pid}): four eyes needs a second person`;
  if (approver.user === leader.user) return `${approver.user} is the leader's own user: four eyes needs a second person`;
  if (approver.user === proposedBy) return `${approver.user} proposed this change: another person approves it`;
  return null;
}

/** Parses one follower line; null when it is not a message a follower may send. */
export function parseFollowerMessage(line: string): FollowerMessage | null {
  let m: unknown;
  // Stryker disable BlockStatement: an empty catch is equivalent (m stays undefined, the check below returns null); kept to say why.
  try {
    m = JSON.parse(line);
  } catch {
    return null;
  }
  // Stryker restore BlockStatement
  const o = m as Record<string, unknown>;
  // Stryker disable next-line ConditionalExpression: equivalent for JSON (a string, number or boolean has no .t); defence in depth.
  if (!o || typeof o !== 'object') return null;
  switch (o.t) {
    case 'hello':
      return { t: 'hello', ...(typeof o.token === 'string' ? { token: o.token } : {}) };
    case 'note':
      return typeof o.text === 'string' ? { t: 'note', text: o.text } : null;
    case 'approve':
      return typeof o.id === 'string' ? { t: 'approve', id: o.id, ...(typeof o.text === 'string' ? { text: o.text } : {}) } : null;
    case 'decline':
      return typeof o.id === 'string' ? { t: 'decline', id: o.id } : null;
    case 'propose':
      return typeof o.wizard === 'string' && /^[a-z]+$/.test(o.wizard)
        ? { t: 'propose', wizard: o.wizard, selection: proposedSelection(o.selection) }
        : null;
    default:
      return null;
  }
}

/** Only the known fields of a proposal's row, with their types: anything else is dropped. */
function proposedSelection(raw: unknown): ProposedSelection {
  const r = (raw ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const out: ProposedSelection = {};
  if (typeof r.indices?.index === 'string') out.indices = { index: r.indices.index };
  const s = r.shards;
  if (s && typeof s.index === 'string' && typeof s.shard === 'number' && typeof s.primary === 'boolean')
    out.shards = { index: s.index, shard: s.shard, primary: s.primary, node: typeof s.node === 'string' ? s.node : null };
  if (typeof r.nodes?.node === 'string') out.nodes = { node: r.nodes.node };
  return out;
}

/** Whether a follower's answer gives the confirmation the change needs (the same the leader typed). */
export function approvalSatisfied(need: ApprovalMessage['need'], text: string | undefined): boolean {
  return need.kind === 'key' || text === need.expected;
}
