// Help that teaches (issue 16): every command and every flag says what it is; the help text, the
// man page and both completion scripts are generated from the same command table, so a command or
// a flag cannot be missing from one of them. The man page's keys come from the keymap (issue 46).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_FLAG_HELP, GLOBAL_OPTIONS, GROUPS } from '../../src/commands/support/common';
import { bashCompletion, commandHelp, globalHelp, loadTable, manPage, zshCompletion, type Table } from '../../src/commands/help';
import { COMMANDS } from '../../src/commands';
import { KEYMAP, SCOPE_TITLES, keyLabel } from '../../src/keys/keymap';

let table: Table;
beforeAll(async () => {
  table = await loadTable(COMMANDS);
});

describe('every command and flag has help', () => {
  it('each command has a group, a one-line summary, 2-3 examples that call it, and help for each own flag', () => {
    const groups = GROUPS.map((g) => g.name);
    for (const [name, m] of table) {
      expect(groups, name).toContain(m.group);
      expect(m.summary.length, name).toBeGreaterThan(10);
      expect(m.examples.length, `${name} examples`).toBeGreaterThanOrEqual(2);
      expect(m.examples.length, `${name} examples`).toBeLessThanOrEqual(3);
      for (const e of m.examples)
        expect(e, `${name} example`).toMatch(name === 'tui' ? /^shardeck( |$)/ : new RegExp(`^shardeck ${name}( |$)`));
      for (const flag of Object.keys(m.options ?? {})) expect(m.flagHelp[flag], `${name} --${flag} has no help`).toMatch(/\S{3}/);
      // No help for a flag the command does not take (a renamed flag leaves none behind).
      for (const flag of Object.keys(m.flagHelp)) expect(Object.keys(m.options ?? {}), `${name} flagHelp.${flag}`).toContain(flag);
    }
  });

  it('every global flag has help', () => {
    expect(Object.keys(GLOBAL_FLAG_HELP).sort()).toEqual(Object.keys(GLOBAL_OPTIONS).sort());
  });

  it('the overview lists every command under its group, the global flags, exit codes and the config folder', () => {
    const text = globalHelp(table, '9.9.9');
    for (const [name] of table) expect(text, name).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    for (const flag of Object.keys(GLOBAL_OPTIONS)) expect(text).toContain(`--${flag}`);
    for (const code of [0, 1, 2, 3, 4, 5, 64]) expect(text).toMatch(new RegExp(`^ +${code}  \\S`, 'm'));
    expect(text).toContain('SHARDECK_CONFIG_DIR');
    expect(text).toMatch(/^change \(guarded/m);
  });

  it("a command's page shows its usage, each flag with its meaning, and the examples", () => {
    const [, m] = table.find(([n]) => n === 'delete-by-query')!;
    const text = commandHelp('delete-by-query', m);
    expect(text).toContain(m.usage);
    expect(text).toMatch(/--conflicts VALUE +abort \(default\) or proceed/);
    for (const e of m.examples) expect(text).toContain(e);
  });
});

describe('the man page and completions cannot drift from the table', () => {
  it('the man page has every command, every flag and the exit codes', () => {
    const man = manPage(table, '9.9.9');
    for (const [name, m] of table) {
      expect(man).toContain(`.B shardeck ${name.replace(/-/g, '\\-')}`);
      for (const flag of Object.keys(m.options ?? {})) expect(man, `${name} --${flag}`).toContain(`\\-\\-${flag.replace(/-/g, '\\-')}`);
    }
    expect(man).toMatch(/^\.SH EXIT STATUS$/m);
  });

  it('man renders the page without a warning', () => {
    // man-db is in the machine's packages (dev/lib/machine.mjs).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'man-'));
    const file = path.join(dir, 'shardeck.1');
    fs.writeFileSync(file, manPage(table, '9.9.9'));
    const r = spawnSync('man', ['--warnings', '-l', file], { env: { ...process.env, MANPAGER: 'cat', MANWIDTH: '80' }, encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('shardeck replicas');
    expect(r.stdout).toContain('EXIT STATUS');
  });

  it('the man page lists every key of the keymap under its scope, as help does (keys/keymap.ts)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'man-'));
    const file = path.join(dir, 'shardeck.1');
    fs.writeFileSync(file, manPage(table, '9.9.9'));
    // Wide enough that no line is wrapped or hyphenated: each key's line is found whole.
    const r = spawnSync('man', ['-l', file], { env: { ...process.env, MANPAGER: 'cat', MANWIDTH: '1000' }, encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    const keys = r.stdout.slice(r.stdout.indexOf('\nKEYS\n'), r.stdout.indexOf('\nEXIT STATUS\n'));
    const lines = keys.split('\n').map((l) => l.trim().replace(/\s+/g, ' '));
    const headings = new Set(Object.values(SCOPE_TITLES).map((s) => s.help));
    expect(lines.filter((l) => headings.has(l)).length).toBeGreaterThan(10);
    for (const k of KEYMAP) {
      // The scope's heading, then its rows up to the next heading: the key and its description there.
      const start = lines.indexOf(SCOPE_TITLES[k.scope].help);
      const end = lines.findIndex((l, i) => i > start && headings.has(l));
      const block = lines.slice(start + 1, end < 0 ? undefined : end).join(' ');
      expect(start, `${k.id}: the heading of its scope`).toBeGreaterThan(0);
      expect(block, k.id).toContain(`${k.keys.map(keyLabel).join(' ')} ${k.description}`);
    }
  });

  it("bash completes every command and each command's flags, profiles after --profile and index names", () => {
    const bash = bashCompletion(table);
    for (const [name, m] of table) {
      expect(bash).toContain(` ${name}`);
      const line = bash.split('\n').find((l) => l.trim().startsWith(`${name})`))!;
      for (const flag of [...Object.keys(GLOBAL_OPTIONS), ...Object.keys(m.options ?? {})])
        expect(line, `${name} --${flag}`).toContain(`--${flag}`);
    }
    expect(bash).toContain('_shardeck_words profiles');
    expect(bash).toContain('_shardeck_words indices');
    // Names are data: never given to compgen -W (test/unit/completion-shell.test.ts runs the script).
    expect(bash).not.toMatch(/compgen -W "\$\(/);
    execFileSync('bash', ['-n'], { input: bash });
  });

  it('zsh completes every command with its summary and each flag with its help', () => {
    const zsh = zshCompletion(table);
    for (const [name, m] of table) {
      expect(zsh).toContain(`'${name}:`);
      for (const flag of Object.keys(m.options ?? {})) expect(zsh, `${name} --${flag}`).toContain(`'--${flag}[`);
    }
    execFileSync('zsh', ['-n'], { input: zsh });
  });

  it('the table the entry point dispatches from is the one help reads', () => {
    expect(table.map(([n]) => n)).toEqual(Object.keys(COMMANDS));
  });
});
