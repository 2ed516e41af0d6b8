// Copy (y, Ctrl-Y in a wizard) and screen dump (w, Ctrl-W in a wizard): what they do, said on the
// status bar for a few seconds (ui/components/StatusBar.tsx). The OSC 52 bytes go to Ink's own
// stream between frames: they draw nothing and move no cursor.
import { useStdout } from 'ink';
import { clipboardWay, copiedText, copyRefusal, osc52Sequences } from '../../domain/console/clipboard';
import { dumpedText } from '../../domain/console/screen-dump';
import { useOptionalConsoleContext } from './context';

/** How long the status bar says what a copy or dump did. */
export const FLASH_MS = 8000;

export function useHabits(): {
  copy(what: string, text: string | undefined, opts?: { block?: boolean; label?: string }): void;
  dump(): void;
} {
  const ctx = useOptionalConsoleContext();
  const { stdout } = useStdout();
  // A wizard mounted on its own (its tests): no console, nothing to say it on.
  if (!ctx) return { copy: () => undefined, dump: () => undefined };
  const { ui, files, clock } = ctx;
  const say = (text: string, tone: 'green' | 'yellow' | 'red') => ui.setState({ flash: { text, at: clock(), tone } });
  const fail = (what: string, e: unknown) => say(`${what}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 'red');
  return {
    copy(what, text, opts = {}) {
      const refused = copyRefusal(what, text ?? '', opts);
      if (refused || text === undefined) return say(refused ?? `nothing to copy`, 'yellow');
      const inTmux = Boolean(process.env.TMUX);
      const way = clipboardWay({ tty: Boolean(stdout.isTTY), term: process.env.TERM, setting: process.env.SHARDECK_CLIPBOARD, text });
      if (way === 'osc52') {
        for (const seq of osc52Sequences(text, inTmux)) stdout.write(seq);
        return say(copiedText(text, way, { inTmux, label: opts.label }), 'green');
      }
      if (!files) return say('not copied: this terminal cannot take OSC 52 and this console writes no files', 'yellow');
      try {
        say(copiedText(text, way, { inTmux, file: files.saveCopied(text), label: opts.label }), 'green');
      } catch (e) {
        fail('not copied', e);
      }
    },
    dump() {
      if (!files) return say('no screen dump here: the console (shardeck) writes them', 'yellow');
      try {
        const { file, lines } = files.saveScreen();
        say(dumpedText(file, lines), 'green');
      } catch (e) {
        fail('the screen was not written', e);
      }
    },
  };
}
