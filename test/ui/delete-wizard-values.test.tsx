// Typing an age that overflows a date into the console's delete wizard: the console stays alive
// (it used to die on a RangeError from toISOString while rendering the field), Enter shows the
// error in the form and nothing is asked of the node.
import { afterEach, describe, expect, it } from 'vitest';
import { deleteMachine, type DeleteEffect, type DeleteEvent, type DeleteForm, type DeleteState } from '../../src/domain/wizards/delete';
import type { WizardServices } from '../../src/services/wizards';
import { WizardSession } from '../../src/services/wizards/session';
import { snapshotRepositoriesRead } from '../../src/services/wizards/snapshot';
import { plain, wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, KEYS, loadScenario, makeStore, renderApp, type Rendered } from './harness';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

describe('delete wizard: an impossible older-than', () => {
  it('300000000d typed key by key: the console keeps rendering; Enter shows the error; no effect runs', async () => {
    const effects: DeleteEffect[] = [];
    const services = {
      // No snapshot repository: "snapshot first" is not offered (ui/wizards/SnapshotFirst.tsx).
      open: (make: unknown, initial?: Partial<DeleteForm>) =>
        make === snapshotRepositoriesRead
          ? Promise.resolve([])
          : new WizardSession<DeleteState, DeleteEvent, DeleteEffect>(deleteMachine(initial), (f) => {
              effects.push(f);
              return Promise.resolve();
            }),
    } as unknown as WizardServices;
    const store = makeStore();
    loadScenario(store, 'yellow');
    store.setState({ pane: 'indices' });
    r = await renderApp(store, { wizards: wizardsWith(['delete'], services) });
    await r.press('D');
    expect(plain(r.frame())).toContain('Delete documents by query');
    await r.type('300000000d');
    expect(plain(r.frame())).toContain('300000000d');
    await r.press(KEYS.enter);
    // The error wraps at 80 columns: compare with the line breaks as spaces.
    expect(plain(r.frame()).replace(/\s+/g, ' ')).toMatch(
      /older than "300000000d" reaches back before the year 1: give an age of at most \d+d/,
    );
    expect(effects).toEqual([]);
    // Still alive: fix the value and the form resolves it.
    for (let i = 0; i < '300000000d'.length; i++) await r.press(KEYS.backspace);
    await r.type('90d');
    expect(plain(r.frame())).toMatch(/= modified_at before \d{4}-/);
  });

  it('2026-02-31 is refused in the form, not turned into March 3', async () => {
    const services = {
      open: (make: unknown, initial?: Partial<DeleteForm>) =>
        make === snapshotRepositoriesRead
          ? Promise.resolve([])
          : new WizardSession<DeleteState, DeleteEvent, DeleteEffect>(deleteMachine(initial), async () => {}),
    } as unknown as WizardServices;
    const store = makeStore();
    loadScenario(store, 'yellow');
    store.setState({ pane: 'indices' });
    r = await renderApp(store, { wizards: wizardsWith(['delete'], services) });
    await r.press('D');
    await r.type('2026-02-31');
    expect(plain(r.frame())).not.toContain('2026-03-03');
    await r.press(KEYS.enter);
    expect(plain(r.frame())).toMatch(/not a day of the calendar/);
  });
});
