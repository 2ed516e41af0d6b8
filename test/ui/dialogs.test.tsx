// Wizards open modally on their keymap key, see the selected row, and cannot be opened read-only.
import React from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Text } from 'ink';
import { KEYMAP, type CommandId } from '../../src/keys/keymap';
import { useUi } from '../../src/ui/app/context';
import { useKeyLayer } from '../../src/ui/input/router';
import type { WizardEntry } from '../../src/ui/wizards/registry';
import { failOnConsoleError, KEYS, loadScenario, makeStore, renderApp, type Rendered } from './harness';
import { waitUntil } from '../helpers/wait-until';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

function ProbeWizard({ onClose }: { onClose: () => void }) {
  const sel = useUi((s) => s.selection.indices);
  useKeyLayer('dialog', (name) => {
    if (name === 'y') {
      onClose();
      return true;
    }
    return false;
  });
  return <Text>{`wizard for ${sel?.index ?? 'nothing'}`}</Text>;
}

// Not a command of the product: the keymap row below is added for this test only.
const PROBE_ID = 'test.probe' as CommandId;
const PROBE: WizardEntry = { id: 'probe', title: 'Probe wizard', commandId: PROBE_ID, component: ProbeWizard };

beforeEach(() => {
  KEYMAP.push({ id: PROBE_ID, keys: ['W'], description: 'probe wizard (test)', scope: 'indices', dangerous: true });
  return () =>
    void KEYMAP.splice(
      KEYMAP.findIndex((k) => k.id === PROBE_ID),
      1,
    );
});

async function open(readOnly: boolean) {
  const store = makeStore({ readOnly });
  loadScenario(store, 'yellow');
  store.setState({ pane: 'indices' });
  r = await renderApp(store, { wizards: [PROBE] });
  return r;
}

describe('wizards', () => {
  it('open on their key with the selected row; keys go to the wizard only', async () => {
    const app = await open(false);
    await app.press(KEYS.down);
    await app.press('W');
    expect(app.frame()).toContain('Probe wizard');
    expect(app.frame()).toContain('wizard for service_v9_bravo');
    await app.press('3');
    await app.press('q');
    expect(app.store.getState().pane).toBe('indices');
    expect(app.frame()).toContain('wizard for');
    await app.press('y');
    expect(app.frame()).not.toContain('Probe wizard');
    expect(app.frame()).toContain('service_v9_orders');
  });

  it('Esc closes a wizard that does not take Esc itself', async () => {
    const app = await open(false);
    await app.press('W');
    await app.press(KEYS.escape);
    expect(app.ui.getState().dialog).toBeUndefined();
  });

  it('cannot be opened in read-only mode, and help does not list them', async () => {
    const app = await open(true);
    await app.press('W');
    expect(app.ui.getState().dialog).toBeUndefined();
    await app.press('?');
    expect(app.frame()).toContain('read-only: commands that change the cluster are off');
    for (let i = 0; i < 30; i++) {
      expect(app.frame()).not.toContain('probe wizard (test)');
      await app.press(KEYS.down);
    }
  });

  it('help lists dangerous rows as changing the cluster when not read-only', async () => {
    const app = await open(false);
    await app.press('?');
    let seen = '';
    // Page down to the end of the overlay (a frame that no longer changes), however many rows the keymap has.
    for (let i = 0, last = ''; i < 50 && app.frame() !== last; i++) {
      last = app.frame();
      seen += last;
      await app.press(KEYS.pageDown);
    }
    expect(seen).toContain('probe wizard (test)  (changes the cluster)');
  });
});

describe('quit', () => {
  it('Ctrl-C quits even from the filter prompt', async () => {
    const app = await open(false);
    await app.press('/');
    await app.press(KEYS.ctrlC);
    // Unmounted: further keys change nothing and the last frame stays.
    const before = app.frame();
    await app.press('2');
    expect(app.frame()).toBe(before);
  });
});

describe('fast typing', () => {
  it('takes keys that arrive together one by one', async () => {
    const app = await open(false);
    await app.press('3u');
    // Both keys taken (waited for, not slept on): the second is not lost behind the first.
    await waitUntil(
      'both keys taken',
      () => ({ pane: app.store.getState().pane, problemsOnly: app.ui.getState().problemsOnly }),
      (x) => x.pane === 'shards' && x.problemsOnly,
      { timeoutMs: 5000, intervalMs: 5 },
    );
  });
});
