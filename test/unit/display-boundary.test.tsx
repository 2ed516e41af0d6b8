// The display boundary has one door each way, so no command or pane has to remember to sanitise:
// a command prints through commands/support/output.ts (out/err), the console shows text through
// ui/components/Text.tsx. This fails on a raw write to the terminal or on Ink's own Text anywhere
// else; then it checks the two doors themselves with the hostile names.
import fs from 'node:fs';
import path from 'node:path';
import React from 'react';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { colourMark, forTerminal } from '../../src/commands/support/output';
import { Text } from '../../src/ui/components/Text';
import { HOSTILE } from '../fixtures/hostile/names';

const SRC = path.resolve('src');
// eslint-disable-next-line no-control-regex -- asserts no control character reaches the output
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

/** Our own fixed sequences (the alternate screen, the cursor) are the only raw writes besides the door. */
const RAW_WRITE = /process\.(stdout|stderr)\.write\((?!(SHOW_CURSOR|ENTER_ALT_SCREEN)\b)|console\.(log|error|warn|info)\(/g;

describe('one door to the terminal', () => {
  it('no code writes to stdout or stderr except commands/support/output.ts', () => {
    const hits: string[] = [];
    for (const file of sourceFiles(SRC)) {
      if (file.endsWith(path.join('commands', 'support', 'output.ts'))) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(RAW_WRITE)) hits.push(`${path.relative(SRC, file)}:${text.slice(0, m.index).split('\n').length}`);
    }
    expect(hits).toEqual([]);
  });

  it("no console code uses Ink's Text except the sanitising one", () => {
    const hits = sourceFiles(SRC)
      .filter((f) => !f.endsWith(path.join('ui', 'components', 'Text.tsx')))
      .filter((f) => /import\s*\{[^}]*\bText\b[^}]*\}\s*from\s*'ink'/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(SRC, f));
    expect(hits).toEqual([]);
  });
});

describe('the doors', () => {
  it('forTerminal shows every hostile name escaped and keeps only our own colour marks as colour', () => {
    for (const { label, name } of HOSTILE) {
      const shown = forTerminal(`name: ${name}\n`);
      expect(shown, label).not.toMatch(CONTROL);
      expect(shown.endsWith('\n'), label).toBe(true);
    }
    // A name that holds a colour sequence stays text; paint's mark becomes one.
    expect(forTerminal(`${colourMark(31)}red${colourMark(39)} x\u001b[31my`)).toBe('\u001b[31mred\u001b[39m x\\u001b[31my');
  });

  it('the console Text shows every hostile name escaped, nested or not', () => {
    for (const { label, name } of HOSTILE) {
      const { lastFrame, unmount } = render(
        <Text>
          index {name} <Text bold>{name}</Text>
        </Text>,
      );
      const frame = lastFrame() ?? '';
      unmount();
      // eslint-disable-next-line no-control-regex -- asserts no control character reaches the output
      expect(frame, label).not.toMatch(/[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      // The only ESC left is Ink's own styling (bold), never the name's.
      // eslint-disable-next-line no-control-regex -- matches the terminal's escape sequences on purpose
      expect(frame.replace(/\u001b\[\d+m/g, ''), label).not.toContain('\u001b');
    }
  });
});
