// The console's screen as it was last drawn, for the screen dump (w): Ink writes each whole frame
// with one write (incremental rendering is off, mount.tsx), so the stream Ink is given keeps the
// last write that drew lines. Everything else passes through to the terminal untouched.
import { saveCopied, saveScreen, shortPath } from '../../config/console-files';
import { plainScreen } from '../../domain/console/screen-dump';
import { saveColumnChoice } from '../../config/columns';
import { saveHistory } from '../../config/command-history';
import type { ConsoleFiles } from '../../ui/app/context';

export function frameKeeping(stream: NodeJS.WriteStream): { stdout: NodeJS.WriteStream; lastFrame: () => string } {
  let last = '';
  const write = (chunk: unknown, ...rest: unknown[]): boolean => {
    if (typeof chunk === 'string' && chunk.includes('\n')) last = chunk;
    return (stream.write as (...a: unknown[]) => boolean)(chunk, ...rest);
  };
  const stdout = new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') return write;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { stdout, lastFrame: () => last };
}

/** The console's files: a copy the terminal cannot take, the screen as last drawn, the profile's columns. */
export function consoleFiles(lastFrame: () => string, profile: string): ConsoleFiles {
  return {
    saveColumns: (pane, choice) => saveColumnChoice(profile, pane, choice),
    saveHistory: (lines) => saveHistory(profile, lines),
    saveCopied: (text) => shortPath(saveCopied(text)),
    saveScreen: () => {
      const text = plainScreen(lastFrame());
      return { file: shortPath(saveScreen(text)), lines: text.split('\n').length - 1 };
    },
  };
}
