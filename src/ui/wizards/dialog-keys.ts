// A wizard's keys: its one key layer, the keys asked by command id from the keymap in force
// (keys/keymap.ts, scope 'dialog' and the wizard's own scope), typed characters as line edits for
// its machine, and the key hints built from the same rows, so help, the README and the screen agree.
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { WizardSession } from '../../services/wizards/session';
import { stay } from '../../domain/wizards/machine';
import type { LineEdit } from '../../domain/console/line-edit';
import type { ConfirmationNeed } from '../../domain/mutation/confirmation';
import { isEnded, type FocusEvent } from '../../domain/wizards/machine';
import { keyLabel, type CommandId } from '../../keys/keymap';
import { useKeymap } from '../app/use-keymap';
import { lineEditOf } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { FULL_ROWS, useTerminalSize } from '../app/terminal';
import { useHabits } from '../app/habits';
import { useOptionalConsoleContext } from '../app/context';

export interface DialogKey {
  /** Whether the key is one of this command's keys. */
  is(id: CommandId): boolean;
  /** The key as an edit of a line being typed (a printable character, Backspace). */
  edit?: LineEdit;
}

interface Cancellable {
  getState(): { phase: string };
  send(e: { type: 'cancel' }): void;
  /** A session whose state the screen follows (useSession): keys wait for the screen to catch up with it. */
  subscribe?: unknown;
}

/**
 * The wizard's key layer (modal: every key stops here). `handle` gets each key first and returns
 * true when it took it. Then a finished wizard closes on any key; Esc cancels, and closes the
 * wizard once its machine has cancelled (not while a request is out: it cannot be called back).
 */
export function useDialogKeys(session: Cancellable, onClose: () => void, handle: (key: DialogKey) => boolean | void): void {
  const keymap = useKeymap();
  // Hidden on a terminal too short for it (App.tsx): only Esc, nothing confirmed unseen.
  const hidden = useTerminalSize().rows < FULL_ROWS;
  const habits = useHabits();
  const ui = useOptionalConsoleContext()?.ui;
  const take = (name: string, input: string): boolean => {
    const key: DialogKey = { is: (id) => keymap.some((k) => k.id === id && k.keys.includes(name)), edit: lineEditOf(name, input) };
    // Copy and dump work in every wizard, whatever it is doing (control keys: never part of a typed line).
    if (key.is('dialog.copy')) return (habits.copy("preview's curl line", ui?.getState().previewCurl), true);
    if (key.is('dialog.dump')) return (habits.dump(), true);
    if (!hidden && handle(key)) return true;
    if (isEnded(session.getState().phase)) onClose();
    else if (key.is('dialog.close')) {
      session.send({ type: 'cancel' });
      if (session.getState().phase === 'cancelled') onClose();
    }
    return true;
  };
  // The session moves on at once (a read answered), the screen a moment later; `handle` is the
  // closure of the screen shown. A key in between would be judged by a phase no longer true (and
  // swallowed: issue 44 item 7), so it waits for the frame of the state it acts on, then is taken,
  // in order with the keys behind it.
  const shown = session.getState();
  const shownRef = useRef(shown);
  // eslint-disable-next-line react-hooks/refs -- the state this render shows, for the key handler to compare with
  shownRef.current = shown;
  const held = useRef<[string, string][]>([]);
  const behind = () => session.subscribe !== undefined && session.getState() !== shownRef.current;
  useKeyLayer('dialog', (name, input) => {
    if (!held.current.length && !behind()) return take(name, input);
    held.current.push([name, input]);
    return true;
  });
  // After each frame: the keys held for it, each judged by the state it sees (one that changes the
  // state waits for the next frame).
  useEffect(() => {
    while (held.current.length && !behind()) {
      const [name, input] = held.current.shift()!;
      take(name, input);
    }
  });
}

/**
 * A form a wizard keeps itself, before its session starts (the session takes the filled form):
 * `step` applies each key's event to the form as it is then (a session of its own, so keys that
 * come faster than the screen redraws are not lost), Enter hands it to `onSubmit` once, Esc
 * closes it with nothing sent.
 */
