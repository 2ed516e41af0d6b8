// A JSON value as foldable lines, for a viewer that draws only the lines on screen: the value is
// flattened once (one entry per line, each container knowing where it closes), folding recomputes
// only which lines are visible, and a line's text is cut to the screen's width before a long
// string is ever copied. A 5 MB document costs a frame what a small one does.
import type { Tone } from '../text/format';

export interface JsonLine {
  depth: number;
  /** The member name in an object, or the position in an array; absent at the top. */
  key?: string | number;
  kind: 'open' | 'close' | 'scalar';
  /** For 'open' and 'close': which bracket. */
  bracket?: '{' | '[';
  /** For 'open': the index of its closing line, and how many members it has. */
  end?: number;
  members?: number;
  /** For 'scalar': the value itself (cut only when drawn). */
  value?: unknown;
  /** A comma follows (another member comes after this one). */
  comma: boolean;
}

/** Flattens a value into lines, depth first, iteratively (a deeply nested document cannot overflow the stack). */
export function jsonLines(root: unknown): JsonLine[] {
  const lines: JsonLine[] = [];
  type Frame = { value: unknown; key?: string | number; depth: number; comma: boolean } | { closeOf: number };
  const stack: Frame[] = [{ value: root, depth: 0, comma: false }];
  while (stack.length) {
    const f = stack.pop()!;
    if ('closeOf' in f) {
      const open = lines[f.closeOf];
      open.end = lines.length;
      lines.push({ depth: open.depth, kind: 'close', bracket: open.bracket, comma: open.comma });
      continue;
    }
    const { value, key, depth, comma } = f;
    if (value !== null && typeof value === 'object') {
      const isArray = Array.isArray(value);
      const entries: [string | number, unknown][] = isArray
        ? (value as unknown[]).map((v, i) => [i, v])
        : Object.entries(value as Record<string, unknown>);
      const at = lines.length;
      lines.push({ depth, key, kind: 'open', bracket: isArray ? '[' : '{', members: entries.length, comma });
      // An empty container is one line ({} or []), with nothing to fold.
      if (entries.length === 0) {
        lines[at].end = at;
        continue;
      }
      stack.push({ closeOf: at });
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ value: entries[i][1], key: entries[i][0], depth: depth + 1, comma: i < entries.length - 1 });
    } else lines.push({ depth, key, kind: 'scalar', value, comma });
  }
  return lines;
}

/** The lines shown with the `folded` containers (by the index of their opening line) closed. */
export function visibleLines(lines: readonly JsonLine[], folded: ReadonlySet<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    out.push(i);
    const l = lines[i];
    if (l.kind === 'open' && folded.has(i) && l.end !== undefined && l.end > i) i = l.end;
  }
  return out;
}

/** Every container below the top, folded: the outline of a large document. */
export function foldAll(lines: readonly JsonLine[]): Set<number> {
  const s = new Set<number>();
  lines.forEach((l, i) => {
    if (l.kind === 'open' && l.depth > 0 && (l.members ?? 0) > 0) s.add(i);
  });
  return s;
}

/** The container a line belongs to (its own opening line for an open one; the opening of a close). */
export function containerOf(lines: readonly JsonLine[], at: number): number | null {
  const l = lines[at];
  if (!l) return null;
  if (l.kind === 'open') return at;
  // The nearest open line above whose end is at or after this line.
  for (let i = at - 1; i >= 0; i--) if (lines[i].kind === 'open' && (lines[i].end ?? 0) >= at) return i;
  return null;
}

/** A piece of a drawn line and its tone (keys plain and bold, strings green, numbers yellow, the rest gray). */
export interface JsonPiece {
  text: string;
  tone?: Tone;
  bold?: boolean;
}

const INDENT = 2;

/** One line as coloured pieces, cut to `width` characters. */
export function linePieces(l: JsonLine, folded: boolean, width: number): JsonPiece[] {
  const pieces: JsonPiece[] = [];
  let room = width;
  const add = (text: string, tone?: Tone, bold?: boolean) => {
    if (room <= 0) return;
    const t = text.length > room ? `${text.slice(0, Math.max(0, room - 1))}…` : text;
    room -= t.length;
    pieces.push({ text: t, ...(tone ? { tone } : {}), ...(bold ? { bold } : {}) });
  };
  // Deep nesting stops indenting at a third of the width, so the value stays visible.
  add(' '.repeat(Math.min(l.depth * INDENT, Math.floor(width / 3))));
  if (l.kind === 'close') {
    add(l.bracket === '{' ? '}' : ']');
    if (l.comma) add(',');
    return pieces;
  }
  if (typeof l.key === 'string') add(`${quoted(l.key, room)}: `, undefined, true);
  if (l.kind === 'open') {
    const open = l.bracket ?? '{';
    const close = open === '{' ? '}' : ']';
    if (folded) {
      add(`${open}…${close}`);
      add(` ${l.members} ${open === '{' ? (l.members === 1 ? 'key' : 'keys') : l.members === 1 ? 'item' : 'items'}`, 'gray');
      if (l.comma) add(',');
    } else add(l.members === 0 ? `${open}${close}${l.comma ? ',' : ''}` : open);
    return pieces;
  }
  const v = l.value;
  if (typeof v === 'string') add(quoted(v, room), 'green');
  else if (typeof v === 'number') add(String(v), 'yellow');
  else add(String(v), 'gray');
  if (l.comma) add(',');
  return pieces;
}

/** JSON-quotes a string, looking at no more of it than can be shown. */
function quoted(s: string, room: number): string {
  const cut = s.length > room ? s.slice(0, Math.max(0, room)) : s;
  const q = JSON.stringify(cut);
  return cut.length < s.length ? `${q.slice(0, -1)}…"` : q;
}

/**
 * What y copies on a line of the viewer: the value there (a string as it is, any other scalar, an
 * object or an array as its JSON) and its path from the top (`_source.user.name`, `hits[3]`); a
 * closing bracket stands for its container.
 */
export function jsonCopyTarget(root: unknown, lines: readonly JsonLine[], at: number): { path: string; text: string } | undefined {
  if (!lines[at]) return undefined;
  let i = at;
  if (lines[i].kind === 'close') i = lines.findIndex((l, j) => j < at && l.kind === 'open' && l.end === at);
  if (i < 0) return undefined;
  // The keys from the top: each container that holds line i, nearest first.
  const keys: (string | number)[] = [];
  for (let j = i, depth = lines[i].depth; j >= 0 && depth > 0; j--) {
    if (j === i || (lines[j].kind === 'open' && lines[j].depth === depth - 1 && (lines[j].end ?? -1) >= i)) {
      const key = lines[j].key;
      if (key !== undefined) keys.unshift(key);
      depth = lines[j].depth;
      if (depth === 0) break;
    }
  }
  let value = root;
  for (const k of keys) value = (value as Record<string | number, unknown>)?.[k];
  const path = keys
    .map((k, n) => (typeof k === 'number' ? `[${k}]` : /^[A-Za-z_@$][\w@$-]*$/.test(k) ? `${n ? '.' : ''}${k}` : `[${JSON.stringify(k)}]`))
    .join('');
  return {
    path: path || '(the whole document)',
    text: typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value)),
  };
}
