// Issue 44 item 4: every question a command asks on the terminal before it changes something
// starts with the profile's label, as its preview does ([PROD] send this request? [y/N]), so a
// change meant for staging is not confirmed on production by habit. This walks every question
// in the commands' source (each readline question) and fails on one asked without the label.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(__dirname, '../../src/commands');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The argument text of each `.question(` call: up to its closing parenthesis. */
function questions(text: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf('.question('); at >= 0; at = text.indexOf('.question(', at + 1)) {
    let depth = 0;
    let end = at + '.question'.length;
    for (; end < text.length; end++) {
      if (text[end] === '(') depth++;
      else if (text[end] === ')' && --depth === 0) break;
    }
    found.push(text.slice(at, end + 1));
  }
  return found;
}

describe("the profile's label in every question", () => {
  const asked = sources(ROOT).flatMap((file) =>
    questions(fs.readFileSync(file, 'utf8')).map((q) => ({ file: path.relative(ROOT, file), q })),
  );

  it('finds the questions (the confirmations of changes, the checklist, the lock, the cluster name)', () => {
    const files = new Set(asked.map((a) => a.file));
    for (const f of ['recover-corrupt.ts', 'lock.ts', 'support/guarded.ts', 'restart-node.ts', 'shrink.ts', 'support/engine-run.ts'])
      expect(files, f).toContain(f);
  });

  it('each starts with the label (labelFor, or the badge painted)', () => {
    for (const { file, q } of asked)
      expect(q, `${file}: ${q}`).toMatch(/\(\s*forTerminal\(\s*(`\$\{(labelFor\(values\)|label)\}|paintBadge\()/);
  });
});
