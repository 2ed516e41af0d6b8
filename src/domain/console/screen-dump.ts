// A screen for a ticket (issue 44 item 6): the console's last frame as plain text, every escape
// sequence (colour, cursor moves, the line erasing Ink writes before a frame) taken out, so the
// file reads the same in an editor, a ticket or a mail. Pure: commands/tui keeps the frame.

// CSI (colour, cursor), OSC (title, clipboard) ended by BEL or ST, DCS/APC/PM ended by ST, and two-byte escapes.
const ESCAPES =
  // eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[P_^][^\u001b]*\u001b\\|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;
// eslint-disable-next-line no-control-regex -- what is left of other controls (a lone ESC, BEL, CR)
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** One frame as Ink wrote it -> the screen's lines as text, trailing blanks cut. */
export function plainScreen(frame: string): string {
  const lines = frame.replace(ESCAPES, '').replace(CONTROLS, '').split('\n');
  const trimmed = lines.map((l) => l.replace(/\s+$/, ''));
  while (trimmed.length && trimmed[trimmed.length - 1] === '') trimmed.pop();
  return trimmed.join('\n') + '\n';
}

/** screen-20261128-224706.txt: sorts by time, one per second (a second in the same second gets -2, -3...). */
export function screenFileName(now: Date, n = 1): string {
  const p = (x: number) => String(x).padStart(2, '0');
  const stamp = `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return `screen-${stamp}${n > 1 ? `-${n}` : ''}.txt`;
}

/** The footer's line after a dump: the file first (80 columns cut the end). */
export function dumpedText(file: string, lines: number): string {
  return `screen written to ${file} (${lines} lines)`;
}
