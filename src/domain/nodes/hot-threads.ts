// Hot threads: `GET _nodes/<id>/hot_threads` answers plain text made for a wide terminal (one
// section per node, each busiest thread with its share of the interval and the stack frames its
// snapshots share). Parsed here into threads with their % and top frames, and drawn at 80 columns.
// The text is the node's (thread names carry index and node names): untrusted, every value shown
// goes through displayText.
import { displayText } from '../text/display-text';
import { fitText } from '../text/table';

export const HOT_THREAD_TYPES = ['cpu', 'wait', 'block'] as const;
export type HotThreadType = (typeof HOT_THREAD_TYPES)[number];

export interface HotThreadsOptions {
  /** The busiest threads reported per node (Elasticsearch's default: 3). */
  threads: number;
  /** The sampling interval as Elasticsearch reads it ("500ms", "1s"). */
  interval: string;
  type: HotThreadType;
}

export const HOT_THREADS_DEFAULTS: HotThreadsOptions = { threads: 3, interval: '500ms', type: 'cpu' };

export interface HotStack {
  /** "10/10" snapshots shared these frames, or "unique" (one snapshot). */
  snapshots: string;
  /** Innermost first, as the node lists them, module prefixes dropped ("java.base@17/"). */
  frames: string[];
}

export interface HotThread {
  /** Share of the interval, 0-100. */
  percent: number;
  /** The cpu / other split 8.x gives for type cpu, when present. */
  cpu: number | null;
  other: number | null;
  /** "61.5ms out of 500ms" as written. */
  usage: string;
  /** The thread's name ("elasticsearch[node-1][write][T#3]"). */
  name: string;
  /** The thread pool in the name (write, search, management...), or null. */
  pool: string | null;
  stacks: HotStack[];
}

export interface HotNode {
  name: string;
  id: string;
  /** When the node sampled ("2026-11-26T08:10:00.123Z"), the interval and type it says it used. */
  at: string;
  interval: string;
  type: string;
  busiest: number;
  threads: HotThread[];
}

const NODE_LINE = /^::: \{([^}]*)\}\{([^}]*)\}/;
const HEADER = /Hot threads at (\S+), interval=([^,]+), busiestThreads=(\d+)/;
const THREAD = /^\s*([\d.]+)% (?:\[cpu=([\d.]+)%, other=([\d.]+)%\] )?\((.+?)\) (\w+) usage by thread '(.*)'\s*$/;
const SHARED = /^\s*(\d+\/\d+) snapshots sharing following \d+ elements/;
const UNIQUE = /^\s*unique snapshot/;
/** A frame's module prefix: "java.base@17.0.2/", "app/org.elasticsearch.server@8.19.21/", "org.apache.lucene.core@9.12.2/". */
const MODULE = /^(?:app\/)?[\w.]+@[\w.-]+\//;

/** Cut at most this much of the answer: a node with thousands of threads must not fill the memory. */
const MAX_THREADS = 50;
const MAX_FRAMES = 60;

/** The pool of an Elasticsearch thread name: elasticsearch[node][write][T#1] -> write. */
export function threadPool(name: string): string | null {
  const m = /^elasticsearch\[[^\]]*\]\[([^\]]+)\]/.exec(name);
  return m ? m[1] : null;
}

/**
 * The node's plain-text answer as threads. `asked`: the type the request asked for, which a node
 * with no busy thread does not repeat (its type is read from the thread lines).
 */
export function parseHotThreads(text: string, asked = ''): HotNode[] {
  const nodes: HotNode[] = [];
  let node: HotNode | null = null;
  let thread: HotThread | null = null;
  let stack: HotStack | null = null;
  for (const raw of String(text ?? '').split('\n')) {
    const line = raw.replace(/\r$/, '');
    const n = NODE_LINE.exec(line);
    if (n) {
      node = { name: n[1], id: n[2], at: '', interval: '', type: asked, busiest: 0, threads: [] };
      nodes.push(node);
      thread = stack = null;
      continue;
    }
    if (!node) continue;
    const h = HEADER.exec(line);
    if (h) {
      node.at = h[1];
      node.interval = h[2];
      node.busiest = Number(h[3]);
      continue;
    }
    const t = THREAD.exec(line);
    if (t) {
      stack = null;
      if (node.threads.length >= MAX_THREADS) {
        thread = null;
        continue;
      }
      node.type ||= t[5];
      thread = {
        percent: Number(t[1]),
        cpu: t[2] === undefined ? null : Number(t[2]),
        other: t[3] === undefined ? null : Number(t[3]),
        usage: t[4],
        name: t[6],
        pool: threadPool(t[6]),
        stacks: [],
      };
      node.threads.push(thread);
      continue;
    }
    if (!thread) continue;
    const s = SHARED.exec(line);
    if (s || UNIQUE.test(line)) {
      stack = { snapshots: s ? s[1] : 'unique', frames: [] };
      thread.stacks.push(stack);
      continue;
    }
    const frame = line.trim();
    if (stack && frame && stack.frames.length < MAX_FRAMES) stack.frames.push(frame.replace(MODULE, ''));
  }
  return nodes;
}

