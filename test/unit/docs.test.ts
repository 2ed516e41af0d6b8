// The README and docs/ are checked like code (issue 46): every relative link and image points at a
// file that exists (and a heading that exists, for an #anchor into a page), every page is reachable
// from the README, every generated section is what its source makes now (npm run docs), and every
// `shardeck ...` example names a command of the command table with flags that command takes.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SECTIONS, sectionOf } from '../../dev/docs-sections';
import { COMMANDS } from '../../src/commands';
import { loadTable, type Table } from '../../src/commands/help';
import { GLOBAL_OPTIONS } from '../../src/commands/support/common';

const ROOT = path.resolve(__dirname, '..', '..');
/** Pages linked from the README that other sessions are writing now; they must exist once written. */
function pages(): string[] {
  const docs = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? docs(p) : e.name.endsWith('.md') ? [p] : [];
    });
  return ['README.md', ...docs('docs')];
}

const read = (page: string) => fs.readFileSync(path.join(ROOT, page), 'utf8');

/** The page's lines outside fenced code blocks (blank inside them). */
function unfenced(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** Link and image targets: [text](target), ![alt](target), <img src="target">; not inside code (an example). */
export function linkTargets(text: string): string[] {
  const out: string[] = [];
  for (const line of unfenced(text).map((l) => l.replace(/`[^`]*`/g, '``'))) {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push(m[1]);
    for (const m of line.matchAll(/<img\b[^>]*\bsrc="([^"]+)"/g)) out.push(m[1]);
  }
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of unfenced(text)) {
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Where each relative link of a page goes wrong; empty when every one resolves. */
export function brokenLinks(page: string, text: string, exists: (p: string) => boolean, readPage: (p: string) => string): string[] {
  const wrong: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:: not this repository's
    const [file, anchor] = target.split('#');
    const resolved = file ? path.normalize(path.join(path.dirname(page), file)) : page;
    if (file && !exists(resolved)) {
      wrong.push(`${page}: ${target}: no such file`);
      continue;
    }
    if (anchor && resolved.endsWith('.md') && !anchorsOf(readPage(resolved)).has(anchor))
      wrong.push(`${page}: ${target}: no heading #${anchor} in ${resolved}`);
  }
  return wrong;
}

/** A `shardeck ...` example: the command word (or '' for flags straight after shardeck) and its flags. */
export interface Example {
  where: string;
  text: string;
  command: string;
  flags: string[];
}

/** Code: fenced lines whole, and code spans of prose lines. */
function codeOf(text: string): { line: number; code: string }[] {
  const out: { line: number; code: string }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (fenced) out.push({ line: i + 1, code: line });
    else for (const m of line.matchAll(/`([^`]+)`/g)) out.push({ line: i + 1, code: m[1] });
  });
  return out;
}

/** Every `shardeck ...` in a page's code, up to the end of its shell command (a pipe, a redirect, a comment). */
export function examplesIn(page: string, text: string): Example[] {
  const out: Example[] = [];
  for (const { line, code } of codeOf(text)) {
    for (const m of code.matchAll(/(?<![\w/.-])shardeck(?=\s|$)(.*)/g)) {
      const rest = m[1].split(/\s+(?:\||>|&&|\|\||2>|#)\s|;|\$\(/)[0];
      const tokens = rest.trim().split(/\s+/).filter(Boolean);
      const first = (tokens[0] ?? '').replace(/^[[(]+|[\]),]+$/g, '');
      // A placeholder (<command>, COMMAND, $CMD): nothing to check.
      if (first && !first.startsWith('-') && !/^[a-z][a-z-]*$/.test(first)) continue;
      const command = first.startsWith('-') ? '' : first;
      const flags = [...rest.matchAll(/(?:^|[\s[(|\\])--([a-z][a-z0-9-]*)/g)].map((f) => f[1]);
      out.push({ where: `${page}:${line}`, text: `shardeck${rest}`.trim(), command, flags });
    }
  }
  return out;
}

/** Why an example would not run: an unknown command or a flag the command does not take. */
export function wrongExample(e: Example, table: Table): string | undefined {
  const mod = new Map(table).get(e.command || 'tui');
  if (!mod) return `${e.where}: ${e.text}: no command "${e.command}"`;
  const known = new Set([...Object.keys(GLOBAL_OPTIONS), ...Object.keys(mod.options ?? {}), ...(e.command ? [] : ['version'])]);
  const unknown = e.flags.filter((f) => !known.has(f));
  return unknown.length
    ? `${e.where}: ${e.text}: shardeck ${e.command || 'tui'} takes no ${unknown.map((f) => `--${f}`).join(', ')}`
    : undefined;
}

let table: Table;
beforeAll(async () => {
  table = await loadTable(COMMANDS);
});

describe('links and images', () => {
  it('every relative link and image of README.md and docs/ resolves, #anchors included', () => {
    const exists = (p: string) => fs.existsSync(path.join(ROOT, p));
    const wrong = pages().flatMap((p) => brokenLinks(p, read(p), exists, read));
    expect(wrong).toEqual([]);
  });

  it('every code fence is closed (an open one swallows the rest of the page)', () => {
    const open = pages().filter(
      (p) =>
        read(p)
          .split('\n')
          .filter((l) => /^\s*```/.test(l)).length % 2,
    );
    expect(open).toEqual([]);
  });

  it('every page of docs/ is reachable from the README', () => {
    const seen = new Set<string>();
    const walk = (page: string) => {
      if (seen.has(page) || !page.endsWith('.md') || !fs.existsSync(path.join(ROOT, page))) return;
      seen.add(page);
      for (const t of linkTargets(read(page))) {
        const file = t.split('#')[0];
        if (file && !/^[a-z][a-z+.-]*:/i.test(t)) walk(path.normalize(path.join(path.dirname(page), file)));
      }
    };
    walk('README.md');
    expect(pages().filter((p) => !seen.has(p))).toEqual([]);
  });

  it('the checker sees a broken file, image and anchor', () => {
    const text = '[a](docs/NOPE.md) ![b](screenshots/nope.png) [c](docs/WATCH.md#no-such-heading) `[d](in-code.md)`';
    expect(
      brokenLinks(
        'README.md',
        text,
        (p) => p === 'docs/WATCH.md',
        () => '# Watch\n## Doctor',
      ),
    ).toEqual([
      'README.md: docs/NOPE.md: no such file',
      'README.md: screenshots/nope.png: no such file',
      'README.md: docs/WATCH.md#no-such-heading: no heading #no-such-heading in docs/WATCH.md',
    ]);
    expect(slug('Doctor (`shardeck doctor`, pane `7`)')).toBe('doctor-shardeck-doctor-pane-7');
  });
});

