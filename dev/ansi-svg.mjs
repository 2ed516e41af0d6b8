// Renders a terminal capture (tmux capture-pane -e -p: text with SGR colour codes) to an SVG of a
// fixed grid, so screenshots come from a real run and are not drawn by hand. Handles what tmux
// emits: reset, bold, dim, italic/underline (shown as underline), inverse, 8/16 colours, 256
// colours and RGB.

const BASE = ['#1e1e1e', '#cd3131', '#0dbc79', '#e5e510', '#2472c8', '#bc3fbc', '#11a8cd', '#e5e5e5'];
const BRIGHT = ['#666666', '#f14c4c', '#23d18b', '#f5f543', '#3b8eea', '#d670d6', '#29b8db', '#ffffff'];
const FG = '#d4d4d4';
const BG = '#1e1e1e';

function colour256(n) {
  if (n < 8) return BASE[n];
  if (n < 16) return BRIGHT[n - 8];
  if (n < 232) {
    const v = [0, 95, 135, 175, 215, 255];
    const i = n - 16;
    return `rgb(${v[Math.floor(i / 36)]},${v[Math.floor(i / 6) % 6]},${v[i % 6]})`;
  }
  const g = 8 + (n - 232) * 10;
  return `rgb(${g},${g},${g})`;
}

function applySgr(state, params) {
  const p = params.length ? params : [0];
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === 0) Object.assign(state, { fg: null, bg: null, bold: false, dim: false, underline: false, inverse: false });
    else if (c === 1) state.bold = true;
    else if (c === 2) state.dim = true;
    else if (c === 3 || c === 4) state.underline = true;
    else if (c === 7) state.inverse = true;
    else if (c === 22) state.bold = state.dim = false;
    else if (c === 23 || c === 24) state.underline = false;
    else if (c === 27) state.inverse = false;
    else if (c >= 30 && c <= 37) state.fg = BASE[c - 30];
    else if (c === 39) state.fg = null;
    else if (c >= 40 && c <= 47) state.bg = BASE[c - 40];
    else if (c === 49) state.bg = null;
    else if (c >= 90 && c <= 97) state.fg = BRIGHT[c - 90];
    else if (c >= 100 && c <= 107) state.bg = BRIGHT[c - 100];
    else if (c === 38 || c === 48) {
      const key = c === 38 ? 'fg' : 'bg';
      if (p[i + 1] === 5) {
        state[key] = colour256(p[i + 2]);
        i += 2;
      } else if (p[i + 1] === 2) {
        state[key] = `rgb(${p[i + 2]},${p[i + 3]},${p[i + 4]})`;
        i += 4;
      }
    }
  }
}

/** Parses a capture into rows of cells {ch, fg, bg, bold, dim, underline}. */
export function parseCapture(text, columns, rows) {
  const grid = [];
  const state = { fg: null, bg: null, bold: false, dim: false, underline: false, inverse: false };
  const lines = text.replace(/\n$/, '').split('\n');
  for (let y = 0; y < rows; y++) {
    const line = lines[y] ?? '';
    const cells = [];
    for (let i = 0; i < line.length; i++) {
      if (line[i] === '\u001b' && line[i + 1] === '[') {
        // eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
        const m = /^\u001b\[([0-9;]*)([A-Za-z])/.exec(line.slice(i));
        if (m) {
          if (m[2] === 'm') applySgr(state, m[1] === '' ? [] : m[1].split(';').map(Number));
          i += m[0].length - 1;
          continue;
        }
      }
      const ch = String.fromCodePoint(line.codePointAt(i));
      if (ch.length === 2) i++;
      let fg = state.fg ?? FG;
      let bg = state.bg;
      if (state.inverse) [fg, bg] = [bg ?? BG, fg];
      cells.push({ ch, fg, bg, bold: state.bold, dim: state.dim, underline: state.underline });
    }
    while (cells.length < columns) cells.push({ ch: ' ', fg: FG, bg: null });
    grid.push(cells.slice(0, columns));
  }
  return grid;
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An SVG of the grid in a monospace font. */
export function captureToSvg(text, { columns = 80, rows = 24, cellW = 9, cellH = 18, font = 'DejaVu Sans Mono' } = {}) {
  const grid = parseCapture(text, columns, rows);
  const pad = 12;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${columns * cellW + 2 * pad}" height="${rows * cellH + 2 * pad}">`,
    `<rect width="100%" height="100%" rx="6" fill="${BG}"/>`,
    `<g font-family="${font}" font-size="${Math.round(cellH * 0.8)}px" xml:space="preserve">`,
  ];
  grid.forEach((cells, y) => {
    const top = pad + y * cellH;
    cells.forEach((c, x) => {
      if (c.bg) out.push(`<rect x="${pad + x * cellW}" y="${top}" width="${cellW + 0.5}" height="${cellH}" fill="${c.bg}"/>`);
    });
    // One element per character (librsvg does not honour per-glyph x lists or textLength), so every
    // glyph sits on its own cell whatever the font's advance is.
    cells.forEach((c, x) => {
      if (c.ch === ' ') return;
      const attrs = [
        `x="${pad + x * cellW}"`,
        `y="${top + cellH * 0.78}"`,
        `fill="${c.fg}"`,
        c.bold ? 'font-weight="bold"' : '',
        c.dim ? 'fill-opacity="0.6"' : '',
        c.underline ? 'text-decoration="underline"' : '',
      ];
      out.push(`<text ${attrs.filter(Boolean).join(' ')}>${esc(c.ch)}</text>`);
    });
  });
  out.push('</g></svg>');
  return out.join('\n');
}
