// Every saved profile's cluster at once (shardeck fleet, the console's Fleet view). Bounded
// concurrency (a few clusters read at a time) and a deadline per cluster, so one that does not
// answer costs its own slot and never delays the others. Credentials come from each profile as
// for any command (password from its env var or file; never a prompt, never printed).
import { createEsApi } from '../cluster/api';
import { closeClient, createClient } from '../cluster/connection';
import type { EsClient } from '../cluster/connection';
import { resolveConnection } from '../config/connection';
import { listProfiles, type Profile } from '../config/profiles';
import { profileBadge } from '../domain/console/profile-badge';
import { fleetProblemRow, fleetRow, pendingRow, sortFleet, type FleetRow } from '../domain/inspect/fleet';
import { urlForMessage } from '../domain/urls';
import { putFleetRow, type FleetStore } from '../store/fleet';
import { readStatus } from './status';
import { compareText } from '../domain/text/order';

export interface FleetOptions {
  /** Clusters read at the same time. */
  concurrency?: number;
  /** How long one cluster may take to answer all its reads, ms. */
  timeoutMs?: number;
  /**
   * How long one cluster holds its slot, ms: one that has not answered by then reads on until its
   * deadline but lets the next cluster start, so silent clusters never hold back the others' rows.
   */
  slotMs?: number;
  /**
   * How many clusters that outlived their slot may read on at once: past it the next cluster waits
   * for one of them to end, so a fleet with many silent members holds a bounded number of
   * connections (each silent one keeps its socket open until its deadline).
   */
  maxOutlived?: number;
}

export const FLEET_DEFAULTS = { concurrency: 6, timeoutMs: 5000, slotMs: 500, maxOutlived: 18 } as const;

export interface FleetTarget {
  profile: string;
  profileData: Profile;
}

/** The row with its profile's label (domain/console/profile-badge.ts), when it has one. */
function withBadge(t: FleetTarget, row: FleetRow): FleetRow {
  const badge = profileBadge(t.profileData);
  return badge ? { ...row, badge } : row;
}

/** Every saved profile, by name. */
export function fleetTargets(): FleetTarget[] {
  return listProfiles()
    .map(({ name, profile }) => ({ profile: name, profileData: profile }))
    .sort((a, b) => compareText(a.profile, b.profile));
}

/**
 * Reads the clusters of a fleet, again and again if asked: keeps one client per profile (no new
 * TLS handshake per round), at most `concurrency` clusters in flight, each bounded by `timeoutMs`.
 */
export class FleetReader {
  private clients = new Map<string, EsClient | { problem: string }>();
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly slotMs: number;
  private readonly maxOutlived: number;

  constructor(
    private readonly targets: readonly FleetTarget[],
    opts: FleetOptions = {},
  ) {
    this.concurrency = Math.max(1, opts.concurrency ?? FLEET_DEFAULTS.concurrency);
    this.timeoutMs = Math.max(100, opts.timeoutMs ?? FLEET_DEFAULTS.timeoutMs);
    this.slotMs = Math.min(this.timeoutMs, Math.max(1, opts.slotMs ?? FLEET_DEFAULTS.slotMs));
    this.maxOutlived = Math.max(1, opts.maxOutlived ?? FLEET_DEFAULTS.maxOutlived);
  }

  /** The rows before any answer. */
  pending(): FleetRow[] {
    return this.targets.map((t) => withBadge(t, pendingRow(t.profile, urlForMessage(t.profileData.url))));
  }

  /** One round over every cluster; `onRow` hears each as it arrives (the view fills in as they answer). */
  async round(onRow?: (row: FleetRow) => void): Promise<FleetRow[]> {
    const rows: FleetRow[] = [];
    // Reads that outlived their slot: still running, each bounded by its own deadline.
    const slow = new Set<Promise<void>>();
    let next = 0;
    const worker = async () => {
      while (next < this.targets.length) {
        while (slow.size >= this.maxOutlived) await Promise.race(slow);
        if (next >= this.targets.length) break;
        const t = this.targets[next++];
        const read = this.readOne(t).then((one) => {
          const row = withBadge(t, one);
          rows.push(row);
          onRow?.(row);
        });
        let timer: NodeJS.Timeout | undefined;
        const outlived = await Promise.race([
          read.then(() => false),
          new Promise<boolean>((r) => (timer = setTimeout(() => r(true), this.slotMs))),
        ]);
        clearTimeout(timer);
        if (outlived) {
          const held = read.then(() => void slow.delete(held));
          slow.add(held);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, this.targets.length) }, worker));
    await Promise.all(slow);
    return sortFleet(rows);
  }

  private async client(t: FleetTarget): Promise<EsClient | { problem: string }> {
    let c = this.clients.get(t.profile);
    if (!c) {
      try {
        // No prompt: a profile whose password is not available in this process is a row that says so.
        const conn = await resolveConnection({}, t.profileData, undefined);
        // One idle connection kept per cluster between rounds: a fleet of 200 otherwise keeps every
        // socket of each round's reads (~3 a cluster, 565 seen), open on both ends for nothing.
        c = createClient({ ...conn, requestTimeoutMs: this.timeoutMs, maxIdleSockets: 1 });
      } catch (e) {
        c = { problem: (e as Error).message };
      }
      this.clients.set(t.profile, c);
    }
    return c;
  }

  private async readOne(t: FleetTarget): Promise<FleetRow> {
    const url = urlForMessage(t.profileData.url);
    const c = await this.client(t);
    const started = Date.now();
    if ('problem' in c) return fleetProblemRow(t.profile, url, c.problem, started);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // Its reads end with the row: the client and its sockets go (a new one next round), so a
        // silent cluster holds no connection past its deadline.
        this.clients.delete(t.profile);
        void closeClient(c, 0);
        reject(new Error(`no answer within ${this.timeoutMs / 1000}s`));
      }, this.timeoutMs);
    });
    try {
      const report = await Promise.race([readStatus(createEsApi(c, t.profileData.url), 'row'), deadline]);
      return fleetRow(t.profile, url, report, Date.now(), Date.now() - started);
    } catch (e) {
      // How long it was waited for: a row that timed out once said 0 ms, which read as "failed at once".
      return fleetProblemRow(t.profile, url, (e as Error).message, Date.now(), Date.now() - started);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => ('problem' in c ? Promise.resolve() : closeClient(c, 500))));
    this.clients.clear();
  }
}

/**
 * The console's Fleet view: reads the fleet once now and again every `intervalMs` after a round
 * ends (a slow round delays the next, never overlaps it), rows landing in the store as they come.
 */
export class FleetWatcher {
  private timer?: NodeJS.Timeout;
  private stopped = true;

  constructor(
    private readonly reader: FleetReader,
    private readonly store: FleetStore,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.store.setState({ rows: sortFleet(this.reader.pending()), startedAt: Date.now(), fullAt: undefined, rounds: 0 });
    void this.loop();
  }

  private async loop(): Promise<void> {
    if (this.stopped) return;
    await this.reader.round((row) => {
      if (!this.stopped) putFleetRow(this.store, row);
    });
    if (this.stopped) return;
    this.store.setState((s) => ({ rounds: s.rounds + 1, fullAt: s.fullAt ?? Date.now() }));
    this.timer = setTimeout(() => void this.loop(), this.store.getState().intervalMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.reader.close();
  }
}
