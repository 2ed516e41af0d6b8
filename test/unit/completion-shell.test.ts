// The completion scripts in a real bash and a real zsh, fed by the real CLI (`shardeck help
// --complete indices`, run from src/ with tsx) over a cache saved by the console's own
// saveIndexNames from the hostile names fixture. Pressing Tab must never run an index name
// (`x$(touch${IFS}marker)` used to create the file through compgen -W; zsh's compadd was already
// inert), and every offered
// word must, typed back by the shell, be exactly an index name.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashCompletion, loadTable, zshCompletion } from '../../src/commands/help';
import { COMMANDS } from '../../src/commands';
import { saveIndexNames } from '../../src/config/completion-cache';
import { HOSTILE } from '../fixtures/hostile/names';

let dir: string;
let env: NodeJS.ProcessEnv;
const markers = () => fs.readdirSync(dir).filter((f) => f.startsWith('marker'));
// Every name of the fixture, the ones Elasticsearch refuses too: the cache is a file.
const ALL = HOSTILE.map((h) => h.name);
const savable = ALL.filter((n) => !/[\r\n]/.test(n));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'completion-'));
  fs.mkdirSync(path.join(dir, 'bin'));
  const conf = path.join(dir, 'conf');
  const tsx = path.resolve('node_modules/.bin/tsx');
  const cli = path.resolve('src/cli.tsx');
  fs.writeFileSync(path.join(dir, 'bin', 'shardeck'), `#!/bin/sh\nexec '${tsx}' '${cli}' "$@"\n`, { mode: 0o755 });
  env = { PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`, HOME: dir, SHARDECK_CONFIG_DIR: conf };
  const before = process.env.SHARDECK_CONFIG_DIR;
  process.env.SHARDECK_CONFIG_DIR = conf;
  try {
    saveIndexNames(ALL);
  } finally {
    if (before === undefined) delete process.env.SHARDECK_CONFIG_DIR;
    else process.env.SHARDECK_CONFIG_DIR = before;
  }
  const table = await loadTable(COMMANDS);
  fs.writeFileSync(path.join(dir, 'shardeck.bash'), bashCompletion(table));
  fs.writeFileSync(path.join(dir, '_shardeck'), zshCompletion(table));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('bash completion over hostile index names', () => {
  // COMPREPLY as the function leaves it, each word read back as bash reads a typed word (eval of
  // one word into an array): that is what the operator's command line holds after Tab.
  const complete = (words: string[]): { raw: string[]; typed: string[] } => {
    const out = execFileSync(
      'bash',
      [
        '--norc',
        '-i',
        '-c',
        `. ./shardeck.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($#-1)); _shardeck
for w in "\${COMPREPLY[@]}"; do printf 'R%s\\0' "$w"; eval "t=($w)"; printf 'T%s\\0' "\${t[@]}"; done`,
        'bash',
        ...words,
      ],
      { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const parts = out.split('\0').filter(Boolean);
    return {
      raw: parts.filter((p) => p.startsWith('R')).map((p) => p.slice(1)),
      typed: parts.filter((p) => p.startsWith('T')).map((p) => p.slice(1)),
    };
  };

  it('Tab on an index argument offers every name, runs none of them, and each word types back to the exact name', () => {
    const { raw, typed } = complete(['shardeck', 'replicas', '']);
    expect(markers()).toEqual([]);
    expect(typed.sort()).toEqual([...savable].sort());
    // No raw control character is handed to readline (it lists the candidates on the terminal).
    // eslint-disable-next-line no-control-regex -- asserts no control character reaches the output
    for (const w of raw) expect(w).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  }, 60_000);

  it('a typed prefix is compared literally: `x$` offers the one name, `x` does not run it', () => {
    expect(complete(['shardeck', 'replicas', 'x$']).typed).toEqual(['x$(touch\tmarker)']);
    expect(complete(['shardeck', 'status', 'x']).typed).toEqual(['x$(touch\tmarker)']);
    expect(complete(['shardeck', 'status', 'w']).typed).toEqual(['w$(touch${IFS}marker5)']);
    expect(complete(['shardeck', 'status', 'nothing-like-it']).typed).toEqual([]);
    expect(markers()).toEqual([]);
  }, 60_000);

  it('commands and flags still complete', () => {
    expect(complete(['shardeck', 'repl']).typed).toEqual(['replicas']);
    expect(complete(['shardeck', 'replicas', '--temp']).typed).toEqual(['--template']);
  });
});

describe('zsh completion over hostile index names', () => {
  // compadd is zsh's builtin that inserts words quoted (unless -Q); what our functions must do is
  // hand it the names unexpanded. Recorded here by a stand-in compadd in a real zsh.
  it('_shardeck_indices hands compadd the exact names, without -Q, and runs none of them', () => {
    const out = execFileSync(
      'zsh',
      [
        '-f',
        '-c',
        `compadd() { print -rn -- "$*" $'\\0' >> args; [[ $1 == -a ]] && print -rn -- "\${(@pj:\\0:)\${(P)2}}" >> words }
_arguments() { : }; _describe() { : }; source ./_shardeck; _shardeck_indices; cat words`,
      ],
      { cwd: dir, env, encoding: 'utf8' },
    );
    expect(out.split('\0').sort()).toEqual([...savable].sort());
    expect(fs.readFileSync(path.join(dir, 'args'), 'utf8')).not.toContain('-Q');
    expect(markers()).toEqual([]);
  }, 60_000);
});
