// string-width builds an Intl.Segmenter (ICU's data) and Unicode-property regular expressions
// (RGI_Emoji) when it is loaded: 50-150 ms of start-up that `status --json`, `get` and `cat`
// never need. The bundles (dev/lib/bundle-aliases.mjs) give every importer (src/domain/text/text.ts,
// Ink, wrap-ansi, cli-truncate, widest-line) this instead: printable ASCII is measured exactly as
// string-width measures it (its own first shortcut), and the real module is loaded (esbuild's lazy
// init of a require()d ES module) on the first other text. test/unit/string-width-stub.test.ts.
let real;

export default function stringWidth(text, options) {
  if (typeof text === 'string' && /^[\u0020-\u007E]*$/.test(text)) return text.length;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild makes a require()d ES module a lazy init; an import would run it at load
  real ??= require('../../node_modules/string-width/index.js').default;
  return real(text, options);
}
