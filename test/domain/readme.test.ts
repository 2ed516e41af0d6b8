// The README is a contract: its key table is the keymap's, and it names the two commands.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodesMarkdown } from '../../src/commands/help';
import { keymapMarkdown } from '../../src/keys/keymap';

const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');

describe('README', () => {
  it('has the key table generated from the keymap (npm run readme:keys)', () => {
    const table = /<!-- keys:start -->\n([\s\S]*?)\n<!-- keys:end -->/.exec(readme)?.[1];
    expect(table).toBe(keymapMarkdown());
  });

  it('has the one exit-code table, as shardeck help prints it', () => {
    const table = /<!-- exit-codes:start -->\n([\s\S]*?)\n<!-- exit-codes:end -->/.exec(readme)?.[1];
    expect(table).toBe(exitCodesMarkdown());
  });

  it('gives the demo and the test command, and .ci/run runs the latter', () => {
    expect(readme).toMatch(/npm run demo/);
    expect(readme).toMatch(/npm test/);
    expect(fs.readFileSync(path.join(__dirname, '..', '..', '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });
});
