// A read command's text as the console's output view shows it (`:cat allocation`, issue 44 item
// 1): one screen line per line of text, tabs laid out, anything a terminal would obey shown as a
// visible escape, a search that finds the next line holding a word, and the exit code in words. Pure.
import { displayText } from '../text/display-text';
import type { Tone } from '../text/format';

/** The lines to draw: tabs to the next multiple of 8, every control character escaped, no trailing empty line. */
export function outputLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => displayText(expandTabs(l)));
}

function expandTabs(line: string): string {
  let out = '';
  for (const c of line) out += c === '\t' ? ' '.repeat(8 - (out.length % 8)) : c;
  return out;
}

/** The next line after `from` holding `query` (any case), wrapping to the top; undefined when none does. */
export function findLine(lines: readonly string[], query: string, from: number): number | undefined {
  const q = query.toLowerCase();
  if (!q) return undefined;
  for (let i = 1; i <= lines.length; i++) {
    const at = (from + i) % lines.length;
    if (lines[at].toLowerCase().includes(q)) return at;
  }
  return undefined;
}

/** The exit code as the view's last line says it, coloured by what it means. */
export function exitText(code: number, meaning: string | undefined): { text: string; tone: Tone } {
  const tone: Tone = code === 0 ? 'green' : code === 1 || code === 4 ? 'yellow' : 'red';
  return { text: `exit ${code}${meaning ? `: ${meaning}` : ''}`, tone };
}
