// The console's command line: what a line does, what Tab completes, what the history keeps.
import { describe, expect, it } from 'vitest';
import { addToHistory, completeLine, HISTORY_MAX, parseLine, secretOnLine } from '../../src/domain/console/command-line';

const rw = { readOnly: false };

describe('command line', () => {
  it('jumps to a pane by id or title, with the rest as its filter', () => {
    expect(parseLine('indices service_v9_a', rw)).toEqual({ kind: 'pane', pane: 'indices', filter: 'service_v9_a' });
    expect(parseLine('Nodes', rw)).toEqual({ kind: 'pane', pane: 'nodes' });
    expect(parseLine('  doctor ', rw)).toEqual({ kind: 'pane', pane: 'doctor' });
  });

  it('opens a wizard on a name (never in read-only mode) or a view on an index; q quits', () => {
    expect(parseLine('replicas logs-1', rw)).toEqual({ kind: 'wizard', wizard: 'replicas', index: 'logs-1' });
    expect(parseLine('drain node-2', rw)).toEqual({ kind: 'wizard', wizard: 'drain', node: 'node-2' });
    expect(parseLine('replicas logs-1', { readOnly: true })).toEqual({
      kind: 'error',
      message: 'replicas changes the cluster: not in read-only mode',
    });
    expect(parseLine('xray logs-1', rw)).toEqual({ kind: 'view', view: 'xray', index: 'logs-1' });
    expect(parseLine('xray', rw)).toMatchObject({ kind: 'error' });
    expect(parseLine('q', rw)).toEqual({ kind: 'quit' });
    expect(parseLine('cat allocation', rw)).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^"cat" is not a console command: /),
    });
  });

  it('refuses a line with a password, and the history never keeps one', () => {
    for (const l of ['replicas x --password-env PW', 'replicas x --password-file f', 'xray a --password s3cret', 'indices password=s3cret'])
      expect([secretOnLine(l), parseLine(l, rw).kind], l).toEqual([true, 'error']);
    expect(addToHistory(['nodes'], 'xray a --password s3cret')).toEqual(['nodes']);
  });

  it('keeps the history newest last, without a repeat of the line before, capped', () => {
    expect(addToHistory(['nodes'], ' nodes ')).toEqual(['nodes']);
    expect(addToHistory(['nodes'], 'indices')).toEqual(['nodes', 'indices']);
    const full = Array.from({ length: HISTORY_MAX }, (_, i) => `indices ${i}`);
    expect(addToHistory(full, 'q')).toHaveLength(HISTORY_MAX);
    expect(addToHistory(full, 'q').at(-1)).toBe('q');
  });

  it('Tab completes the command, then an index or a node name; several choices are listed', () => {
    const names = { indices: ['logs-1', 'logs-2', 'service_v9_abc'], nodes: ['node-1'] };
    expect(completeLine('nod', names)).toEqual({ line: 'nodes ', options: [] });
    expect(completeLine('xray serv', names)).toEqual({ line: 'xray service_v9_abc ', options: [] });
    expect(completeLine('replicas lo', names)).toEqual({ line: 'replicas logs-', options: ['logs-1', 'logs-2'] });
    expect(completeLine('drain n', names)).toEqual({ line: 'drain node-1 ', options: [] });
    expect(completeLine('zz', names)).toEqual({ line: 'zz', options: [] });
  });
});
