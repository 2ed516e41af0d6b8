// The terminal's size, following resizes.
import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

export const MIN_COLUMNS = 80;
/** Everything fits, wizards and views included: 80x24 less a tmux status line. */
export const FULL_ROWS = 23;
/** Below this the key hints line is left out (the status bar stays). */
export const HINT_ROWS = 20;
/** The panes degrade (fewer rows) down to this; below it the console says it is too small. */
export const MIN_ROWS = 16;

export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || MIN_COLUMNS, rows: stdout.rows || FULL_ROWS + 1 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => void stdout.off('resize', onResize);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `read` only reads stdout
  }, [stdout]);
  return size;
}
