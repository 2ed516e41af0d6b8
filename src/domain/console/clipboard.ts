// Copying to the operator's own clipboard across SSH (issue 44 item 2): OSC 52, the terminal's
// "set the clipboard" sequence, carries the text base64-encoded, so the terminal on the operator's
// desk sets its clipboard whatever machine the console runs on. Inside tmux the sequence is sent
// twice: plain (tmux takes it with `set-clipboard on` and passes it on) and wrapped in tmux's
// passthrough (reaches the outer terminal with `allow-passthrough on`). Where the terminal cannot
// take it, the text goes to a 0600 file whose path is shown instead. Pure: ui/app/habits.ts writes.
import { displayBlock, displayText, isDisplaySafe } from '../text/display-text';
import type { Selection } from '../panes';

/** Terminals cap what one OSC 52 may carry (xterm ~100 kB, some 74,994 bytes of base64): above it, the file. */
export const MAX_OSC52_BASE64 = 74_994;

export type ClipboardWay = 'osc52' | 'file';

/** How the text is copied: the sequence on a terminal that can take it, else the file. */
export function clipboardWay(opts: { tty: boolean; term?: string; setting?: string; text: string }): ClipboardWay {
  if (opts.setting === 'file') return 'file';
  if (!opts.tty || opts.term === 'dumb') return 'file';
  return Buffer.byteLength(opts.text, 'utf8') * (4 / 3) + 4 > MAX_OSC52_BASE64 ? 'file' : 'osc52';
}

/** The bytes to write: OSC 52 for the clipboard ("c"), and inside tmux its passthrough form too. */
export function osc52Sequences(text: string, inTmux: boolean): string[] {
  const b64 = Buffer.from(text, 'utf8').toString('base64');
  const osc = `\u001b]52;c;${b64}\u0007`;
  // tmux's passthrough: DCS "tmux;" with every ESC inside doubled, ended by ST.
  // eslint-disable-next-line no-control-regex -- ESC is what is doubled
  return inTmux ? [osc, `\u001bPtmux;${osc.replace(/\u001b/g, '\u001b\u001b')}\u001b\\`] : [osc];
}

/**
 * Why a text is not copied, or null. A name holding control or bidi characters would paste
 * something other than what the screen shows (a line break runs a command in a shell): refused.
 * A block (several lines shown as lines) may hold line breaks and tabs, nothing else.
 */
export function copyRefusal(what: string, text: string, opts: { block?: boolean } = {}): string | null {
  if (!text) return `nothing to copy: no ${what} on screen`;
  // A block of lines (a command's output) keeps its line breaks and tabs: they are its layout.
  if (opts.block ? displayBlock(text) !== text : !isDisplaySafe(text))
    return `not copied: the ${what} holds control characters (${displayText(text).slice(0, 40)}), a paste would differ from the screen`;
  return null;
}

/** The footer's line after a copy: what (the text itself, cut in the middle past 24), how long, where it went. */
export function copiedText(text: string, way: ClipboardWay, where: { inTmux: boolean; file?: string; label?: string }): string {
  // Past 24 characters its start and end: the whole line stays within 80 columns.
  const shown = text.length > 24 ? `${text.slice(0, 11)}…${text.slice(-11)}` : text;
  // A value copied from a JSON view or a setting is named by its path (cut at its start past 24).
  const label = where.label && (where.label.length > 24 ? `…${where.label.slice(-23)}` : where.label);
  const head = `copied ${label ? `${displayText(label)} ` : ''}"${displayText(shown)}" (${text.length} chars)`;
  if (way === 'file') return `${head} to ${where.file} (no OSC 52)`;
  return `${head} to the clipboard (OSC 52${where.inTmux ? ', tmux' : ''})`;
}

/** What `y` copies on a pane: the highlighted row's name (its id for a task), or nothing on a pane without rows. */
export function copyTargetOf(pane: string, sel: Selection): { what: string; text: string } | undefined {
  switch (pane) {
    case 'indices':
      return sel.indices && { what: 'index name', text: sel.indices.index };
    case 'shards':
      return sel.shards && { what: 'index name', text: sel.shards.index };
    case 'nodes':
      return sel.nodes && { what: 'node name', text: sel.nodes.node };
    case 'templates':
      return sel.templates && { what: 'template name', text: sel.templates.template };
    case 'snapshots':
      return sel.snapshots && { what: 'snapshot name', text: sel.snapshots.snapshot };
    case 'tasks':
      return sel.tasks && { what: 'task id', text: sel.tasks.task };
    case 'health':
      return sel.health && { what: 'indicator', text: sel.health.indicator };
    default:
      return undefined;
  }
}
