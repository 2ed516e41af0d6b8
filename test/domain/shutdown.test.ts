// Node shutdown records an orchestrator left: parsed from the ES reference's example answer of
// GET _nodes/shutdown (the test distribution has no shutdown module), shown by status (warning,
// exit 1, JSON field) and on the Nodes pane; the answer of a node without the module is silent.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseShutdownRecords } from '../../src/domain/maintenance/shutdown';
import { buildStatusReport, statusExitCode } from '../../src/domain/inspect/status';
import { nodeMaintenanceLines } from '../../src/domain/panes/nodes';
import { parsedAsPolled } from '../helpers/recorded';

const example = JSON.parse(fs.readFileSync(new URL('../fixtures/shutdown/reference-example.json', import.meta.url), 'utf8'));
const STARTED = 1624406108685;

describe('node shutdown records', () => {
  it("reads the reference's example", () => {
    expect(parseShutdownRecords(example)).toEqual([
      {
        nodeId: 'USpTGYaBSIKbgSUJR2Z9lg',
        type: 'RESTART',
        reason: 'Demonstrating how the node shutdown API works',
        startedAt: STARTED,
        status: 'COMPLETE',
        allocationDelay: '10m',
        shardsRemaining: 0,
        explanation: 'no shard relocation is necessary for a node restart',
      },
    ]);
  });

  it('a node without the module (node info of a node named "shutdown", recorded from 8.19.21) has none', () => {
    expect(parsedAsPolled('yellow', 'nodeShutdown')).toEqual([]);
    expect(parseShutdownRecords({ nodes: {} })).toEqual([]);
    expect(parseShutdownRecords(null)).toEqual([]);
  });

  it('a record with odd fields: no type or status reads "?", a reason that is no text is empty, empty names are left out', () => {
    const [r] = parseShutdownRecords({
      nodes: [
        { node_id: 'n1', reason: 42, target_node_name: '', allocation_delay: 10, shard_migration: { explanation: '' } },
        { reason: 'x' },
      ],
    });
    expect(r).toEqual({ nodeId: 'n1', type: '?', reason: '', startedAt: null, status: '?' });
    expect(
      parseShutdownRecords({ nodes: [{ node_id: 'n2', type: 'replace', target_node_name: 'n3', shutdown_startedmillis: 5 }] }),
    ).toEqual([{ nodeId: 'n2', type: 'REPLACE', reason: '', startedAt: 5, status: '?', targetNodeName: 'n3' }]);
  });

  it('status warns with the node, its age and what the record does, and a green cluster exits 1', () => {
    const yellow = (name: 'health' | 'allocation' | 'settings' | 'blocks'): never => parsedAsPolled('yellow', name) as never;
    const nodes = parsedAsPolled('yellow', 'nodes').map((n, i) => (i === 0 ? { ...n, id: 'USpTGYaBSIKbgSUJR2Z9lg' } : n));
    const inputs = {
      health: { ...(yellow('health') as object), status: 'green' } as never,
      allocation: yellow('allocation'),
      settings: yellow('settings'),
      blocks: yellow('blocks'),
      nodes,
      now: STARTED + 3 * 3600_000,
    };
    const clean = buildStatusReport(inputs);
    expect(clean.shutdownRecords).toEqual([]);
    expect(statusExitCode(clean)).toBe(0);
    const r = buildStatusReport({ ...inputs, shutdown: parseShutdownRecords(example) });
    expect(statusExitCode(r)).toBe(1);
    expect(r.shutdownRecords[0]).toMatchObject({ nodeId: 'USpTGYaBSIKbgSUJR2Z9lg', node: nodes[0].name, type: 'RESTART' });
    expect(r.shutdownRecords[0].text).toBe(
      `node shutdown record RESTART for ${nodes[0].name} (USpTGYaBSIKbgSUJR2Z9lg), registered 3 h ago, status COMPLETE: its shards wait for it instead of being reallocated when it leaves; Elasticsearch never removes these records: if no orchestrator is working on this node, the one that made it (or DELETE _nodes/USpTGYaBSIKbgSUJR2Z9lg/shutdown) must remove it (reason: Demonstrating how the node shutdown API works)`,
    );
  });

  it('the Nodes pane shows the record on its node only', () => {
    const recs = parseShutdownRecords(example);
    expect(nodeMaintenanceLines({ id: 'USpTGYaBSIKbgSUJR2Z9lg', name: 'n1' }, {}, recs, STARTED)[0]).toMatchObject({
      text: 'shutdown record RESTART, 0 min old, COMPLETE: its shards wait for it (never removed by itself; status says more)',
      tone: 'yellow',
    });
    expect(nodeMaintenanceLines({ id: 'other', name: 'n2' }, {}, recs, STARTED)).toEqual([]);
  });
});