export function useLocalForm<S>(initial: S, step: (s: S, e: FormEvent) => S, onSubmit: (s: S) => void, onClose: () => void): S {
  const [session] = useState(
    () =>
      new WizardSession<S & { phase: string }, FormEvent | { type: 'cancel' }, never>(
        {
          init: () => stay({ ...initial, phase: 'input' }),
          step: (s, e) => stay(e.type === 'cancel' ? { ...s, phase: 'cancelled' } : { ...step(s, e), phase: s.phase }),
        },
        () => Promise.resolve(),
      ),
  );
  const state = useSyncExternalStore(session.subscribe, session.getState);
  useDialogKeys(session, onClose, (key) =>
    formKeys(key, session.send, () => {
      const filled = session.getState();
      if (filled.phase !== 'input') return;
      session.send({ type: 'cancel' }); // handed on: its later keys change nothing
      onSubmit(filled);
    }),
  );
  return state;
}

/** A line being typed: Enter submits it, a character or Backspace edits it; false for any other key. */
export function lineKeys(key: DialogKey, send: (e: { type: 'submit' } | { type: 'line'; edit: LineEdit }) => void): boolean {
  if (key.is('dialog.submit')) send({ type: 'submit' });
  else if (key.edit) send({ type: 'line', edit: key.edit });
  else return false;
  return true;
}

export type FormEvent = FocusEvent | { type: 'change' } | { type: 'line'; edit: LineEdit };

/**
 * A form: Enter submits, Tab and the arrows move the focus, and the machine takes what fits the
 * focused field (Space or an arrow changes a choice, typing edits text). False for Esc.
 */
export function formKeys(key: DialogKey, send: (e: FormEvent) => void, submit: () => void): boolean {
  if (key.is('dialog.submit')) submit();
  else if (key.is('dialog.nextField')) send({ type: 'focus', by: 1 });
  else if (key.is('dialog.prevField')) send({ type: 'focus', by: -1 });
  else if (key.is('dialog.close')) return false;
  else {
    if (key.is('dialog.change')) send({ type: 'change' });
    if (key.edit) send({ type: 'line', edit: key.edit });
  }
  return true;
}

/** One part of a key hint: plain text, or a command (or several, "n or Esc") and what it does. */
export type HintPart = string | readonly [CommandId | readonly CommandId[], string];

/** Builds "y send · Esc close" from the keymap in force; a command it lacks is left out. */
export function useHint(): (...parts: HintPart[]) => string {
  const keymap = useKeymap();
  const label = (id: CommandId) => {
    const k = keymap.find((c) => c.id === id)?.keys[0];
    return k === undefined ? undefined : keyLabel(k);
  };
  return (...parts) =>
    parts
      .map((p) => {
        if (typeof p === 'string') return p;
        const [ids, what] = p;
        const keys = (typeof ids === 'string' ? [ids] : ids).map(label).filter(Boolean);
        return keys.length ? `${keys.join(' or ')} ${what}` : '';
      })
      .filter(Boolean)
      .join(' · ');
}

/** The first key of a command as written in hints ('←'), for text that names a key inline. */
export function useKeyLabel(): (id: CommandId) => string {
  const keymap = useKeymap();
  return (id) => keyLabel(keymap.find((c) => c.id === id)?.keys[0] ?? '');
}

/**
 * A question before something runs: y (or n / `decline`) when a key confirms it; the asked name
 * typed and Enter otherwise. Takes every key (the question is modal).
 */
export function askKeys(
  key: DialogKey,
  need: ConfirmationNeed | undefined,
  send: (e: { type: 'confirm' } | { type: 'line'; edit: LineEdit }) => void,
  decline: () => void,
): true {
  if (need?.kind === 'key') {
    if (key.is('dialog.confirm')) send({ type: 'confirm' });
    else if (key.is('dialog.decline')) decline();
  } else if (key.is('dialog.submit')) send({ type: 'confirm' });
  else if (key.edit) send({ type: 'line', edit: key.edit });
  return true;
}
