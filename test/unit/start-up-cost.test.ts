// What every start-up must not pay for. The bundles' stand-ins (dev/lib/bundle-aliases.mjs), built
// the way dev/build.mjs builds them: string-width gives the real module's widths but builds its Intl.Segmenter and Unicode
// tables only on the first text that is not printable ASCII (50-150 ms of every start-up before);
// semver is not in the bundle at all, and shardeck's config still opens (conf uses it only for
// migrations, which shardeck does not give). And no sort by localeCompare: its first call builds
// ICU's collator (~40 ms; status --json sorts the health indicators): src/domain/text/order.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import realWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleAliases } from '../../dev/lib/bundle-aliases.mjs';

const root = path.join(__dirname, '../..');
let dir: string;
let bundled: {
  stringWidth: (text: unknown, options?: object) => number;
  openConfig: () => { get: (key: string) => unknown };
  semver: { eq: (a: string, b: string) => boolean };
};
let segmenters = 0;
const RealSegmenter = Intl.Segmenter;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-stubs-'));
  await build({
    stdin: {
      contents: [
        "export { default as stringWidth } from 'string-width';",
        "export { openConfig } from './src/config/profiles';",
        "export { default as semver } from 'semver';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    outfile: path.join(dir, 'entry.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    alias: bundleAliases(root),
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'error',
  });
  // Counts the Segmenters made from here on (string-width makes one when its module runs).
  (Intl as { Segmenter: typeof RealSegmenter }).Segmenter = class extends RealSegmenter {
    constructor(...args: ConstructorParameters<typeof RealSegmenter>) {
      super(...args);
      segmenters++;
    }
  };
  bundled = await import(pathToFileURL(path.join(dir, 'entry.mjs')).href);
});

afterAll(() => {
  (Intl as { Segmenter: typeof RealSegmenter }).Segmenter = RealSegmenter;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the bundle's string-width", () => {
  it('measures printable ASCII without loading the real module, which loads on the first other text', () => {
    expect(bundled.stringWidth('service_v9_alpha yellow 42')).toBe(26);
    expect(bundled.stringWidth('')).toBe(0);
    // The symbols the screens draw, coloured or not (the status bar of the first frame: '·', '…').
    expect(bundled.stringWidth('\u001b[2mhttp://127.0.0.1:9200 · every 5s\u001b[22m')).toBe(32);
    expect(bundled.stringWidth('│ ─ ┌┐ ▁▇█ ↑↓ ⠿ … — «é»')).toBe(23);
    expect(segmenters).toBe(0);
    expect(bundled.stringWidth('漢字')).toBe(4);
    expect(segmenters).toBe(1);
  });

  it('gives the real module’s width for every character of the Basic Multilingual Plane, plain and coloured', () => {
    const differ: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue; // lone surrogates are no text
      const ch = String.fromCharCode(c);
      const cases: [string, object?][] = [[ch], [ch, { ambiguousIsNarrow: false }], [`\u001b[31m${ch}\u001b[39m`], [`a${ch}b`]];
      for (const [t, o] of cases)
        if (bundled.stringWidth(t, o) !== realWidth(t, o)) differ.push(`${JSON.stringify(t)} ${JSON.stringify(o)}`);
    }
    expect(differ).toEqual([]);
  });

  it('gives the real module’s width for every kind of text', () => {
    const texts = [
      'plain',
      ' ~!{}',
      '漢字abc',
      'é',
      'e\u0301',
      '👍🏽',
      '👨‍👩‍👧',
      '\u001b[31mred\u001b[0m',
      '\t',
      'a\u200bb',
      '│ ─ ●',
      'ｶﾀｶﾅ',
      '한국어',
    ];
    for (const t of texts) {
      expect(bundled.stringWidth(t), JSON.stringify(t)).toBe(realWidth(t));
      expect(bundled.stringWidth(t, { ambiguousIsNarrow: false }), JSON.stringify(t)).toBe(realWidth(t, { ambiguousIsNarrow: false }));
    }
    expect(bundled.stringWidth('\u001b[31mred', { countAnsiEscapeCodes: true })).toBe(
      realWidth('\u001b[31mred', { countAnsiEscapeCodes: true }),
    );
    expect(bundled.stringWidth(42)).toBe(0);
  });
});

describe("the bundle's semver", () => {
  it('is a stand-in that refuses to be used, and shardeck’s config opens without it', () => {
    expect(() => bundled.semver.eq('8.1.0', '8.1.0')).toThrow(/no semver/);
    const before = process.env.SHARDECK_CONFIG_DIR;
    process.env.SHARDECK_CONFIG_DIR = path.join(dir, 'config');
    try {
      expect(bundled.openConfig().get('profiles')).toEqual({});
    } finally {
      if (before === undefined) delete process.env.SHARDECK_CONFIG_DIR;
      else process.env.SHARDECK_CONFIG_DIR = before;
    }
  });
});

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('text order', () => {
  it('no file of src/ calls localeCompare (compareText of src/domain/text/order.ts instead)', () => {
    const offenders = sources(path.join(root, 'src')).filter((f) => /\.localeCompare\(/.test(fs.readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
