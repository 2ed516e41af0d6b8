// The incident timeline of one cluster, kept in <configDir>/timeline/<cluster>.jsonl (0600) and
// appended as it happens (a crash or a dropped SSH session loses nothing): health transitions
// seen by a watching console, notes, and the ends of tasks shardeck started. Changes, recovery
// steps and task starts come from the audit log (every shardeck of this user on the host writes
// it) and the other users' host journals (config/host-journal.ts), merged when read.
import fs from 'node:fs';
import path from 'node:path';
import { clusterLockDir } from '../config/cluster-lock';
import { appendPrivateLine, configDir, ensurePrivateDir } from '../config/files';
import { moveAsideRemedy, readLocalText } from '../config/local-files';
import {
  changesFromAudit,
  clusterKey,
  countsAtRed,
  healthTransition,
  lastHealth,
  mergeTimeline,
  parseTimeline,
  type SeenCounts,
  type TimelineEntry,
} from '../domain/timeline';
import type { HealthStatus } from '../domain/types';
import type { ConsoleStore } from '../store/console';
import { auditFile, readHostChanges } from './audit';

// eslint-disable-next-line no-control-regex -- untrusted text: control characters replaced on purpose
const NOTE_CONTROLS = /[\u0000-\u001f\u007f]/g;

export function timelineFile(url: string): string {
  return path.join(configDir(), 'timeline', `${clusterKey(url)}.jsonl`);
}

export function appendTimeline(url: string, entry: TimelineEntry): void {
  const file = timelineFile(url);
  ensurePrivateDir(path.dirname(file));
  appendPrivateLine(file, JSON.stringify(entry));
}

/**
 * Count entries, appended best effort (a timeline that cannot be written does not fail the caller).
 * url: without credentials.
 */
export function recordCounts(url: string, entries: readonly TimelineEntry[]): void {
  try {
    for (const e of entries) appendTimeline(url, e);
  } catch {
    // the config folder refused: the counts are not on record, and the loss will say so
  }
}

/** The most of a timeline read at once: its last whole lines when longer. */
const MAX_TIMELINE_BYTES = 16 * 1024 * 1024;

function readFileEntries(url: string): TimelineEntry[] {
  const file = timelineFile(url);
  // A torn last line (a crash mid-append) is skipped by parseTimeline; appendPrivateLine starts the next on a line of its own.
  const text = readLocalText(file, MAX_TIMELINE_BYTES, moveAsideRemedy(file, 'shardeck starts a new timeline for this cluster'), {
    tail: true,
  });
  return text === null ? [] : parseTimeline(text);
}

/** The whole timeline of a cluster (URL without credentials), oldest first; since: epoch ms. */
export function readTimeline(url: string, sinceMs?: number): TimelineEntry[] {
  return mergeTimeline(readFileEntries(url), changesFromAudit(readHostChanges(url), url), sinceMs);
}

/**
 * The end of a task shardeck started (its start is in an audit record), appended once: a second
 * process (the wizard and `shardeck tasks ID`) seeing the same end adds nothing. url: without
 * credentials; durationMs: the task's own running time when known, else since its start.
 * Best effort: a timeline that cannot be read or written does not fail the caller. True when appended.
 */
