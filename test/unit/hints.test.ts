import { describe, expect, it } from 'vitest';
import { activeKeymap, KEYMAP, type Scope } from '../../src/keys/keymap';
import { hintText } from '../../src/keys/hints';
import { PANES, PANE_SPECS } from '../../src/store/panes';

const scopes = (pane: keyof typeof PANE_SPECS): Scope[] => [...PANE_SPECS[pane].keyScopes, 'global'];

describe('footer hints', () => {
  it("show each pane's action keys first, within 80 columns, with quit and help always", () => {
    const at80 = (pane: keyof typeof PANE_SPECS) => hintText(KEYMAP, scopes(pane), 80);
    expect(at80('indices')).toMatch(/^R replicas {2}D delete {2}S shrink {2}M merge/);
    // Seven actions (with close, open and delete of whole indices) leave no room for the filter at
    // 80 or 100 columns (? help lists it); at 120 it is offered.
    expect(at80('indices')).toMatch(/M merge {2}c close {2}u open {2}X drop/);
    expect(hintText(KEYMAP, scopes('indices'), 100)).not.toContain('/ filter');
    expect(hintText(KEYMAP, scopes('indices'), 120)).toContain('/ filter');
    expect(at80('shards')).toMatch(/^e explain {2}C recover/);
    expect(at80('disk')).toMatch(/^U unblock/);
    expect(at80('nodes')).toMatch(/^L scroll {2}R restart {2}D drain {2}E engine/);
    expect(at80('templates')).toMatch(/^X disable/);
    expect(at80('health')).toMatch(/^A allocation {2}U unfinished {2}d diagnose/);
    for (const pane of PANES) {
      const t = at80(pane);
      expect(t.length, pane).toBeLessThanOrEqual(80);
      expect(t, pane).toMatch(/q quit {2}\? help$/);
    }
    // Health has no filter: it is not offered there.
    expect(at80('health')).not.toContain('/ filter');
  });

  it('offer no key that read-only mode removed', () => {
    expect(hintText(activeKeymap(true), scopes('indices'), 80)).not.toMatch(/replicas|delete|merge/);
  });

  it('while polling is paused, p says resume (issue 47)', () => {
    expect(hintText(KEYMAP, scopes('health'), 200)).toContain('p pause');
    const paused = hintText(KEYMAP, scopes('health'), 200, { paused: true });
    expect(paused).toContain('p resume');
    expect(paused).not.toContain('p pause');
  });

  it('drop what does not fit, but keep quit and help', () => {
    expect(hintText(KEYMAP, scopes('indices'), 20)).toBe('q quit  ? help');
  });
});
