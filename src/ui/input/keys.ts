// Turns Ink's (input, key) pair into the key names the keymap uses, and key names into command ids.
import type { Key } from 'ink';
import type { LineEdit } from '../../domain/console/line-edit';
import type { KeyCommand, Scope } from '../../keys/keymap';

/** 'q', 'G', '/', 'up', 'pagedown', 'escape', 'return', 'tab', 'shift-tab', 'backspace', 'ctrl-c'. */
export function keyName(input: string, key: Key): string {
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.escape) return 'escape';
  if (key.return) return 'return';
  if (key.tab) return key.shift ? 'shift-tab' : 'tab';
  if (key.backspace || key.delete) return 'backspace';
  if (key.ctrl && input) return `ctrl-${input.toLowerCase()}`;
  return input;
}

/** The command bound to `name` in the first of `scopes` (in order) that binds it. */
export function commandFor(name: string, scopes: readonly Scope[], keymap: readonly KeyCommand[]): KeyCommand | undefined {
  for (const scope of scopes) {
    const hit = keymap.find((k) => k.scope === scope && k.keys.includes(name));
    if (hit) return hit;
  }
  return undefined;
}

export { keyLabel } from '../../keys/keymap';

/** The name of one character of a string that arrived at once (typed fast or pasted): Enter, Tab and Backspace keep their names. */
export function charName(ch: string): string {
  if (ch === '\r' || ch === '\n') return 'return';
  if (ch === '\t') return 'tab';
  if (ch === '\u007f' || ch === '\b') return 'backspace';
  return ch;
}

/** A key as an edit of a line being typed: a printable character, or Backspace; else undefined. */
export function lineEditOf(name: string, input: string): LineEdit | undefined {
  if (name === 'backspace') return { type: 'erase' };
  if (name === input && input.length === 1 && input >= ' ') return { type: 'insert', text: input };
  return undefined;
}
