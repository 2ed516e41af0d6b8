// The incident timeline, as plain values: what happened to one cluster, in order. Health
// transitions (with the shards that caused them) and notes are appended to a file per cluster
// (services/timeline.ts); changes and recovery steps come from the audit records; the console,
// `shardeck incident` and its Markdown export all read the same entries from here.
import { countOf } from './text/format';
import { unassignedPrimaries } from './inspect/status';
import type { TaskProgress } from './delete/task';
import { isHostRead, type AuditRecord } from './mutation/audit';
import type { ClusterHealth, HealthStatus, IndexRow, ShardRow } from './types';
import { displayText } from './text/display-text';

export type TimelineEntry =
  | {
      kind: 'health';
      time: string;
      from: HealthStatus | null;
      to: HealthStatus;
      unassigned: number;
      unassignedPrimaries: number;
      shards: string[];
      by?: string;
    }
  | { kind: 'note'; time: string; author: string; text: string }
  | {
      kind: 'change';
      time: string;
      who: string;
      summary: string;
      target: string;
      request?: string;
      command?: string;
      result: string;
      id?: string;
      task?: string;
      approvedBy?: string;
      claims?: string;
    }
  | { kind: 'read'; time: string; who: string; summary: string; command: string; result: string; id?: string }
  | { kind: 'task'; time: string; phase: 'start' | 'end'; task: string; summary: string; result?: string; durationMs?: number }
  /**
   * The documents an index held, as shardeck read them (_cat/indices docs.count) at `time`: the
   * console's last read before the index turned red (`before: 'red'`), or a count taken right
   * before a snapshot of it was sent (`snapshot`: repository/name). What a restore's loss is
   * reckoned from (domain/corruption/loss.ts).
   */
  | { kind: 'count'; time: string; index: string; docs: number; before?: 'red'; snapshot?: string };

/** A file name for a cluster's timeline, from its URL without credentials. */
export function clusterKey(url: string): string {
  return (
    url
      .replace(/^https?:\/\//, '')
      .replace(/[^A-Za-z0-9.-]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'cluster'
  );
}

const MAX_SHARDS_NAMED = 20;

/** The problem shards of a health change ("index[0] r UNASSIGNED NODE_LEFT"), at most 20. */
export function problemShards(shards: readonly ShardRow[] | undefined): string[] {
  return (shards ?? [])
    .filter((s) => s.state !== 'STARTED')
    .slice(0, MAX_SHARDS_NAMED)
    .map((s) => `${s.index}[${s.shard}] ${s.primary ? 'p' : 'r'} ${s.state}${s.unassignedReason ? ` ${s.unassignedReason}` : ''}`);
}

/** A transition entry when the status changed (the first status seen is one too: the start). */
export function healthTransition(
  prev: HealthStatus | null | undefined,
  next: ClusterHealth | undefined,
  shards: readonly ShardRow[] | undefined,
  at: Date,
): Extract<TimelineEntry, { kind: 'health' }> | null {
  if (!next || prev === next.status) return null;
  return {
    kind: 'health',
    time: at.toISOString(),
    from: prev ?? null,
    to: next.status,
    unassigned: next.unassignedShards,
    unassignedPrimaries: unassignedPrimaries(next, shards),
    shards: next.status === 'green' ? [] : problemShards(shards),
  };
}

/** What the console last counted of each index that was not red: its documents, when, and whether the last rows counted it. */
export type SeenCounts = Map<string, { docs: number; at: number; fresh: boolean }>;

/**
 * The count entries of the indices that turned red in `rows` (read at `at`, `periodMs` after the
 * read before): each one's documents at the console's last read that counted it. A row counts an
 * index when it is open, green or yellow, and its primaries answered (a store size: docs.count is
 * empty, read as 0, while a primary is not started); a row that does not (closed, reopening)
 * keeps the count before it. Rows that did not change are not parsed again, so an index counted
 * in the last rows held that count until the read before the red one. docs.count of _cat/indices.
 */
export function countsAtRed(
  seen: SeenCounts | null,
  rows: readonly Pick<IndexRow, 'name' | 'health' | 'status' | 'docsCount' | 'priStoreBytes'>[],
  at: number,
  periodMs: number,
): { seen: SeenCounts; entries: Extract<TimelineEntry, { kind: 'count' }>[] } {
  const next: SeenCounts = new Map();
  const entries: Extract<TimelineEntry, { kind: 'count' }>[] = [];
  for (const r of rows) {
    const before = seen?.get(r.name);
    if (r.health === 'red') {
      if (before)
        entries.push({
          kind: 'count',
          time: new Date(before.fresh ? Math.max(before.at, at - periodMs) : before.at).toISOString(),
          index: r.name,
          docs: before.docs,
          before: 'red',
        });
    } else if (r.status === 'open' && (r.health === 'green' || r.health === 'yellow') && r.priStoreBytes > 0)
      next.set(r.name, { docs: r.docsCount, at, fresh: true });
    else if (before) next.set(r.name, { ...before, fresh: false });
  }
  return { seen: next, entries };
}

/** The status last recorded in a timeline (so a restarted console does not record the same one again). */
export function lastHealth(entries: readonly TimelineEntry[]): HealthStatus | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e.kind === 'health') return e.to;
  }
  return null;
}

