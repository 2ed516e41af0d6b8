// The one line editor: what a key does to a line of text being typed (a form field, a limit, a
// typed confirmation). Pure; the UI turns keys into edits (ui/input/keys.ts lineEditOf), the
// wizard machines apply them to whichever text their phase is asking for.

export type LineEdit = { type: 'insert'; text: string } | { type: 'erase' };

/** The text after one edit; an insert with a character `accept` refuses changes nothing. */
export function editLine(text: string, edit: LineEdit, accept?: RegExp): string {
  if (edit.type === 'erase') return text.slice(0, -1);
  if (accept && ![...edit.text].every((ch) => accept.test(ch))) return text;
  return text + edit.text;
}

/** Digits only: counts and limits. */
export const DIGITS = /^\d$/;
