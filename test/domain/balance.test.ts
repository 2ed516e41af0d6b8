// Why shards move, from GET _internal/desired_balance recorded on a real 8.19.21 node (one node,
// index idx-a of 2 shards with a replica that cannot be placed); the misplaced-copy case is the same
// answer with one copy marked as a 2-node cluster reports a copy the balancer wants elsewhere.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { balanceUnsupported, explainBalance, explainBlock, parseBalanceSummary, parseDesiredBalance } from '../../src/domain/nodes/balance';
import { nodeMaintenanceLines } from '../../src/domain/panes/nodes';

const recorded = () =>
  JSON.parse(fs.readFileSync(new URL('../fixtures/balance/single-node-unassigned-8.19.21.json', import.meta.url), 'utf8'));
const NODE = 'qkoQHIegQye1eouRq_3sMw';

describe('desired balance', () => {
  it('reads the stats, each node, and the shards the balancer found no node for', () => {
    const b = parseDesiredBalance(recorded());
    expect(b.stats).toMatchObject({ computing: false, allocations: 3, undesired: 0, unassigned: 2 });
    expect(b.nodes).toEqual([expect.objectContaining({ id: NODE, name: 'm3b-probe', shards: 3, undesired: 0, forecastWriteLoad: 0 })]);
    expect(b.misplaced).toEqual([]);
    expect(b.unplaced).toEqual([
      { index: 'idx-a', shard: 0, copies: 1 },
      { index: 'idx-a', shard: 1, copies: 1 },
    ]);
    const text = explainBalance(b, { limits: [] }).map((l) => l.text);
    expect(text[0]).toBe('every assigned shard copy (3) is where the balancer wants it');
    expect(text).toContain('m3b-probe: 3 shards, all where the balancer wants them, forecast write load 0.00, forecast disk 681b');
    expect(text).toContain('idx-a[0]: 1 copy the balancer found no node for (stays unassigned: shardeck explain idx-a 0 says why)');
  });

  it('names a copy not where the balancer wants it, where it wants it, and why it stays', () => {
    const body = recorded();
    // As a second node "n2" would be reported: the balancer wants idx-b[0] there.
    body.cluster_balance_stats.nodes.n2 = { node_id: 'id-2', shard_count: 0, undesired_shard_allocation_count: 0 };
    body.cluster_balance_stats.nodes['m3b-probe'].undesired_shard_allocation_count = 1;
    body.stats.undesired_allocations = 1;
    body.routing_table['idx-b'][0].current[0].node_is_desired = false;
    body.routing_table['idx-b'][0].desired.node_ids = ['id-2'];
    const b = parseDesiredBalance(body);
    expect(b.misplaced).toEqual([{ index: 'idx-b', shard: 0, primary: true, node: 'm3b-probe', wanted: ['n2'] }]);
    const lines = explainBalance(b, { limits: [] });
    expect(lines[0]).toEqual({ text: '1 of 3 assigned shard copies are not on the node the balancer wants', tone: 'yellow' });
    expect(lines.map((l) => l.text)).toContain(
      'idx-b[0] primary on m3b-probe: the balancer wants it on n2; not moved: waiting its turn: copies move a few at a time, and only where every allocation rule allows it (shardeck explain INDEX SHARD says which rule)',
    );
    // What limits allocation, then what allocation explain says, take the generic reason's place.
    const limited = explainBalance(b, { limits: ['rebalancing is limited to none (cluster.routing.rebalance.enable=none)'] });
    expect(limited.map((l) => l.text).join('\n')).toContain('not moved: allocation is limited: rebalancing is limited to none');
    const explained = explainBalance(b, {
      limits: [],
      blockedBy: { 'idx-b/0/p': 'throttling: reached the limit of outgoing shard recoveries [0] on the node' },
    });
    expect(explained.map((l) => l.text).join('\n')).toContain('not moved: throttling: reached the limit of outgoing shard recoveries [0]');
    // Moving now, to where it is wanted.
    body.routing_table['idx-b'][0].current[0].relocating_node = 'id-2';
    body.routing_table['idx-b'][0].current[0].state = 'RELOCATING';
    expect(explainBalance(parseDesiredBalance(body), { limits: [] }).map((l) => l.text)).toContain(
      'idx-b[0] primary on m3b-probe: moving now to n2, where the balancer wants it',
    );
  });

  it('the first blocking decision of allocation explain, in one line', () => {
    expect(
      explainBlock({
        can_rebalance_cluster_decisions: [
          { decider: 'rebalance_only_when_active', decision: 'YES', explanation: 'ok' },
          { decider: 'throttling', decision: 'THROTTLE', explanation: 'reached the limit of incoming shard recoveries [0]' },
        ],
      }),
    ).toBe('throttling: reached the limit of incoming shard recoveries [0]');
    expect(explainBlock({ rebalance_explanation: 'cannot rebalance as no target node exists' })).toBe(
      'cannot rebalance as no target node exists',
    );
    expect(explainBlock(null)).toBeNull();
  });

  it('an 8.5-shaped answer (400 no handler, 404) is "not on this version (needs 8.6)"; other failures are not', () => {
    expect(balanceUnsupported(400, 'no handler found for uri [/_internal/desired_balance] and method [GET]', '8.5.0')).toBe(
      'not on this version: the desired balance (GET _internal/desired_balance) needs Elasticsearch 8.6 or newer (this node runs 8.5.0)',
    );
    expect(balanceUnsupported(404, undefined)).toMatch(/^not on this version: .* needs Elasticsearch 8\.6 or newer$/);
    expect(balanceUnsupported(400, 'illegal argument')).toBeNull();
    expect(balanceUnsupported(403, 'action [cluster:admin/desired_balance/get] is unauthorized')).toBeNull();
  });

  it("the Nodes pane's line: the balancer's view of the node, or the version sentence before 8.6", () => {
    const summary = parseBalanceSummary(recorded());
    expect(nodeMaintenanceLines({ id: NODE, name: 'm3b-probe' }, { data: summary }, [], 0)).toEqual([
      { text: 'balancer: 3 shards, all where it wants them (shardeck balance)' },
    ]);
    expect(nodeMaintenanceLines({ id: NODE, name: 'm3b-probe' }, { error: { kind: 'unsupported' } }, undefined, 0)).toEqual([
      { text: 'balancer: not on this version (needs 8.6)', tone: 'gray' },
    ]);
    // Any other failure (a 403: it needs manage) says nothing.
    expect(nodeMaintenanceLines({ id: NODE, name: 'm3b-probe' }, { error: { kind: 'forbidden' } }, undefined, 0)).toEqual([]);
  });
});
