// The leader's side of a shared console: a Unix socket (0600 in a 0700 folder, or 0660 for
// --share-group) that up to 8 followers join. Followers get what the leader already fetched (a
// whitelist of the store, domain/share.ts), never a credential, and never make the leader wait: a
// write is never awaited, and a follower whose unread bytes pile up is dropped. A peer is
// identified by its socket's owner (services/peer.ts), or else by the one-time join token (it then
// follows but never approves: it may be the leader's own user); a stranger is refused and shown to
// the leader. With --require-approval this is the Guard's Approver: a change waits for a follower
// to approve the same preview (four eyes).
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { lookupGroup, primaryGid, shareDir, userName } from '../config/runtime';
import {
  approvalRefusal,
  approvalSatisfied,
  CONNECT_BURST,
  CONNECTS_PER_SECOND,
  FOLLOWER_BURST,
  FOLLOWER_PER_SECOND,
  LineSplitter,
  MAX_OVER_LIMIT,
  NOTE_BURST,
  NOTES_PER_SECOND,
  RateBucket,
  tokenMatches,
  MAX_FOLLOWER_LINE,
  MAX_FOLLOWERS,
  MAX_IDENTIFYING,
  MAX_UNREAD_BYTES,
  TOO_MANY_CONNECTIONS,
  parseFollowerMessage,
  sharedState,
  stateDiff,
  type ApprovalMessage,
  type ApprovalRequest,
  type Focus,
  type LeaderMessage,
  type ProposedSelection,
  type SharedState,
} from '../domain/share';
import type { ConsoleStore, SharePeer, ShareView } from '../store/console';
import { peerOf, type PeerIdentity } from '../boundary/peer';
import { GuardRefusal, hostUser, type Approver } from './guard';

export interface FocusSource {
  get(): Focus;
  subscribe(cb: () => void): () => void;
}

export interface ShareOptions {
  /** Share with this group too (socket 0660, folder 0710). */
  group?: string;
  requireApproval?: boolean;
  /** The leader's pane and selection, for followers that follow it. */
  focus?: FocusSource;
  /** A note a follower sends, with its author. */
  onNote?: (author: string, text: string) => void;
  /** A change a follower proposes: the leader's console opens the wizard for review. */
  onPropose?: (author: string, wizard: string, selection: ProposedSelection) => void;
  /** Where the socket goes; a fresh one in the share folder by default. */
  socketPath?: string;
  /** How long a change waits for a follower's approval. */
  approvalTimeoutMs?: number;
  /**
   * Who is at the other end of a socket (services/peer.ts: the kernel's answer). Tests that need a
   * peer whose uid cannot be read (a non-root leader and another user's follower) pass one that
   * answers null; nothing else does.
   */
  identify?: (socket: net.Socket) => Promise<PeerIdentity | null>;
}

interface Peer extends SharePeer {
  socket: net.Socket;
  joined: boolean;
  /** From the kernel (services/peer.ts); absent for a peer that joined with the token. */
  uid?: number;
  /** Every message, and notes on their own (each lands on the timeline file and screen). */
  rate: RateBucket;
  notes: RateBucket;
  overLimit: number;
}

interface Pending {
  request: ApprovalMessage;
  resolve: (v: { approvedBy: string }) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

const FLUSH_MS = 50;

export class ShareServer implements Approver {
  private server?: net.Server;
  private peers = new Set<Peer>();
  /** Every accepted connection, joined or not, so stop() ends them all. */
  private conns = new Set<net.Socket>();
  private nextId = 1;
  private lastSent?: SharedState;
  private unsubscribe: (() => void)[] = [];
  private flushTimer?: ReturnType<typeof setTimeout>;
  private agesTimer?: ReturnType<typeof setInterval>;
  private lastAges = '';
  private pending?: Pending;
  private token = crypto.randomBytes(12).toString('base64url');
  /** The leader's own process and OS user: never the second pair of eyes. */
  private readonly leader = { uid: process.getuid?.() ?? 0, user: hostUser(), pid: process.pid };
  private allowed: { uids: Set<number>; gid?: number; members: Set<string> } = { uids: new Set(), members: new Set() };
  /** New connections, taken before their peer is looked up: a flood is refused cheaply. */
  private connects = new RateBucket(CONNECT_BURST, CONNECTS_PER_SECOND);
  /** Look-ups running now, and the connections waiting their turn. */
  private identifying = 0;
  private identifyQueue: (() => void)[] = [];
  private floodToldAt = 0;
  /** Bytes written to followers (the benchmark and the secret-grep test read it); connections refused as too many. */
  readonly stats = { bytes: 0, messages: 0, dropped: 0, tooMany: 0 };
  socketPath = '';

