// The corruption recovery wizard as a pure machine (domain/wizards/recovery.ts).
import { describe, expect, it } from 'vitest';
import { recoveryClosable, recoveryMachine } from '../../src/domain/wizards/recovery';

describe('the wizard machine', () => {
  const finding = {
    index: 'service_v9_abc',
    shard: 0,
    lines: ['service_v9_abc shard 0 primary: no_valid_shard_copy (corrupt)'],
    options: ['a backup'],
    shardTool: false,
  };
  const step = { n: 5, total: 11, title: 'Remove the broken segments', commandLines: ['$ x -exorcise'], note: '', losesData: true };

  it('offers the offline repair only after detection, and only the methods this node has', () => {
    const m = recoveryMachine();
    const first = m.init();
    expect(first.effects).toEqual([{ type: 'detect' }]);
    let s = m.step(first.state, { type: 'choose', method: 'checkindex' }).state;
    expect(s.phase).toBe('detecting');
    s = m.step(s, { type: 'detected', finding }).state;
    expect(s.phase).toBe('options');
    expect(m.step(s, { type: 'choose', method: 'shard-tool' }).effects).toEqual([]);
    expect(m.step(s, { type: 'choose', method: 'resume' }).effects).toEqual([]);
    expect(m.step(s, { type: 'choose', method: 'checkindex' }).effects).toEqual([{ type: 'run', method: 'checkindex' }]);
  });

  it('a shard held by a node of another host is shown, its lossless options too, but the checklist is not offered', () => {
    const m = recoveryMachine();
    const s = m.step(m.init().state, {
      type: 'detected',
      finding: { ...finding, shardTool: true, elsewhere: 'the corrupt copy ... is on node es-a on host storage-a' },
    }).state;
    expect(s.phase).toBe('options');
    expect(m.step(s, { type: 'choose', method: 'checkindex' }).effects).toEqual([]);
    expect(m.step(s, { type: 'choose', method: 'shard-tool' }).effects).toEqual([]);
  });

  it('with a checklist under way, offers only to resume it (also when the node is down)', () => {
    const m = recoveryMachine();
    const s = m.step(m.init().state, {
      type: 'detected',
      finding: null,
      resumeAt: 'x shard 0: Start the engine',
      message: 'the node does not answer',
    }).state;
    expect(s.phase).toBe('options');
    expect(m.step(s, { type: 'choose', method: 'checkindex' }).effects).toEqual([]);
    expect(m.step(s, { type: 'choose', method: 'resume' }).effects).toEqual([{ type: 'run', method: 'resume' }]);
  });

  it('a step that loses documents runs only on the exact name; Esc answers no', () => {
    const m = recoveryMachine();
    let s = m.step(m.init().state, { type: 'detected', finding }).state;
    s = m.step(s, { type: 'choose', method: 'checkindex' }).state;
    s = m.step(s, { type: 'announced', step, need: { kind: 'type', expected: 'service_v9_abc' } }).state;
    s = m.step(s, { type: 'type', text: 'service_v9_ab' }).state;
    expect(m.step(s, { type: 'confirm' }).effects).toEqual([]);
    s = m.step(s, { type: 'type', text: 'service_v9_abc' }).state;
    expect(m.step(s, { type: 'confirm' }).effects).toEqual([{ type: 'answer', confirmation: { by: 'typed', text: 'service_v9_abc' } }]);
    expect(m.step(s, { type: 'cancel' }).effects).toEqual([{ type: 'answer', confirmation: null }]);
    expect(recoveryClosable(s)).toBe(false);
  });

  it("keeps the last lines of output, and ends with the runner's verdict", () => {
    const m = recoveryMachine();
    let s = m.init().state;
    s = m.step(s, { type: 'output', chunk: Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n' }).state;
    expect(s.output).toEqual(['line 14', 'line 15', 'line 16', 'line 17', 'line 18', 'line 19']);
    s = m.step(s, { type: 'ended', status: 'failed', lines: ['step "Stop the engine" failed: exit status 1', 'next: ...'] }).state;
    expect(s.phase).toBe('failed');
    expect(recoveryClosable(s)).toBe(true);
  });
});
