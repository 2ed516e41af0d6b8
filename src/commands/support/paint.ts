// Colour for the text output of subcommands: only on a terminal that is not TERM=dumb, never with NO_COLOR (no-color.org).
// paint() marks where the colour changes; out()/err() (output.ts) turn the marks into escape
// sequences after sanitising the text, so painted text must be printed through them.
import { colourMark } from './output';
import { inProcessRun } from './in-process';

export type Colour = 'green' | 'yellow' | 'red' | 'gray' | 'blue' | 'magenta' | 'cyan' | 'dim' | 'bold' | 'unknown' | 'unavailable';

const CODES: Record<Colour, [number, number]> = {
  green: [32, 39],
  yellow: [33, 39],
  red: [31, 39],
  gray: [90, 39],
  // A profile's label (domain/console/profile-badge.ts) may take these too.
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
  dim: [2, 22],
  bold: [1, 22],
  unknown: [35, 39],
  unavailable: [35, 39],
};

export function colourEnabled(stream: NodeJS.WriteStream = process.stdout): boolean {
  // Run inside the console: its view draws plain text (an escape sequence would be shown as text).
  if (inProcessRun()) return false;
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  // A dumb terminal (Emacs shell, some serial consoles) prints escape codes as garbage.
  if (process.env.TERM === 'dumb') return false;
  return Boolean(stream.isTTY);
}

/** `colour` is a Colour's name; any other string (a tone read from data) leaves the text unpainted. */
export function paint(colour: string, text: string): string {
  const code = CODES[colour as Colour];
  if (!code || !colourEnabled()) return text;
  return `${colourMark(code[0])}${text}${colourMark(code[1])}`;
}