  constructor(
    private readonly store: ConsoleStore,
    private readonly opts: ShareOptions = {},
  ) {}

  get required(): boolean {
    return Boolean(this.opts.requireApproval);
  }

  /** The one-time join token for a follower whose uid cannot be read (printed to the leader only). */
  get joinToken(): string {
    return this.token;
  }

  async start(): Promise<string> {
    const group = this.opts.group ? lookupGroup(this.opts.group) : undefined;
    const uid = process.getuid?.() ?? 0;
    this.allowed = { uids: new Set([uid, 0]), ...(group ? { gid: group.gid } : {}), members: new Set(group?.members ?? []) };
    const dir = this.opts.socketPath ? path.dirname(this.opts.socketPath) : shareDir(group);
    const file = this.opts.socketPath ?? path.join(dir, `console-${process.pid}.sock`);
    try {
      if (fs.lstatSync(file).isSocket()) fs.unlinkSync(file);
    } catch {
      // not there
    }
    const server = net.createServer((socket) => void this.accept(socket));
    // A hard cap above what the rate lets through, so a connection past the rate is told why.
    // A refused connection lingers up to REFUSED_LINGER_MS, so a burst of 200 arriving in one accept
    // batch must fit under it, or the excess would be closed without a word.
    server.maxConnections = MAX_OPEN_CONNECTIONS;
    // The socket is created with the umask's mode: a umask of 0 would leave it 0777 until chmod.
    const oldMask = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(file, () => resolve());
      });
    } finally {
      process.umask(oldMask);
    }
    if (group) {
      fs.chownSync(file, uid, group.gid);
      fs.chmodSync(file, 0o660);
    } else fs.chmodSync(file, 0o600);
    this.server = server;
    this.socketPath = file;
    this.patchView({
      role: 'leader',
      socket: file,
      followers: [],
      refused: [],
      requireApproval: this.required,
      joinHint: `shardeck follow ${file}`,
      token: this.token,
    });
    this.unsubscribe.push(this.store.subscribe(() => this.scheduleFlush()));
    if (this.opts.focus)
      this.unsubscribe.push(this.opts.focus.subscribe(() => this.broadcast({ t: 'focus', focus: this.opts.focus!.get() })));
    // A poll that brought the same data moves only its time (touchSnapshot, no store event).
    this.agesTimer = setInterval(() => this.sendAges(), 1000);
    this.agesTimer.unref();
    return file;
  }

  async stop(reason = 'the leader stopped sharing'): Promise<void> {
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    clearTimeout(this.flushTimer);
    clearInterval(this.agesTimer);
    this.pending?.reject(new GuardRefusal('unapproved', 'sharing stopped before a follower approved: nothing was sent'));
    for (const p of this.peers) {
      p.socket.end(JSON.stringify({ t: 'bye', reason } satisfies LeaderMessage) + '\n');
      p.socket.destroySoon();
    }
    this.peers.clear();
    for (const c of this.conns) c.destroySoon();
    this.conns.clear();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server = undefined;
    try {
      fs.unlinkSync(this.socketPath);
    } catch {
      // gone
    }
    this.store.setState({ share: undefined });
  }

  /** Four eyes: the same preview goes to the followers; the first that confirms it approves. */
  approve(req: ApprovalRequest): Promise<{ approvedBy: string }> {
    const joined = [...this.peers].filter((p) => p.joined);
    if (joined.length === 0) {
      const msg =
        "this change needs a follower's approval (--require-approval) and nobody follows this console: nothing was sent; a second operator runs shardeck follow " +
        this.socketPath;
      this.patchView({ message: msg });
      return Promise.reject(new GuardRefusal('unapproved', msg));
    }
    if (this.pending)
      return Promise.reject(new GuardRefusal('unapproved', 'another change is already waiting for approval: nothing was sent'));
    const request: ApprovalMessage = { id: req.id, ...req.preview, need: req.need, proposedBy: req.proposedBy };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.settle(new GuardRefusal('unapproved', 'no follower approved within the time allowed: nothing was sent')),
        this.opts.approvalTimeoutMs ?? 600_000,
      );
      this.pending = { request, resolve, reject, timer };
      this.patchView({ approval: request, message: `waiting for a follower to approve: ${request.summary}` });
      for (const peer of joined) this.askApproval(peer, request);
    });
  }

  private settle(result: Error | { approvedBy: string }): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    clearTimeout(p.timer);
    this.patchView({ approval: undefined, message: result instanceof Error ? result.message : `approved by ${result.approvedBy}` });
    this.broadcast({ t: 'approval', request: null });
    if (result instanceof Error) p.reject(result);
    else p.resolve(result);
  }

  private async accept(socket: net.Socket): Promise<void> {
    socket.on('error', () => undefined);
    this.conns.add(socket);
    socket.on('close', () => this.conns.delete(socket));
    const joinedCount = [...this.peers].filter((p) => p.joined).length;
    if (joinedCount >= MAX_FOLLOWERS) {
      this.refuse(socket, 'a follower', `this console already has ${MAX_FOLLOWERS} followers`);
      return;
    }
    if (!this.connects.take(Date.now())) {
      this.refuseTooMany(socket);
      return;
    }
    const who = await this.identifyInTurn(socket);
    if (socket.destroyed) return;
    const peer: Peer = {
      id: this.nextId++,
      user: who ? userName(who.uid) : 'unknown',
      ...(who ? { pid: who.pid, uid: who.uid } : {}),
      via: who ? 'uid' : 'token',
      socket,
      joined: false,
      rate: new RateBucket(FOLLOWER_BURST, FOLLOWER_PER_SECOND),
      notes: new RateBucket(NOTE_BURST, NOTES_PER_SECOND),
      overLimit: 0,
    };
    if (who && !this.uidAllowed(who.uid)) {
      this.refuse(socket, `${peer.user} (uid ${who.uid}, pid ${who.pid})`, 'this user may not follow this console');
      return;
    }
    this.peers.add(peer);
    const lines = new LineSplitter(MAX_FOLLOWER_LINE);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      let got: string[];
      try {
        got = lines.push(chunk);
      } catch {
        this.drop(peer, 'it sent a line too long');
        return;
      }
      for (const line of got) this.onLine(peer, line);
    });
    socket.on('close', () => this.drop(peer));
    // A peer that says nothing is not left half-joined.
    setTimeout(() => {
      if (!peer.joined && this.peers.has(peer)) this.drop(peer, 'it did not say hello');
    }, 5000).unref();
  }

  /** Looks the peer up, at most MAX_IDENTIFYING at once; one that left while waiting is not looked up. */
  private async identifyInTurn(socket: net.Socket): Promise<PeerIdentity | null> {
    if (this.identifying >= MAX_IDENTIFYING) await new Promise<void>((resolve) => this.identifyQueue.push(resolve));
    else this.identifying++;
    try {
      return socket.destroyed ? null : await (this.opts.identify ?? peerOf)(socket).catch(() => null);
    } finally {
      // The slot passes to the next waiting connection, or is freed.
      const next = this.identifyQueue.shift();
      if (next) next();
      else this.identifying--;
    }
  }

  /** A connection past the rate: one line and closed, before any look-up; the leader told at most once a second. */
  private refuseTooMany(socket: net.Socket): void {
    sayRefusedAndClose(socket, TOO_MANY_CONNECTIONS);
    this.stats.tooMany++;
    const now = Date.now();
    if (now - this.floodToldAt < 1000) return;
    this.floodToldAt = now;
    this.patchView({ message: `refusing connections: too many at once (${this.stats.tooMany} refused so far)` });
  }

  private uidAllowed(uid: number): boolean {
    if (this.allowed.uids.has(uid)) return true;
    if (this.allowed.gid === undefined) return false;
    return primaryGid(uid) === this.allowed.gid || this.allowed.members.has(userName(uid));
  }

  private refuse(socket: net.Socket, who: string, why: string): void {
    sayRefusedAndClose(socket, why);
    const view = this.store.getState().share;
    this.patchView({ refused: [...(view?.refused ?? []), `${new Date().toISOString().slice(11, 19)} ${who}: ${why}`].slice(-5) });
  }

  /** Past its rate a follower's message is ignored; one that keeps flooding is dropped. */
  private overLimit(peer: Peer, bucket: RateBucket): boolean {
    if (bucket.take(Date.now())) return false;
    if (++peer.overLimit === 1) this.patchView({ message: `follower ${peer.user} sends too fast: its messages are ignored for now` });
    if (peer.overLimit >= MAX_OVER_LIMIT) this.drop(peer, 'it sent too many messages');
    return true;
  }

  private onLine(peer: Peer, line: string): void {
    if (!this.peers.has(peer) || this.overLimit(peer, peer.rate)) return;
    const m = parseFollowerMessage(line);
    if (!peer.joined && m?.t !== 'hello') {
      // Anything but a hello first (garbage, binary, another message) ends the connection, told why.
      this.peers.delete(peer);
      this.refuse(peer.socket, `${peer.user}${peer.pid ? ` (pid ${peer.pid})` : ''}`, 'the first message was not a hello');
      return;
    }
    if (!m) return;
    if (!peer.joined && m.t === 'hello') {
      if (peer.via === 'token' && !tokenMatches(m.token, this.token)) {
        this.peers.delete(peer);
        this.refuse(peer.socket, 'a peer whose user could not be read', 'the join token is missing or wrong');
        return;
      }
      // Checked again here: connections accepted together were looked up while none had joined.
      if ([...this.peers].filter((p) => p.joined).length >= MAX_FOLLOWERS) {
        this.peers.delete(peer);
        this.refuse(
          peer.socket,
          `${peer.user}${peer.pid ? ` (pid ${peer.pid})` : ''}`,
          `this console already has ${MAX_FOLLOWERS} followers`,
        );
        return;
      }
      if (peer.via === 'token') {
        this.token = crypto.randomBytes(12).toString('base64url'); // one-time
        this.patchView({ token: this.token });
      }
      peer.joined = true;
      this.send(peer, { t: 'hello', leader: `${hostUser()} pid ${process.pid}`, you: peer.user });
      this.send(peer, { t: 'state', state: sharedState(this.store.getState()) });
      if (this.opts.focus) this.send(peer, { t: 'focus', focus: this.opts.focus.get() });
      if (this.pending) this.askApproval(peer, this.pending.request);
      this.updatePeers();
      return;
    }
    switch (m.t) {
      case 'note':
        if (this.overLimit(peer, peer.notes)) return;
        this.opts.onNote?.(peer.user, m.text);
        return;
      case 'propose':
        this.opts.onPropose?.(peer.user, m.wizard, m.selection);
        return;
      case 'approve': {
        const p = this.pending;
        if (!p || p.request.id !== m.id) return;
        if (!approvalSatisfied(p.request.need, m.text)) {
          this.askApproval(peer, p.request);
          return;
        }
        const refusal = this.refusalFor(peer, p.request);
        if (refusal) {
          // The request stays open for a second person; this follower is told why its y did nothing.
          this.patchView({ message: `not approved: ${refusal}; still waiting for another follower` });
          this.send(peer, { t: 'notice', text: `you cannot approve: ${refusal}` });
          return;
        }
        this.settle({ approvedBy: peer.user });
        return;
      }
      case 'decline':
        if (this.pending?.request.id === m.id)
          this.settle(new GuardRefusal('unapproved', `${peer.user} declined the change: nothing was sent`));
        return;
      default:
        return;
    }
  }

  /** Why this follower may not approve the request (four eyes: another person), or null. */
  private refusalFor(peer: Peer, request: ApprovalMessage): string | null {
    return approvalRefusal(
      { user: peer.user, ...(peer.uid !== undefined ? { uid: peer.uid } : {}), ...(peer.pid !== undefined ? { pid: peer.pid } : {}) },
      this.leader,
      request.proposedBy,
    );
  }

  /** Each follower sees the change; one that may not approve it is told so up front. */
  private askApproval(peer: Peer, request: ApprovalMessage): void {
    const refusal = this.refusalFor(peer, request);
    this.send(peer, { t: 'approval', request: refusal ? { ...request, cannotApprove: refusal } : request });
  }

  private drop(peer: Peer, why?: string): void {
    if (!this.peers.delete(peer)) return;
    if (why) this.stats.dropped++;
    peer.socket.destroy();
    this.updatePeers(why ? `dropped follower ${peer.user}: ${why}` : undefined);
    if (this.pending && ![...this.peers].some((p) => p.joined))
      this.settle(new GuardRefusal('unapproved', 'the last follower left before approving: nothing was sent'));
  }

  private updatePeers(message?: string): void {
    const followers = [...this.peers].filter((p) => p.joined).map(({ id, user, pid, via }) => ({ id, user, ...(pid ? { pid } : {}), via }));
    this.patchView({ followers, ...(message ? { message } : {}) });
  }

  private patchView(patch: Partial<ShareView>): void {
    const cur = this.store.getState().share ?? { role: 'leader' as const, followers: [], refused: [] };
    this.store.setState({ share: { ...cur, ...patch } });
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush();
    }, FLUSH_MS);
  }

  private flush(): void {
    const next = sharedState(this.store.getState());
    const diff = stateDiff(this.lastSent, next);
    this.lastSent = next;
    if (diff) this.broadcast({ t: 'state', state: diff });
  }

  private sendAges(): void {
    const fetchedAt: Record<string, number> = {};
    for (const [name, snap] of Object.entries(this.store.getState().snapshots))
      if (snap.fetchedAt !== undefined) fetchedAt[name] = snap.fetchedAt;
    const text = JSON.stringify(fetchedAt);
    if (text === this.lastAges) return;
    this.lastAges = text;
    this.broadcast({ t: 'ages', fetchedAt });
  }

  /** One serialisation for every follower; a follower that stopped reading is dropped. */
  private broadcast(m: LeaderMessage): void {
    const joined = [...this.peers].filter((p) => p.joined);
    if (joined.length === 0) return;
    const line = JSON.stringify(m) + '\n';
    for (const p of joined) this.write(p, line);
  }

  private send(peer: Peer, m: LeaderMessage): void {
    this.write(peer, JSON.stringify(m) + '\n');
  }

  private write(peer: Peer, line: string): void {
    if (peer.socket.writableLength > MAX_UNREAD_BYTES) {
      this.drop(peer, 'it stopped reading');
      return;
    }
    this.stats.bytes += Buffer.byteLength(line);
    this.stats.messages++;
    peer.socket.write(line);
  }
}

/** A refused connection is not torn down under the peer: it keeps only the open files this cap allows. */
const MAX_OPEN_CONNECTIONS = 256;
const REFUSED_LINGER_MS = 2000;

/**
 * Says why and half-closes, then reads and discards what the peer still sends (its hello) until it
 * closes or the linger ends: destroyed at once, the peer's hello would meet EPIPE and it would lose
 * the reason in its receive buffer.
 */
function sayRefusedAndClose(socket: net.Socket, reason: string): void {
  socket.end(JSON.stringify({ t: 'refused', reason } satisfies LeaderMessage) + '\n');
  socket.resume();
  setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
}
