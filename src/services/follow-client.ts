// The follower's side of a shared console: it feeds its own store from the leader's socket
// instead of a poller (it holds no credential and never talks to the cluster), so the same panes
// render at the follower's own size. When the leader goes, the last data stays on screen, marked
// stale, and the follower says so.
import net from 'node:net';
import {
  LineSplitter,
  type ProposedSelection,
  type Focus,
  type FollowerMessage,
  type LeaderMessage,
  type SharedState,
} from '../domain/share';
import type { ResourceName } from '../cluster/resources';
import { touchSnapshot, type ConsoleStore, type ShareView, type Snapshots } from '../store/console';

export class FollowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FollowError';
  }
}

export interface FollowOptions {
  token?: string;
  /** The leader's pane and selection arrived (applied by the caller while following). */
  onFocus?: (focus: Focus) => void;
}

const LEADER_LINE_MAX = 256 * 1024 * 1024;

export class FollowClient {
  private socket?: net.Socket;
  private lastFocus?: Focus;
  /** Bytes received (the benchmark's lag and the secret-grep test read them). */
  readonly stats = { bytes: 0, messages: 0, lastMessageAt: 0 };

  constructor(
    private readonly store: ConsoleStore,
    private readonly socketPath: string,
    private readonly opts: FollowOptions = {},
  ) {}

  /** Connects and waits for the leader's hello; refusals and unreachable sockets throw FollowError with what to do. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (msg: string) => {
        if (settled) return;
        settled = true;
        reject(new FollowError(msg));
      };
      const socket = net.createConnection(this.socketPath);
      this.socket = socket;
      socket.setEncoding('utf8');
      const lines = new LineSplitter(LEADER_LINE_MAX);
      socket.on('connect', () => this.send({ t: 'hello', ...(this.opts.token ? { token: this.opts.token } : {}) }));
      socket.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'EACCES')
          fail(
            `permission denied on ${this.socketPath}: the leader shares only with its own user; ask them to share with --share-group GROUP (a group you are in)`,
          );
        else if (e.code === 'ENOENT' || e.code === 'ECONNREFUSED')
          fail(`nobody shares on ${this.socketPath}: the leader presses s (or runs shardeck --share) and gives you the path it prints`);
        else fail(`cannot follow ${this.socketPath}: ${e.message}`);
      });
      socket.on('data', (chunk: string) => {
        this.stats.bytes += Buffer.byteLength(chunk);
        for (const line of lines.push(chunk)) {
          let m: LeaderMessage;
          try {
            m = JSON.parse(line) as LeaderMessage;
          } catch {
            continue;
          }
          this.stats.messages++;
          this.stats.lastMessageAt = Date.now();
          if (m.t === 'refused') fail(`the leader refused this follower: ${m.reason}`);
          if (m.t === 'hello' && !settled) {
            settled = true;
            this.patchView({ role: 'follower', socket: this.socketPath, leader: m.leader, followers: [], refused: [], following: true });
            resolve();
          }
          this.apply(m);
        }
      });
      socket.on('close', () => {
        if (!settled) fail(`the leader closed the connection on ${this.socketPath} before it said hello`);
        else this.leaderGone();
      });
    });
  }

  stop(): void {
    this.socket?.destroy();
  }

  note(text: string): void {
    this.send({ t: 'note', text });
  }

  approve(id: string, text?: string): void {
    this.send({ t: 'approve', id, ...(text !== undefined ? { text } : {}) });
  }

  decline(id: string): void {
    this.send({ t: 'decline', id });
  }

  /** Proposes a change: the leader's console opens this wizard on this row for the leader to review. */
  propose(wizard: string, selection: ProposedSelection): void {
    this.send({ t: 'propose', wizard, selection });
    this.patchView({
      message: `proposed to the leader: ${wizard}${selection.indices ? ` of ${selection.indices.index}` : selection.shards ? ` of ${selection.shards.index}[${selection.shards.shard}]` : ''}`,
    });
  }

  /** f: follow the leader's pane and selection again (applied at once), or look around alone. */
  toggleFollowing(): void {
    const following = !this.store.getState().share?.following;
    this.patchView({ following });
    if (following && this.lastFocus) this.opts.onFocus?.(this.lastFocus);
  }

  private send(m: FollowerMessage): void {
    if (this.socket && !this.socket.destroyed) this.socket.write(JSON.stringify(m) + '\n');
  }

  private apply(m: LeaderMessage): void {
    switch (m.t) {
      case 'state':
        this.applyState(m.state);
        return;
      case 'ages':
        for (const [name, at] of Object.entries(m.fetchedAt)) {
          if (name in this.store.getState().snapshots) touchSnapshot(this.store, name as ResourceName, at);
        }
        return;
      case 'focus':
        this.lastFocus = m.focus;
        if (this.store.getState().share?.following) this.opts.onFocus?.(m.focus);
        return;
      case 'approval':
        this.patchView({ approval: m.request ?? undefined });
        return;
      case 'bye':
        this.patchView({ message: m.reason });
        return;
      case 'notice':
        this.patchView({ message: String(m.text) });
        return;
      default:
        return;
    }
  }

  private applyState(st: SharedState): void {
    const s = this.store.getState();
    const patch: Record<string, unknown> = {};
    if (st.snapshots) patch.snapshots = { ...s.snapshots, ...st.snapshots };
    if (st.intervalMs !== undefined) patch.intervalMs = st.intervalMs;
    if (st.paused !== undefined) patch.paused = st.paused;
    // A follower never changes anything: the dangerous keys are gone, whatever the leader is.
    if (st.connection) patch.connection = { ...st.connection, readOnly: true };
    if (st.platform) patch.platform = st.platform;
    if (st.projects) patch.projects = st.projects;
    if (st.templateVersion) patch.templateVersion = st.templateVersion;
    if (st.timeline) patch.timeline = st.timeline;
    if (st.doctor) patch.doctor = st.doctor;
    if (st.requireApproval !== undefined) patch.share = { ...(s.share as ShareView), requireApproval: st.requireApproval };
    this.store.setState(patch);
  }

  private leaderGone(): void {
    const s = this.store.getState();
    const at = Math.max(0, ...Object.values(s.snapshots).map((x) => x.fetchedAt ?? 0));
    const when = at ? new Date(at).toISOString().slice(11, 19) + ' UTC' : 'never';
    const message = `the leader is gone: the data shown is the last it sent (${when}), stale`;
    // Every pane's frame shows it as a failed read: STALE, with this sentence.
    const snapshots = Object.fromEntries(
      Object.entries(s.snapshots).map(([k, v]) => [k, { ...v, error: { kind: 'leader-gone', message } }]),
    ) as Snapshots;
    this.store.setState({ snapshots, paused: true, share: { ...(s.share as ShareView), leaderGone: true, approval: undefined, message } });
  }

  private patchView(patch: Partial<ShareView>): void {
    const cur = this.store.getState().share ?? { role: 'follower' as const, followers: [], refused: [] };
    this.store.setState({ share: { ...cur, ...patch } });
  }
}
