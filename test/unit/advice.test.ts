// Advice printed by a command must be true (issue 23): every `shardeck <command> --flag` the
// product's messages mention names a command of the command table and flags that command (or every
// command) takes, and "run/see/try shardeck X" always names a command. A renamed flag or command
// leaves no stale advice behind.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS } from '../../src/commands/support/common';
import { COMMANDS } from '../../src/commands';
import { loadTable, type Table } from '../../src/commands/help';
import { mentionsIn } from '../helpers/advice';

const SRC = path.resolve('src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

/** The product's text: every line that is not a comment, with its place. */
function productLines(): { where: string; text: string }[] {
  return sourceFiles(SRC).flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((text, i) => ({ where: `${path.relative(SRC, file)}:${i + 1}`, text }))
      .filter(({ text }) => !/^\s*(\/\/|\/\*|\*)/.test(text)),
  );
}

let table: Table;
beforeAll(async () => {
  table = await loadTable(COMMANDS);
});

describe('the mention extractor', () => {
  it('finds the command, its flags and where the advice ends', () => {
    expect(mentionsIn('x', 'finish it with shardeck recover-corrupt --resume ${p.index} 0 (or remove --nope)')).toEqual([
      {
        where: 'x',
        command: 'recover-corrupt',
        flags: ['resume'],
        words: ['${p.index}', '0'],
        tokens: ['--resume', '${p.index}', '0'],
        advice: false,
      },
    ]);
    expect(mentionsIn('x', 'run `shardeck stauts --jsn`, then')).toEqual([
      { where: 'x', command: 'stauts', flags: ['jsn'], words: [], tokens: ['--jsn'], advice: true },
    ]);
    expect(mentionsIn('x', 'shardeck talks to the node')[0]).toMatchObject({ command: 'talks', advice: false });
  });
});

describe('advice names real commands and flags', () => {
  it('every mention of a command of the table uses flags it takes; run/see/try always name a command', () => {
    const commands = new Map(table);
    const global = new Set(Object.keys(GLOBAL_OPTIONS));
    const wrong: string[] = [];
    let checked = 0;
    for (const { where, text } of productLines()) {
      for (const m of mentionsIn(where, text)) {
        const mod = commands.get(m.command);
        if (!mod) {
          // Prose about shardeck itself ("shardeck talks to the node") is not advice; after run/see/try it is.
          if (m.advice && !['as', 'instead', 'itself'].includes(m.command)) wrong.push(`${where}: "${m.command}" is no command`);
          continue;
        }
        checked++;
        const own = new Set(Object.keys(mod.options ?? {}));
        for (const f of m.flags) if (!own.has(f) && !global.has(f)) wrong.push(`${where}: shardeck ${m.command} takes no --${f}`);
        // `shardeck help X` (alone: not a flag's value, not a sentence going on): X is a command.
        if (
          m.command === 'help' &&
          !m.flags.length &&
          m.words.length === 1 &&
          /^[a-z][a-z-]*$/.test(m.words[0]) &&
          !commands.has(m.words[0])
        )
          wrong.push(`${where}: shardeck help ${m.words[0]}: no such command`);
      }
    }
    expect(wrong).toEqual([]);
    // The walk saw the product's advice (a broken extractor would pass with nothing checked).
    expect(checked).toBeGreaterThan(50);
  });
});