/** Audit records of one cluster as timeline entries: each change with who, what and the result. */
export function changesFromAudit(records: readonly AuditRecord[], url: string): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  for (const r of records) {
    if (r.url !== url) continue;
    const o = r.outcome;
    const result = !o
      ? 'no outcome recorded'
      : o.ok
        ? `ok${o.status ? ` (${o.status})` : ''}`
        : `failed${o.status ? ` (${o.status})` : ''}: ${o.error ?? 'error'}${o.applied ? `, applied: ${o.applied}` : ''}`;
    const who = [r.osUser, r.platformUser ? `platform ${r.platformUser}` : undefined].filter(Boolean).join(', ') || r.profile;
    // A command run on the host only to read (service status): on the record, never counted as a change.
    if (isHostRead(r)) {
      out.push({
        kind: 'read',
        time: r.time,
        who: r.journalOf ?? who,
        summary: r.summary,
        command: r.command ?? '?',
        result,
        ...(r.id ? { id: r.id } : {}),
      });
      continue;
    }
    // Another OS user's journal: only its owner is known; who it names is that user's claim, never an approval.
    const claimed = r.journalOf
      ? [
          r.platformUser ? `platform ${r.platformUser}` : '',
          r.proposedBy ? `proposed by ${r.proposedBy}` : '',
          r.approvedBy ? `approved by ${r.approvedBy}` : '',
        ]
          .filter(Boolean)
          .join(', ')
      : '';
    out.push({
      kind: 'change',
      time: r.time,
      who: r.journalOf ? r.journalOf : r.proposedBy && r.proposedBy !== r.osUser ? `${who} (proposed by ${r.proposedBy})` : who,
      ...(r.journalOf ? { claims: claimed ? `unverified, its own journal claims: ${claimed}` : 'unverified: from its own journal' } : {}),
      summary: r.summary,
      target: r.target,
      ...(r.request
        ? {
            request: `${r.request.method} ${r.request.path}${Object.keys(r.request.querystring ?? {}).length ? '?' + new URLSearchParams(r.request.querystring).toString() : ''}${r.request.body !== undefined ? ' ' + JSON.stringify(r.request.body) : ''}`,
          }
        : {}),
      ...(r.command ? { command: r.command } : {}),
      result,
      ...(r.id ? { id: r.id } : {}),
      ...(o?.task ? { task: o.task } : {}),
      ...(r.approvedBy && !r.journalOf ? { approvedBy: r.approvedBy } : {}),
    });
    if (o?.task) out.push({ kind: 'task', time: r.outcomeTime ?? r.time, phase: 'start', task: o.task, summary: r.summary });
  }
  return out;
}

/**
 * One ordered list: file entries and audit changes, oldest first. Two consoles watching the same
 * cluster both record a transition: the same from -> to within 30 s is kept once.
 */
export function mergeTimeline(fileEntries: readonly TimelineEntry[], changes: readonly TimelineEntry[], sinceMs?: number): TimelineEntry[] {
  const all = [...fileEntries, ...changes].filter((e) => sinceMs === undefined || Date.parse(e.time) >= sinceMs);
  all.sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  const out: TimelineEntry[] = [];
  let prev: Extract<TimelineEntry, { kind: 'health' }> | undefined;
  for (const e of all) {
    if (e.kind === 'health') {
      if (prev && prev.to === e.to && Date.parse(e.time) - Date.parse(prev.time) < 30_000) continue;
      prev = e;
    }
    out.push(e);
  }
  return out;
}

/** Parses "2h", "30m", "45s", "1d" into milliseconds; null when it is none of these. */
export function parseSince(raw: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/.exec(raw.trim());
  if (!m) return null;
  return Number(m[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'];
}

/** Reads the JSON lines of a timeline file; a torn last line (a crash mid-write) is skipped. */
export function parseTimeline(text: string): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as TimelineEntry;
      if (e && typeof e.time === 'string' && typeof e.kind === 'string') out.push(e);
    } catch {
      // torn line
    }
  }
  return out;
}

/**
 * An entry in one row of the Timeline pane: a change says who in few columns ("root/alice +bob:"
 * for "change by root, platform alice, approved by bob:", 33 columns at 80) so that what was done
 * shows; the highlighted entry's detail has it in full (entryText).
 */
export function entryRowText(e: TimelineEntry): string {
  if (e.kind !== 'change') return entryText(e);
  const who = displayText(e.who).replace(', platform ', '/');
  return `${who}${e.claims ? ` (${displayText(e.claims)})` : ''}${e.approvedBy ? ` +${displayText(e.approvedBy)}` : ''}: ${displayText(e.summary)} -> ${displayText(e.result)}`;
}