/**
 * A frame short enough for 80 columns: the package abbreviated to its initials, the class, method
 * and source line kept (org.elasticsearch.search.query.QueryPhase.execute(QueryPhase.java:70) ->
 * o.e.s.q.QueryPhase.execute(QueryPhase.java:70)).
 */
export function shortFrame(frame: string): string {
  const open = frame.indexOf('(');
  const head = open < 0 ? frame : frame.slice(0, open);
  const parts = head.split('.');
  const kept = parts.length - 2;
  const short = parts.map((p, i) => (i < kept && /^[a-z]/.test(p) ? p[0] : p)).join('.');
  return short + (open < 0 ? '' : frame.slice(open));
}

export interface HotLine {
  text: string;
  tone?: 'red' | 'yellow' | 'gray';
}

/**
 * The sample at `width` columns: per node a head (name, type, interval, when), then each thread's
 * share, pool and name, and the top `frames` frames of its first stack, each line cut to fit.
 */
export function hotThreadLines(nodes: readonly HotNode[], width: number, frames = 4): HotLine[] {
  const fit = (text: string, tone?: HotLine['tone']): HotLine => ({ text: fitText(text, width), ...(tone ? { tone } : {}) });
  const out: HotLine[] = [];
  for (const n of nodes) {
    const when = n.at ? ` · sampled ${displayText(n.at)}` : '';
    out.push(fit(`${displayText(n.name)}: ${displayText(n.type || '?')} over ${displayText(n.interval || '?')}${when}`));
    if (!n.threads.length) out.push(fit('  no busy thread in the interval (idle threads are left out)', 'gray'));
    for (const t of n.threads) {
      const split = t.cpu !== null ? ` (cpu ${t.cpu}%, other ${t.other}%)` : '';
      const tone = t.percent >= 80 ? 'red' : t.percent >= 40 ? 'yellow' : undefined;
      out.push(fit(`${t.percent.toFixed(1).padStart(5)}% ${displayText(t.pool ?? '-')} ${displayText(t.name)}${split}`, tone));
      const first = t.stacks[0];
      if (!first) continue;
      out.push(
        fit(`       ${first.snapshots === 'unique' ? 'one snapshot (unique)' : `${displayText(first.snapshots)} snapshots`}:`, 'gray'),
      );
      for (const f of first.frames.slice(0, frames)) out.push(fit(`         ${displayText(shortFrame(f))}`));
    }
  }
  return out;
}

/** The options typed on the command line (or the console's defaults), checked: a message on a bad one. */
export function parseHotThreadsOptions(v: {
  threads?: string;
  interval?: string;
  type?: string;
}): { ok: true; value: HotThreadsOptions } | { ok: false; error: string } {
  const threads = v.threads === undefined ? HOT_THREADS_DEFAULTS.threads : Number(v.threads);
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS)
    return { ok: false, error: `--threads "${v.threads}" is not a whole number from 1 to ${MAX_THREADS}` };
  const interval = v.interval ?? HOT_THREADS_DEFAULTS.interval;
  // A short sample: the node holds the request that long (and up to 10 snapshots in it).
  const m = /^(\d+)(ms|s)$/.exec(interval);
  if (!m || Number(m[1]) < 1 || Number(m[1]) * (m[2] === 's' ? 1000 : 1) > 10_000)
    return { ok: false, error: `--interval "${interval}" is not a duration from 1ms to 10s: give e.g. 500ms or 2s` };
  const type = v.type ?? HOT_THREADS_DEFAULTS.type;
  if (!(HOT_THREAD_TYPES as readonly string[]).includes(type))
    return { ok: false, error: `--type "${type}" is not one of ${HOT_THREAD_TYPES.join(', ')}` };
  return { ok: true, value: { threads, interval, type: type as HotThreadType } };
}

/**
 * The node asked for, by its exact id or name, as an id for the request path: never a pattern
 * (`*`, `_all`, a comma list would sample other nodes than the one named). An error when none or
 * several match.
 */
export function hotThreadsNode(
  nodes: readonly { id: string; name: string }[],
  given: string,
): { ok: true; id: string; name: string } | { ok: false; error: string } {
  const byId = nodes.find((n) => n.id === given);
  if (byId) return { ok: true, id: byId.id, name: byId.name };
  const named = nodes.filter((n) => n.name === given);
  if (named.length === 1) return { ok: true, id: named[0].id, name: named[0].name };
  const names = nodes.map((n) => displayText(n.name)).join(', ');
  return {
    ok: false,
    error: named.length
      ? `${named.length} nodes are named "${displayText(given)}": give the node id instead`
      : `no node is named "${displayText(given)}" (nodes: ${names || 'none listed'})`,
  };
}
