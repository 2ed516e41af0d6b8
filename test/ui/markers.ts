// Turns a frame with ANSI colours into plain text with visible markers, so a snapshot diff shows
// what changed in colour as well as in text: "⟦red⟧RED⟦⟧" is red text; styles combine as
// "⟦yellow bold⟧". Only the SGR codes Ink's chalk emits are named; any other is kept as "⟦sgr N⟧".
const FG: Record<number, string> = {
  30: 'black',
  31: 'red',
  32: 'green',
  33: 'yellow',
  34: 'blue',
  35: 'magenta',
  36: 'cyan',
  37: 'white',
  90: 'gray',
};
const ATTR: Record<number, string> = { 1: 'bold', 2: 'dim', 3: 'italic', 4: 'underline', 7: 'inverse', 9: 'strike' };
/** SGR codes that end an attribute, with the attributes they end. */
const OFF: Record<number, string[]> = { 22: ['bold', 'dim'], 23: ['italic'], 24: ['underline'], 27: ['inverse'], 29: ['strike'] };

export function withColourMarkers(frame: string): string {
  let fg: string | undefined;
  let attrs: string[] = [];
  let shown = '';
  let out = '';
  const style = () => [fg, ...attrs].filter(Boolean).join(' ');
  // eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
  for (const part of frame.split(/(\u001b\[[0-9;]*m)/)) {
    // eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
    const sgr = /^\u001b\[([0-9;]*)m$/.exec(part);
    if (!sgr) {
      if (part === '') continue;
      // Styles are per line on screen: close at each line end, reopen after it.
      const lines = part.split('\n');
      lines.forEach((line, i) => {
        if (i > 0) {
          if (shown) out += '⟦⟧';
          out += '\n';
          shown = '';
        }
        if (line === '') return;
        const now = style();
        if (now !== shown) out += now ? `⟦${now}⟧` : '⟦⟧';
        shown = now;
        out += line;
      });
      continue;
    }
    for (const code of (sgr[1] || '0').split(';').map(Number)) {
      if (code === 0) {
        fg = undefined;
        attrs = [];
      } else if (code === 39) fg = undefined;
      else if (FG[code]) fg = FG[code];
      else if (ATTR[code]) attrs = [...attrs.filter((a) => a !== ATTR[code]), ATTR[code]];
      else if (OFF[code]) attrs = attrs.filter((a) => !OFF[code].includes(a));
      else attrs = [...attrs, `sgr ${code}`];
    }
  }
  if (shown) out += '⟦⟧';
  return out;
}