/** One line of text per entry (the pane's detail and `shardeck incident`). */
export function entryText(e: TimelineEntry): string {
  switch (e.kind) {
    case 'health':
      return `health ${e.from ? `${e.from} -> ` : ''}${e.to}${e.to !== 'green' ? ` (${e.unassigned} unassigned, ${e.unassignedPrimaries} primaries)` : ''}${e.shards.length ? `: ${e.shards.slice(0, 3).map(displayText).join(', ')}${e.shards.length > 3 ? ` +${e.shards.length - 3}` : ''}` : ''}`;
    case 'note':
      return `note by ${displayText(e.author)}: ${displayText(e.text)}`;
    case 'change':
      return `change by ${displayText(e.who)}${e.claims ? ` (${displayText(e.claims)})` : ''}${e.approvedBy ? `, approved by ${displayText(e.approvedBy)}` : ''}: ${displayText(e.summary)} -> ${displayText(e.result)}`;
    case 'read':
      return `read by ${displayText(e.who)} (no change): ${displayText(e.summary)} -> ${displayText(e.result)}`;
    case 'count':
      return `count: ${displayText(e.index)} held ${e.docs} documents ${e.before === 'red' ? '(the last read before it turned red)' : e.snapshot ? `(read as snapshot ${displayText(e.snapshot)} was taken)` : ''}`.trimEnd();
    case 'task':
      return `task ${e.phase === 'start' ? 'started' : 'ended'} ${displayText(e.task)}: ${displayText(e.summary)}${e.result ? ` -> ${displayText(e.result)}` : ''}${e.durationMs !== undefined ? ` after ${duration(e.durationMs)}` : ''}`;
  }
}

/** A finished task's result as the timeline says it: ok, cancelled, or its first failure. */
export function taskEndResult(p: Pick<TaskProgress, 'cancelled' | 'failures' | 'deleted' | 'action'>): string {
  const deleted = /byquery/.test(p.action) ? `, ${p.deleted} deleted` : '';
  if (p.cancelled) return `cancelled${deleted}`;
  if (p.failures.length) return `failed${deleted}: ${p.failures[0]}${p.failures.length > 1 ? ` (+${p.failures.length - 1} more)` : ''}`;
  return `ok${deleted}`;
}

/** The tone of an entry on screen. */
export function entryTone(e: TimelineEntry): HealthStatus | 'note' | 'change' {
  if (e.kind === 'health') return e.to;
  if (e.kind === 'read' || e.kind === 'count') return 'note';
  if (e.kind === 'change' || (e.kind === 'task' && e.result)) return e.result!.startsWith('ok') ? 'change' : 'red';
  return e.kind === 'note' ? 'note' : 'change';
}

/** HH:MM:SS in UTC. */
export function utcClock(time: string): string {
  return new Date(time).toISOString().slice(11, 19);
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** "2026-11-24 01:02:03 UTC (02:02:03 local)"; the local offset is the caller's (a pure function takes it). */
function bothTimes(time: string, offsetMinutes: number): string {
  const d = new Date(time);
  const local = new Date(d.getTime() - offsetMinutes * 60_000).toISOString().slice(11, 19);
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC (${local} local)`;
}

/**
 * The postmortem's timeline in Markdown: times in UTC and local, how long each health state lasted,
 * each change with its request. offsetMinutes is Date#getTimezoneOffset() of the reader's zone.
 */
export function timelineMarkdown(cluster: string, entries: readonly TimelineEntry[], now: Date, offsetMinutes: number): string {
  const lines = [
    `# Incident timeline: ${cluster}`,
    '',
    `Exported ${bothTimes(now.toISOString(), offsetMinutes)}; ${countOf(entries.length, 'entry', 'entries')}.`,
    '',
  ];
  const transitions = entries.filter((e): e is Extract<TimelineEntry, { kind: 'health' }> => e.kind === 'health');
  if (transitions.length) {
    lines.push('## Health', '', '| from | to | at | lasted |', '| --- | --- | --- | --- |');
    transitions.forEach((t, i) => {
      const end = transitions[i + 1] ? Date.parse(transitions[i + 1].time) : now.getTime();
      lines.push(
        `| ${t.from ?? '(start)'} | ${t.to} | ${bothTimes(t.time, offsetMinutes)} | ${duration(end - Date.parse(t.time))}${transitions[i + 1] ? '' : ' (so far)'} |`,
      );
    });
    lines.push('');
  }
  lines.push('## Events', '');
  for (const e of entries) {
    lines.push(`- **${bothTimes(e.time, offsetMinutes)}** ${entryText(e).replace(/\|/g, '\\|')}`);
    if (e.kind === 'health' && e.shards.length) for (const s of e.shards) lines.push(`  - ${s}`);
    if (e.kind === 'change' && e.request) lines.push(`  - request: \`${e.request}\``);
    if ((e.kind === 'change' || e.kind === 'read') && e.command) lines.push(`  - command: \`${e.command}\``);
  }
  return lines.join('\n') + '\n';
}
