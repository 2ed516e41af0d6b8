// The one table of panes (store/panes.ts + ui/panes/registry.ts): what each pane polls, which
// keys work on it, its title and component, and that every pane has its number key.
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/cluster/resources';
import { KEYMAP } from '../../src/keys/keymap';
import { PANE_RESOURCES, PANE_SPECS, PANES } from '../../src/store/panes';
import { scopesFor } from '../../src/ui/app/App';
import { PANE_REGISTRY } from '../../src/ui/panes/registry';
import { createUiStore, isTablePane } from '../../src/ui/state';

describe('pane registry', () => {
  it('each pane polls what it draws from; only Health adds the shard list, and only while not green', () => {
    // The set each pane polls (the order is the registry's, of no consequence).
    const sorted = Object.fromEntries(Object.entries(PANE_RESOURCES).map(([p, rs]) => [p, [...rs].sort()]));
    expect(sorted).toEqual({
      health: ['allocation', 'blocks', 'health', 'healthReport', 'nodes', 'pendingTasks', 'settings'],
      indices: ['blocks', 'health', 'indices'],
      shards: ['health', 'shards'],
      disk: ['allocation', 'blocks', 'health', 'nodes', 'settings'],
      nodes: ['allocation', 'desiredBalance', 'health', 'nodeJvm', 'nodeShutdown', 'nodeStats', 'nodes', 'settings'],
      // Health on every pane: the header shows it, and it is the poller's probe (services/poller.ts).
      templates: ['componentTemplates', 'health', 'indexTemplates'],
      // Its checks are not polled; the disks are, for the forecast's samples.
      doctor: ['allocation', 'health'],
      timeline: ['health'],
      snapshots: ['health', 'restores', 'runningSnapshots', 'snapshotRepositories', 'snapshots'],
      // Read only while shown: the nodes name each task's node.
      tasks: ['health', 'nodes', 'tasks'],
    });
    // Timeline: a health transition names the shards that caused it.
    expect(PANES.filter((p) => PANE_SPECS[p].whileNotGreen).map((p) => [p, PANE_SPECS[p].whileNotGreen])).toEqual([
      ['health', ['shards']],
      ['timeline', ['shards']],
    ]);
  });

  it("no pane asks a node's statistics twice a poll: each _nodes/stats read walks every shard of the node", () => {
    // Issue 26: the Nodes pane's three reads (statistics, search contexts, pressure) cost the node
    // three walks; one read asks for all of it.
    for (const p of PANES) {
      const stats = PANE_RESOURCES[p].filter((r) => RESOURCES[r].request.path.startsWith('/_nodes/stats'));
      expect(stats.length, p).toBeLessThanOrEqual(1);
    }
    expect(PANE_RESOURCES.nodes.filter((r) => RESOURCES[r].request.path.startsWith('/_nodes/stats'))).toEqual(['nodeStats']);
  });

  it('the list keys work on every pane but Disk, the filter and order only on the table panes; tabs in order, each with its pre-assigned number key and component', () => {
    expect(PANES).toEqual(['health', 'indices', 'shards', 'disk', 'nodes', 'templates', 'doctor', 'timeline', 'snapshots', 'tasks']);
    expect(scopesFor('disk')).toEqual(['disk', 'global']);
    expect(scopesFor('indices')).toEqual(['indices', 'table', 'list', 'global']);
    // Health has no filter: '/' is neither advertised nor bound there (typed keys ran commands).
    expect(scopesFor('health')).toEqual(['health', 'list', 'global']);
    expect(PANES.filter(isTablePane)).toEqual(['indices', 'shards', 'nodes', 'templates', 'doctor', 'snapshots', 'tasks']);
    // Each table pane has its own cursor state from the start.
    expect(Object.keys(createUiStore().getState().tables)).toEqual([
      'indices',
      'shards',
      'nodes',
      'templates',
      'doctor',
      'snapshots',
      'tasks',
    ]);
    expect(PANES.filter((p) => PANE_SPECS[p].keyScopes.includes('list'))).toEqual([
      'health',
      'indices',
      'shards',
      'nodes',
      'templates',
      'doctor',
      'timeline',
      'snapshots',
      'tasks',
    ]);
    // Pre-assigned, so branches adding panes do not collide: 6 Templates, 7 Doctor, 8 Timeline, 9 Snapshots.
    const NUMBER: Record<string, string> = {
      health: '1',
      indices: '2',
      shards: '3',
      disk: '4',
      nodes: '5',
      templates: '6',
      doctor: '7',
      timeline: '8',
      snapshots: '9',
      tasks: '0',
    };
    for (const p of PANES) {
      expect(KEYMAP.find((k) => k.id === `pane.${p}`)?.keys).toEqual([NUMBER[p]]);
      expect(PANE_REGISTRY[p]).toMatchObject({ id: p, title: PANE_SPECS[p].title });
      expect(typeof PANE_REGISTRY[p].component).toBe('function');
    }
  });
});
