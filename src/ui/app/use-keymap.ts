// The keymap in force: read-only mode strips dangerous commands (keys/keymap.ts, one place).
import { useMemo } from 'react';
import { activeKeymap, KEYMAP, type KeyCommand } from '../../keys/keymap';
import { useConsole } from './context';

export function useKeymap(): KeyCommand[] {
  const readOnly = useConsole((s) => s.connection.readOnly);
  // KEYMAP may gain rows at load time (wizards register theirs); read it when the mode changes.
  return useMemo(() => activeKeymap(readOnly, KEYMAP), [readOnly]);
}
