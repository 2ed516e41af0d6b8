// The one sanitising step for text that leaves for a terminal. Names, reasons, log lines and a
// peer's notes are data someone else controls: a raw ESC/BEL/CSI in them could set the title, move
// the cursor, hide or overwrite text, and a right-to-left override reorders what the operator
// reads. Every such character is shown as a visible `\uXXXX` escape instead.
//
// The escape is JSON's own notation on purpose: JSON text passed through here stays valid JSON
// with exactly the same values (these characters only occur inside its strings, where `\uXXXX`
// means the character itself), so one writer can serve text and --json output alike.

/** C0 controls, DEL, C1 controls, the bidirectional controls (embeddings, overrides, isolates,
 *  the marks) that reorder what is shown, and the zero-width characters that make two different
 *  names look the same (zero-width space, joiners, word joiner, byte order mark). */
// eslint-disable-next-line no-control-regex -- the sanitiser: it matches control and bidi characters on purpose
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
/** Same, but keeps the line break and the tab that lay out multi-line text. */
// eslint-disable-next-line no-control-regex -- the sanitiser: it matches control and bidi characters on purpose
const UNSAFE_KEEP_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

function escape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One value on one line (a name, a cell, a reason): every control, line breaks and tabs
 *  included, shown escaped. Text commands call it where they put a value into a line, since the
 *  block step at the door (displayBlock) cannot tell a name's line break from the layout's. */
export function displayText(s: string): string {
  return s.replace(UNSAFE, escape);
}

/** A block of text whose own line breaks and tabs are layout (a command's output, a preview, an
 *  export): those are kept, every other control is shown escaped. */
export function displayBlock(s: string): string {
  return s.replace(UNSAFE_KEEP_LAYOUT, escape);
}

/** True when the text would reach a terminal unchanged. */
export function isDisplaySafe(s: string): boolean {
  return displayText(s) === s;
}
