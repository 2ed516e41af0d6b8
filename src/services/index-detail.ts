// Reads the index detail outside React while it is open: stats and shards every poll interval (the
// rates come from two stats reads), settings (with defaults), the mapping and the matching template
// when it opens and then every SLOW_EVERY intervals (they change rarely; the Settings resource of
// cluster/resources.ts is read as seldom), with the poller's backoff on failure. Nothing is read while the detail is
// closed, the console is paused, or another pane is on screen; leaving aborts what is in flight.
import { setMaxListeners } from 'node:events';
import type { EsApi } from '../cluster/api';
import type { ConnError } from '../cluster/connection';
import { detailRequests } from '../cluster/inspect';
import type { IndexDetail } from '../domain/inspect/index-detail';
import type { Snapshot } from '../domain/snapshot';
import type { ConsoleStore } from '../store/console';
import { patchIndexDetail } from '../store/index-detail';
import { backoffMs } from './poller';

/**
 * One signal for every read in flight, each adding a listener: a stalled node can hold all of them
 * at once, past Node's default of 10, whose warning would be written over the console's screen.
 */
function readsAbort(): AbortController {
  const c = new AbortController();
  setMaxListeners(64, c.signal);
  return c;
}

export type DetailReads = Pick<EsApi, 'indexSettings' | 'indexMappings' | 'templateFor' | 'indexShards' | 'indexStats' | 'aliasesOfIndex'>;

type SnapKey = 'settings' | 'mappings' | 'template' | 'shards' | 'stats' | 'aliases';

/** Settings, mapping and template are read again every this many poll intervals. */
export const SLOW_EVERY = 6;

export class IndexDetailPoller {
  /** Requests sent, for tests and the benchmark. */
  readonly stats = { requests: 0 };
  private current?: string;
  private abort = readsAbort();
  private timer?: ReturnType<typeof setTimeout>;
  private unsubscribe?: () => void;
  private polling = false;
  /** Polls since the slow reads were last made. */
  private sinceSlow = 0;

  constructor(
    private readonly reads: DetailReads,
    private readonly store: ConsoleStore,
  ) {}

  start(): void {
    this.unsubscribe = this.store.subscribe(() => this.reconcile());
    this.reconcile();
  }

  stop(): void {
    this.unsubscribe?.();
    this.leave();
  }

  /** Reads every section again now (the refresh key). */
  async refreshNow(): Promise<void> {
    const index = this.current;
    if (index) await Promise.all([this.loadOnce(index), this.poll(index)]);
  }

  private active(): boolean {
    const s = this.store.getState();
    return s.indexDetail !== undefined && s.pane === 'indices' && !s.paused;
  }

  private reconcile(): void {
    const s = this.store.getState();
    const index = s.indexDetail?.index;
    if (index !== this.current) {
      this.leave();
      this.current = index;
      this.sinceSlow = 0;
      if (index === undefined) return;
      patchIndexDetail(this.store, index, () => ({ requests: detailRequests(index) }));
      void this.loadOnce(index);
      this.schedule(index, 0);
      return;
    }
    // Back on the Indices pane, or resumed: poll again at once.
    if (index !== undefined && this.timer === undefined && !this.polling && this.active()) this.schedule(index, 0);
  }

  private leave(): void {
    this.abort.abort();
    this.abort = readsAbort();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.current = undefined;
  }

  private schedule(index: string, delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tick(index);
    }, delayMs);
  }

  private async tick(index: string): Promise<void> {
    if (this.current !== index || !this.active()) return;
    if (++this.sinceSlow >= SLOW_EVERY) {
      this.sinceSlow = 0;
      void this.loadOnce(index);
    }
    await this.poll(index);
    if (this.current !== index || !this.active()) return;
    const s = this.store.getState();
    const failures = Math.max(s.indexDetail?.stats.failures ?? 0, s.indexDetail?.shards.failures ?? 0);
    this.schedule(index, failures ? backoffMs(s.intervalMs, failures) : s.intervalMs);
  }

  private async poll(index: string): Promise<void> {
    this.polling = true;
    try {
      await Promise.all([
        this.read(index, 'stats', (signal) =>
          this.reads.indexStats(index, signal).then((r) => r?.indices[index] ?? r?.indices[Object.keys(r.indices)[0]] ?? null),
        ),
        this.read(index, 'shards', (signal) => this.reads.indexShards(index, signal)),
      ]);
    } finally {
      this.polling = false;
    }
  }

  private async loadOnce(index: string): Promise<void> {
    await Promise.all([
      this.read(index, 'settings', (signal) =>
        this.reads.indexSettings(index, true, signal).then((r) => r?.find((x) => x.index === index) ?? r?.[0] ?? null),
      ),
      this.read(index, 'mappings', (signal) =>
        this.reads.indexMappings(index, signal).then((r) => (r ? ((r[index] ?? Object.values(r)[0])?.mappings ?? {}) : null)),
      ),
      this.read(index, 'template', (signal) => this.reads.templateFor(index, signal)),
      this.read(index, 'aliases', (signal) => this.reads.aliasesOfIndex(index, signal)),
    ]);
  }

  /** One read into its snapshot; null (the index is gone) becomes an error that says so. */
  private async read<K extends SnapKey>(
    index: string,
    key: K,
    fetch: (signal: AbortSignal) => Promise<NonNullable<IndexDetail[K]>['data'] | null>,
  ): Promise<void> {
    const signal = this.abort.signal;
    try {
      const data = await fetch(signal);
      this.stats.requests++;
      if (signal.aborted) return;
      const now = Date.now();
      if (data === null || data === undefined) {
        patchIndexDetail(this.store, index, (d) => ({
          [key]: failed(d[key] ?? NOT_READ, 'not-found', `${index} no longer exists: press Esc to go back`),
        }));
        return;
      }
      patchIndexDetail(this.store, index, (d) => ({
        ...(key === 'stats' && d.stats.data && d.stats.fetchedAt !== undefined
          ? { previousStats: { data: d.stats.data, fetchedAt: d.stats.fetchedAt } }
          : {}),
        [key]: {
          data,
          fetchedAt: now,
          failures: 0,
          periodMs: key === 'stats' || key === 'shards' ? undefined : this.store.getState().intervalMs * SLOW_EVERY,
        },
      }));
    } catch (e) {
      this.stats.requests++;
      const err = e as ConnError;
      if (err.kind === 'aborted' || signal.aborted) return;
      patchIndexDetail(this.store, index, (d) => ({ [key]: failed(d[key] ?? NOT_READ, err.kind ?? 'unknown', err.message) }));
    }
  }
}

/** A snapshot not read yet (the aliases of a detail made before they were read). */
const NOT_READ = { failures: 0 };

function failed<T>(prev: Snapshot<T>, kind: string, message: string): Snapshot<T> {
  return { ...prev, error: { kind, message }, failures: prev.failures + 1 };
}
