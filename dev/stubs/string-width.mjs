// string-width builds an Intl.Segmenter (ICU's data) and Unicode-property regular expressions
// (RGI_Emoji) when it is loaded: 50-150 ms of start-up that `status --json`, `get` and `cat`
// never need, and ~16 ms of the console's first frame. The bundles (dev/lib/bundle-aliases.mjs)
// give every importer (src/domain/text/text.ts, Ink, wrap-ansi, cli-truncate, widest-line) this
// instead: text of printable ASCII and the one-column symbols the screens draw (·, …, arrows, box
// lines, bars, braille), coloured or not, is measured as string-width measures it: a column each
// once the colour codes are taken out. The real module is loaded (esbuild's lazy init of a
// require()d ES module) on the first other text. test/unit/start-up-cost.test.ts checks every
// character of the Basic Multilingual Plane against the real module.
let real;

/**
 * One column each for string-width with its default options (ambiguous is narrow), one grapheme
 * each (no combining marks, joiners or selectors): Latin-1 but the soft hyphen, general
 * punctuation before the line separators and after them up to the invisible operators, arrows,
 * box drawing and block elements, braille.
 */
const NARROW = /^[\u0020-\u007E\u00A0-\u00AC\u00AE-\u00FF\u2010-\u2027\u2030-\u205E\u2190-\u21FF\u2500-\u259F\u2800-\u28FF]*$/;
const ASCII = /^[\u0020-\u007E]*$/;
/** Colour and style codes (SGR), which string-width does not count by default. */
// eslint-disable-next-line no-control-regex -- matches the escape character on purpose
const SGR = /\u001B\[[0-9;]*m/g;

export default function stringWidth(text, options) {
  if (typeof text === 'string') {
    if (ASCII.test(text)) return text.length;
    const plain = options?.countAnsiEscapeCodes ? text : text.replace(SGR, '');
    if ((options?.ambiguousIsNarrow ?? true) ? NARROW.test(plain) : ASCII.test(plain)) return plain.length;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild makes a require()d ES module a lazy init; an import would run it at load
  real ??= require('../../node_modules/string-width/index.js').default;
  return real(text, options);
}
