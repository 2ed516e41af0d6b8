// Text fitted to terminal columns by its display width (a CJK character takes two columns, a
// combining mark none): long names cut in the middle so their distinct ends stay readable, and
// long texts (explanations, task ids, curl lines) wrapped instead of cut. Control characters are
// not this module's business (the display sanitiser handles them).
import stringWidth from 'string-width';

/**
 * Columns one code point takes: 0 for combining marks and zero-width characters, 2 for East Asian
 * wide and fullwidth ones and emoji. string-width (Ink measures with it too, so our cuts agree with
 * its layout) keeps the Unicode tables current; a hand-written table went stale with each release.
 */
export function charWidth(cp: number): number {
  return stringWidth(String.fromCodePoint(cp));
}

/** Columns a text takes on screen (code point by code point, as the cuts below count). */
export function displayWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch.codePointAt(0)!);
  return w;
}

/** The longest start of `text` (whole code points) that fits in `width` columns. */
function headOf(chars: readonly string[], width: number): number {
  let w = 0;
  let n = 0;
  while (n < chars.length && w + charWidth(chars[n].codePointAt(0)!) <= width) w += charWidth(chars[n++].codePointAt(0)!);
  return n;
}

/**
 * `text` in at most `width` columns: whole when it fits, else its start and its end around "…",
 * so `logs-2026-11-22-000017` and `logs-2026-11-22-000018` stay told apart. Show the full name
 * elsewhere (the detail line) when it was cut.
 */
export function middleEllipsis(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return width === 1 ? '…' : '';
  const chars = [...text];
  const room = width - 1;
  // The end carries the distinguishing part of most names (dates, counters): it gets the larger half.
  const headWidth = Math.floor(room / 2);
  const head = chars.slice(0, headOf(chars, headWidth));
  const rest = chars.slice(head.length).reverse();
  const tail = rest.slice(0, headOf(rest, room - displayWidth(head.join('')))).reverse();
  return `${head.join('')}…${tail.join('')}`;
}

/**
 * `text` wrapped into lines of at most `width` columns: at spaces where it can, inside a word
 * longer than a line (a task id, a URL, a curl line) where it must. With `maxLines`, the last line
 * kept ends in "…" when text was left out.
 */
export function wrapText(text: string, width: number, maxLines = Infinity): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  let cur = '';
  const push = () => {
    lines.push(cur);
    cur = '';
  };
  for (const word of text.split(' ')) {
    const sep = cur ? 1 : 0;
    if (displayWidth(cur) + sep + displayWidth(word) <= w) {
      cur += (sep ? ' ' : '') + word;
      continue;
    }
    if (cur) push();
    // A word longer than a line is cut into lines of its own.
    let chars = [...word];
    while (displayWidth(chars.join('')) > w) {
      const n = Math.max(1, headOf(chars, w));
      cur = chars.slice(0, n).join('');
      push();
      chars = chars.slice(n);
    }
    cur = chars.join('');
  }
  if (cur || lines.length === 0) push();
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, Math.max(1, maxLines));
  const last = [...kept[kept.length - 1]];
  kept[kept.length - 1] = `${last
    .slice(0, headOf(last, w - 1))
    .join('')
    .trimEnd()}…`;
  return kept;
}

/**
 * `text` cut into lines of `width` columns with every character kept (a curl line read off the
 * screen joins back exactly); at most `maxLines`, the last ending in "…" when text was left out.
 */
export function cutLines(text: string, width: number, maxLines = Infinity): string[] {
  const w = Math.max(1, width);
  let chars = [...text];
  const lines: string[] = [];
  while (chars.length > 0) {
    const n = Math.max(1, headOf(chars, w));
    lines.push(chars.slice(0, n).join(''));
    chars = chars.slice(n);
  }
  if (lines.length <= maxLines) return lines.length ? lines : [''];
  const kept = lines.slice(0, Math.max(1, maxLines));
  const last = [...kept[kept.length - 1]];
  kept[kept.length - 1] = `${last.slice(0, headOf(last, w - 1)).join('')}…`;
  return kept;
}

/**
 * Lines to show whole in `room` rows of `width` columns (curl lines a pane offers to copy): each
 * cut into rows with every character kept (cutLines); a line that does not fit whole is left out
 * with the ones after it, and the last row says how many (issue 47 item 7: never half a command).
 */
export function wholeLinesIn(lines: readonly string[], width: number, room: number): string[] {
  const rows: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const cut = cutLines(lines[i], width);
    // The rest still to come needs a row to be named.
    const after = i < lines.length - 1 ? 1 : 0;
    if (rows.length + cut.length + after > room) {
      const left = lines.length - i;
      rows.push(`(${left} more ${left === 1 ? 'line' : 'lines'}: a taller terminal shows ${left === 1 ? 'it' : 'them'})`);
      return rows.slice(0, Math.max(0, room));
    }
    rows.push(...cut);
  }
  return rows;
}
