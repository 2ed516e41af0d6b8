// The keymap in force: read-only mode strips dangerous commands (keys/keymap.ts, one place).
import { useMemo, useSyncExternalStore } from 'react';
import { activeKeymap, KEYMAP, type KeyCommand } from '../../keys/keymap';
import { useOptionalConsoleContext } from './context';

const NO_STORE = () => () => undefined;

export function useKeymap(): KeyCommand[] {
  // A wizard mounted without the console (its own tests) has no connection to read the mode
  // from: it gets every key; the guard refuses any change in read-only mode regardless.
  const store = useOptionalConsoleContext()?.store;
  const readOnly = useSyncExternalStore(store?.subscribe ?? NO_STORE, () => store?.getState().connection.readOnly ?? false);
  // KEYMAP may gain rows at load time (a test adds one); read it when the mode changes.
  return useMemo(() => activeKeymap(readOnly, KEYMAP), [readOnly]);
}