export function recordTaskEnd(url: string, task: string, result: string, durationMs?: number): boolean {
  try {
    const entries = readTimeline(url);
    const start = entries.find((e) => e.kind === 'task' && e.task === task && e.phase === 'start');
    if (!start || entries.some((e) => e.kind === 'task' && e.task === task && e.phase === 'end')) return false;
    const now = new Date();
    appendTimeline(url, {
      kind: 'task',
      time: now.toISOString(),
      phase: 'end',
      task,
      summary: (start as Extract<TimelineEntry, { kind: 'task' }>).summary,
      result,
      durationMs: Math.max(0, Math.round(durationMs ?? now.getTime() - Date.parse(start.time))),
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * The console's recorder: appends each health transition it sees (with the problem shards then
 * known) and keeps the store's timeline up to date when the audit log or the timeline file change
 * (another shardeck's change, a note from another console), through inotify, not polling.
 */
export class TimelineRecorder {
  private unsubscribe?: () => void;
  private watcher?: fs.FSWatcher;
  private reloadTimer?: ReturnType<typeof setTimeout>;
  private last: HealthStatus | null = null;

  constructor(
    private readonly store: ConsoleStore,
    /** The cluster's URL without credentials (the audit records' url). */
    private readonly url: string,
  ) {}

  start(): void {
    const fileEntries = readFileEntries(this.url);
    this.last = lastHealth(fileEntries);
    this.reload();
    let health = this.store.getState().snapshots.health.data;
    let rows = this.store.getState().snapshots.indices.data;
    let seen: SeenCounts | null = null;
    this.unsubscribe = this.store.subscribe((s) => {
      // Each index's documents at the last read before it turned red: what a restore's loss is reckoned from.
      const read = s.snapshots.indices;
      if (read.data && read.data !== rows) {
        rows = read.data;
        const counted = countsAtRed(seen, read.data, read.fetchedAt ?? Date.now(), read.periodMs ?? s.intervalMs);
        seen = counted.seen;
        for (const e of counted.entries) this.append(e);
      }
      const next = s.snapshots.health.data;
      if (next === health) return;
      health = next;
      const entry = healthTransition(this.last, next, s.snapshots.shards.data, new Date());
      if (!entry) return;
      this.last = entry.to;
      this.append(entry);
    });
    try {
      const dir = configDir();
      ensurePrivateDir(path.join(dir, 'timeline'));
      const names = new Set([path.basename(auditFile()), 'timeline']);
      this.watcher = fs.watch(dir, { recursive: false }, (_ev, name) => {
        if (name && names.has(String(name))) this.scheduleReload();
      });
      const timelineWatch = fs.watch(path.dirname(timelineFile(this.url)), () => this.scheduleReload());
      // Another user's change reaches this console through its journal in the shared folder.
      const journalPrefix = `${clusterKey(this.url)}.changes.`;
      let journalWatch: fs.FSWatcher | undefined;
      try {
        journalWatch = fs.watch(clusterLockDir(), (_ev, name) => {
          if (name && String(name).startsWith(journalPrefix)) this.scheduleReload();
        });
      } catch {
        // no shared folder: this user's own changes still show
      }
      const prevClose = this.watcher.close.bind(this.watcher);
      this.watcher.close = () => {
        journalWatch?.close();
        timelineWatch.close();
        prevClose();
      };
    } catch {
      // no inotify: the timeline still shows what this console records
    }
  }

  stop(): void {
    this.unsubscribe?.();
    this.watcher?.close();
    clearTimeout(this.reloadTimer);
  }

  /** A note, from this operator or a follower (the author as the leader identified it). */
  addNote(author: string, text: string): void {
    const clean = text.replace(NOTE_CONTROLS, ' ').trim().slice(0, 500);
    if (!clean) return;
    this.append({ kind: 'note', time: new Date().toISOString(), author, text: clean });
  }

  private append(entry: TimelineEntry): void {
    try {
      appendTimeline(this.url, entry);
    } catch {
      // the config folder refused: the entry still shows in this console
    }
    this.reload([entry]);
  }

  private scheduleReload(): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => this.reload(), 30);
  }

  private reload(extra: TimelineEntry[] = []): void {
    let entries: TimelineEntry[];
    try {
      entries = readTimeline(this.url);
    } catch {
      entries = mergeTimeline([...(this.store.getState().timeline ?? []), ...extra], []);
    }
    const prev = this.store.getState().timeline;
    if (prev && JSON.stringify(prev) === JSON.stringify(entries)) return;
    this.store.setState({ timeline: entries });
  }
}