describe('generated sections', () => {
  it.each(SECTIONS.map((s) => [`${s.file} ${s.name}`, s] as const))('%s is what its source makes now (npm run docs)', async (_, s) => {
    const body = sectionOf(read(s.file), s.name);
    expect(body, `${s.file} lacks <!-- ${s.name}:start --> ... <!-- ${s.name}:end -->`).toBeDefined();
    expect(body).toBe(await s.make());
  });
});

describe('shardeck examples', () => {
  it('every `shardeck ...` in README.md and docs/ names a command and flags it takes', () => {
    const examples = pages().flatMap((p) => examplesIn(p, read(p)));
    const wrong = examples.flatMap((e) => wrongExample(e, table) ?? []);
    expect(wrong).toEqual([]);
    // The walk saw the examples (a broken extractor would pass with nothing checked).
    expect(examples.length).toBeGreaterThan(200);
  });

  it('the checker sees an unknown command and an unknown flag, and skips placeholders and pipes', () => {
    const text = [
      '```sh',
      'shardeck stauts --json',
      'shardeck status --jsn   # a comment --not-a-flag',
      'shardeck help --man | man -l --local-file -',
      '```',
      'Run `shardeck <command> --json` or `shardeck --profile prod`; `shardeck replicas set x 1 [--template T\\|--nope]`.',
    ].join('\n');
    const wrong = examplesIn('x.md', text).flatMap((e) => wrongExample(e, table) ?? []);
    expect(wrong).toEqual([
      'x.md:2: shardeck stauts --json: no command "stauts"',
      'x.md:3: shardeck status --jsn: shardeck status takes no --jsn',
      'x.md:6: shardeck replicas set x 1 [--template T\\|--nope]: shardeck replicas takes no --nope',
    ]);
  });
});

describe('the README', () => {
  it('gives the demo and the test command, and .ci/run runs the latter', () => {
    const readme = read('README.md');
    expect(readme).toMatch(/^npm run demo\b/m);
    expect(readme).toMatch(/^npm test\b/m);
    expect(fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });

  it('stays short: at most 250 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250);
  });
});
