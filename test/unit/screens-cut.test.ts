// Issue 47 item 7: no line cut where a full line matters. Every screen the snapshot tests write at 80
// columns (test/snapshots/__screens__, the smallest terminals: 80x23 and 80x24) is read back, and a
// shardeck command shown on it must be whole: one cut short ("shardeck tasks oTUltX4IQ…") cannot be
// copied. (Written by the snapshot tests; a screen that changed fails there first.)
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { COMMANDS } from '../../src/commands';
import { mentionsIn } from '../helpers/advice';

const DIR = path.resolve('test/snapshots/__screens__');

it('no 80-column screen shows a shardeck command cut short', () => {
  const screens = fs.readdirSync(DIR).filter((f) => /-80x2[34]\.txt$/.test(f));
  const cut: string[] = [];
  let commands = 0;
  for (const file of screens) {
    const lines = fs
      .readFileSync(path.join(DIR, file), 'utf8')
      // The markers of colour and style (test/ui/markers.ts) are not on the terminal.
      .replace(/⟦[^⟧]*⟧/g, '')
      .split('\n');
    // " · " parts a line's facts: never inside a command.
    for (const line of lines.flatMap((l) => l.split(' · ')))
      for (const m of mentionsIn(file, line)) {
        if (!(m.command in COMMANDS)) continue;
        commands++;
        if (m.tokens.some((t) => t.endsWith('…'))) cut.push(`${file}: ${line.trim()}`);
      }
  }
  expect(cut).toEqual([]);
  // The screens were read and hold commands (an empty folder or a broken reader would pass).
  expect(screens.length).toBeGreaterThan(50);
  expect(commands).toBeGreaterThan(10);
});
