// The keymap in force: read-only mode strips dangerous commands (keys/keymap.ts, one place).
import { useMemo, useSyncExternalStore } from 'react';
import { activeKeymap, KEYMAP, type KeyCommand } from '../../keys/keymap';
import { useOptionalConsoleContext } from './context';

const NO_STORE = () => () => undefined;

export function useKeymap(): KeyCommand[] {
  // A wizard mounted without the console (its own tests) has no connection to read the mode
  // from: it gets every key; the guard refuses any change in read-only mode regardless.
  const ctx = useOptionalConsoleContext();
  const store = ctx?.store;
  // A follower is read-only, yet its wizard keys propose the change to the leader (App.tsx).
  const proposes = ctx?.share?.propose !== undefined;
  const readOnly = useSyncExternalStore(store?.subscribe ?? NO_STORE, () => (store?.getState().connection.readOnly ?? false) && !proposes);
  // KEYMAP may gain rows at load time (a test adds one); read it when the mode changes.
  return useMemo(() => activeKeymap(readOnly, KEYMAP), [readOnly]);
}
