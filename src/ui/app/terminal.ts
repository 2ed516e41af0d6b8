// The terminal's size, following resizes.
import { useEffect, useState } from 'react';
import { useStdout } from 'ink';

export const MIN_COLUMNS = 80;
export const MIN_ROWS = 24;

export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || MIN_COLUMNS, rows: stdout.rows || MIN_ROWS });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => void stdout.off('resize', onResize);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout]);
  return size;
}
