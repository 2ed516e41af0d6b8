// The console's command line: what a line does, what Tab completes, what the history keeps.
import { describe, expect, it } from 'vitest';
import {
  addToHistory,
  choicesText,
  completeLine,
  cycleChoice,
  HISTORY_MAX,
  lineWords,
  parseLine,
  secretOnLine,
} from '../../src/domain/console/command-line';

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

  // The command table as commands/tui/line-commands.ts gives it (a few of its entries).
  const commands = { reads: { cat: ['columns'], nodes: [], doctor: ['rules'], help: ['man'] }, changes: ['replicas', 'alias', 'index'] };
  const withTable = { readOnly: false, commands };

  it('runs a read command of the table (its words, quotes kept whole); a name both a pane and a command runs the command, pane NAME goes to the pane', () => {
    expect(parseLine("cat shards 'service_v9_*'", withTable)).toEqual({ kind: 'run', words: ['cat', 'shards', 'service_v9_*'] });
    expect(parseLine('nodes', withTable)).toEqual({ kind: 'run', words: ['nodes'] });
    expect(parseLine('pane nodes node-1', withTable)).toEqual({ kind: 'pane', pane: 'nodes', filter: 'node-1' });
    expect(parseLine('pane nowhere', withTable)).toMatchObject({ kind: 'error' });
    expect(parseLine('indices logs', withTable)).toEqual({ kind: 'pane', pane: 'indices', filter: 'logs' });
    expect(parseLine('help', withTable)).toEqual({ kind: 'help' });
    expect(parseLine('help cat', withTable)).toEqual({ kind: 'run', words: ['help', 'cat'] });
    expect(lineWords(`a "b c" 'd'e`)).toEqual(['a', 'b c', 'de']);
  });

  it('a change command without a wizard on the line is refused, never run; read-only says so', () => {
    expect(parseLine('alias add x y', withTable)).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/^alias changes the cluster: not from the line/),
    });
    expect(parseLine('alias add x y', { ...withTable, readOnly: true })).toMatchObject({
      kind: 'error',
      message: 'alias changes the cluster: not in read-only mode',
    });
  });

  it('profile NAME switches to a saved profile, an unknown one is refused', () => {
    expect(parseLine('profile stage', { ...withTable, profiles: ['prod', 'stage'] })).toEqual({ kind: 'profile', profile: 'stage' });
    expect(parseLine('profile nope', { ...withTable, profiles: ['prod', 'stage'] })).toMatchObject({ kind: 'error' });
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

  it("Tab completes a read command's flags, index and node names after it, profile names after profile or --profile; read-only hides the wizards", () => {
    const names = { indices: ['logs-1', 'service_v9_abc'], nodes: ['node-1'], profiles: ['prod', 'stage'] };
    expect(completeLine('cat indices --col', names, withTable)).toEqual({ line: 'cat indices --columns ', options: [] });
    expect(completeLine('cat indices --j', names, withTable)).toEqual({ line: 'cat indices --json ', options: [] });
    expect(completeLine('cat shards serv', names, withTable)).toEqual({ line: 'cat shards service_v9_abc ', options: [] });
    expect(completeLine('cat nodes no', names, withTable)).toEqual({ line: 'cat nodes node-1 ', options: [] });
    expect(completeLine('profile st', names, withTable)).toEqual({ line: 'profile stage ', options: [] });
    expect(completeLine('cat x --profile p', names, withTable)).toEqual({ line: 'cat x --profile prod ', options: [] });
    expect(completeLine('rep', names, withTable)).toEqual({ line: 'replicas ', options: [] });
    expect(completeLine('rep', names, { ...withTable, readOnly: true })).toEqual({ line: 'rep', options: [] });
  });

  it('a second Tab takes the next choice into the line, then the word as typed again; the choices fit the width', () => {
    const options = ['logs-1', 'logs-2'];
    expect(cycleChoice('replicas logs-', options, undefined)).toEqual({ line: 'replicas logs-1', at: 0 });
    expect(cycleChoice('replicas logs-', options, 0)).toEqual({ line: 'replicas logs-2', at: 1 });
    expect(cycleChoice('replicas logs-', options, 1)).toEqual({ line: 'replicas logs-', at: undefined });
    const many = Array.from({ length: 30 }, (_, i) => `service_v9_project${i}`);
    const shown = choicesText(many, 1, 60);
    expect(shown.length).toBeLessThanOrEqual(60);
    expect(shown).toBe('service_v9_project0 [service_v9_project1] +28 (Tab)');
  });
});
