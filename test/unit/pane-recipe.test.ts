// The pane recipe of docs/ARCHITECTURE.md: a pane is declared once in domain/panes.ts and gets
// its component in ui/panes/registry.ts; everything else derives from them. This checks that what
// is derived is whole (a component, a number key, a titled scope with keys, reads that exist) and,
// with planted gaps, that the check itself catches each one.
import { describe, expect, it } from 'vitest';
import { RESOURCE_NAMES } from '../../src/cluster/resources';
import { PANE_DECLARATIONS, PANES, type PaneDeclaration } from '../../src/domain/panes';
import { KEYMAP, SCOPE_TITLES } from '../../src/keys/keymap';
import { PANE_REGISTRY } from '../../src/ui/panes/registry';

interface Recipe {
  panes: Record<string, PaneDeclaration>;
  components: Record<string, unknown>;
  keymap: readonly { id: string; keys: readonly string[]; scope: string }[];
  scopeTitles: Record<string, { help: string; where: string } | undefined>;
  reads: readonly string[];
}

/** What a pane lacks, or what the keymap binds twice, each as one readable line. */
function recipeGaps(r: Recipe): string[] {
  const gaps: string[] = [];
  const paneIds = Object.keys(r.panes);
  for (const [id, pane] of Object.entries(r.panes)) {
    if (typeof r.components[id] !== 'function') gaps.push(`${id}: no component in ui/panes/registry.ts`);
    const number = r.keymap.filter((k) => k.id === `pane.${id}`);
    if (number.length !== 1 || number[0].scope !== 'global' || number[0].keys.join() !== pane.key)
      gaps.push(`${id}: no global number key pane.${id} on ${pane.key}`);
    for (const scope of pane.keyScopes) {
      if (scope === 'list' || scope === 'table') continue;
      if (scope !== id) gaps.push(`${id}: key scope ${scope} is neither its own, list nor table`);
      else if (!r.keymap.some((k) => k.scope === id)) gaps.push(`${id}: its own key scope has no keys`);
      else if (!r.scopeTitles[id]?.help || !r.scopeTitles[id]?.where) gaps.push(`${id}: its key scope has no title`);
    }
    if (pane.keyScopes.includes('table') && !pane.keyScopes.includes('list')) gaps.push(`${id}: a table without the list keys`);
    for (const read of [...pane.reads, ...(pane.whileNotGreen ?? []), ...(pane.whileRecovering ?? [])])
      if (!r.reads.includes(read)) gaps.push(`${id}: reads ${read}, which cluster/resources.ts does not have`);
  }
  for (const k of r.keymap) {
    if (paneIds.includes(k.scope) && !r.panes[k.scope].keyScopes.includes(k.scope))
      gaps.push(`${k.id}: scoped to the ${k.scope} pane, which does not list that scope (its keys never work)`);
    if (!r.scopeTitles[k.scope]) gaps.push(`${k.id}: its scope ${k.scope} has no title`);
  }
  // Duplicate keys: one key bound to two commands of the same scope (the second could never run).
  const bound = new Map<string, string>();
  for (const k of r.keymap)
    for (const key of k.keys) {
      const other = bound.get(`${k.scope} ${key}`);
      if (other) gaps.push(`${k.id}: ${key} is already ${other} in ${k.scope}`);
      else bound.set(`${k.scope} ${key}`, k.id);
    }
  return gaps;
}

const real = (): Recipe => ({
  panes: { ...PANE_DECLARATIONS },
  components: Object.fromEntries(PANES.map((p) => [p, PANE_REGISTRY[p].component])),
  keymap: KEYMAP,
  scopeTitles: { ...SCOPE_TITLES },
  reads: RESOURCE_NAMES,
});

describe('adding a pane: domain/panes.ts + ui/panes/registry.ts make it whole', () => {
  it('every pane has a component, its number key, a titled scope with keys of its own, and reads that exist; no key is bound twice in a scope', () => {
    const r = real();
    expect(Object.keys(r.panes).length).toBeGreaterThan(5); // the table really was read
    expect(recipeGaps(r)).toEqual([]);
  });

  it('the check catches a pane without a component, number key, keys or titles, a read that does not exist and a key bound twice', () => {
    const r = real();
    const plantedPane: PaneDeclaration = { title: 'Planted', key: 'f9', keyScopes: ['planted', 'table'], reads: ['health', 'helth'] };
    const planted: Recipe = {
      ...r,
      panes: {
        ...r.panes,
        planted: plantedPane,
        unlisted: { title: 'Unlisted', key: 'f10', keyScopes: ['list'], reads: [], whileNotGreen: ['task'] },
      },
      components: { ...r.components, unlisted: () => null },
      keymap: [
        ...r.keymap.filter((k) => k.id !== 'pane.disk'),
        { id: 'pane.unlisted', keys: ['f10'], scope: 'global' },
        { id: 'unlisted.cancel', keys: ['x'], scope: 'unlisted' },
        { id: 'quit.again', keys: ['q'], scope: 'global' },
      ],
      scopeTitles: { ...r.scopeTitles, planted: undefined },
    };
    expect(recipeGaps(planted)).toEqual([
      'disk: no global number key pane.disk on 4',
      'planted: no component in ui/panes/registry.ts',
      'planted: no global number key pane.planted on f9',
      'planted: its own key scope has no keys',
      'planted: a table without the list keys',
      'planted: reads helth, which cluster/resources.ts does not have',
      'unlisted: reads task, which cluster/resources.ts does not have',
      'unlisted.cancel: scoped to the unlisted pane, which does not list that scope (its keys never work)',
      'unlisted.cancel: its scope unlisted has no title',
      'quit.again: q is already quit in global',
    ]);
    // A pane's scope that has keys but lost its titles.
    const untitled = { ...r, scopeTitles: { ...r.scopeTitles, nodes: { help: 'Nodes pane', where: '' } } };
    expect(recipeGaps(untitled)).toEqual(['nodes: its key scope has no title']);
    // A pane that borrows another pane's scope.
    const borrowing = { ...r, panes: { ...r.panes, disk: { ...r.panes.disk, keyScopes: ['disk', 'nodes'] } } };
    expect(recipeGaps(borrowing)).toEqual(['disk: key scope nodes is neither its own, list nor table']);
  });
});
