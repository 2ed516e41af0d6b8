// Command ids are checked by the compiler (keys/keymap.ts `as const`): a misspelt id in the wizard
// registry, a `case` or a key check fails `npm run typecheck` (the @ts-expect-error lines below
// fail it if a misspelling were ever accepted). Every wizard's keys are keymap rows, so help and
// the README list them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOVE_OF_COMMAND } from '../../src/domain/console/list-nav';
import { KEYMAP, type CommandId } from '../../src/keys/keymap';
import { helpLines } from '../../src/ui/components/HelpOverlay';
import { WIZARDS, type WizardEntry } from '../../src/ui/wizards/registry';

describe('command ids', () => {
  it('a misspelt id is a type error', () => {
    // @ts-expect-error 'wizard.replica' is not a command
    const misspelt: CommandId = 'wizard.replica';
    // @ts-expect-error a registry entry names its command by a CommandId
    const entry: WizardEntry = { id: 'x', title: 'x', commandId: 'wizard.delete', component: () => null };
    // At run time too: neither misspelling is a keymap row, and every registry entry's id is one.
    const ids: string[] = KEYMAP.map((k) => k.id);
    expect(ids).not.toContain(misspelt);
    expect(ids).not.toContain(entry.commandId);
    expect(WIZARDS.length).toBeGreaterThan(0);
    for (const w of WIZARDS) expect(ids, w.id).toContain(w.commandId);
  });

  it("every wizard opens on a dangerous keymap row, and its scope is that row's", () => {
    for (const w of WIZARDS) expect(KEYMAP.find((k) => k.id === w.commandId)?.dangerous, w.id).toBe(true);
  });

  it("help lists the dialog keys and each wizard's own keys", () => {
    const text = helpLines(KEYMAP)
      .map((l) => l.text)
      .join('\n');
    expect(text).toMatch(/In a wizard/);
    expect(text).toMatch(/ y +yes: send what the preview shows/);
    expect(text).toMatch(/ Esc +close; what was not sent is cancelled/);
    expect(text).toMatch(/ Tab ↓ +next field of a form/);
    expect(text).toMatch(/Delete wizard\n(.*\n)* +t +change the throttle of the running delete/);
    expect(text).toMatch(/Recovery wizard\n(.*\n)* +c +offline repair with CheckIndex/);
  });
});

/** The .ts and .tsx files under a folder of src/. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

describe('issue 47 item 8: every key the help and the footers promise does something', () => {
  it('each keymap row is handled by the console: named by a handler, a list move, or a pane number', () => {
    const handlers = ['src/ui', 'src/commands/tui', 'src/services']
      .flatMap(sources)
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    const unhandled = KEYMAP.filter(
      (k) => !handlers.includes(`'${k.id}'`) && !(k.id in MOVE_OF_COMMAND) && !/^pane\.(?!next$|prev$)/.test(k.id),
    ).map((k) => `${k.id} (${k.scope}: ${k.description})`);
    expect(unhandled).toEqual([]);
    expect(KEYMAP.length).toBeGreaterThan(50);
  });
});
