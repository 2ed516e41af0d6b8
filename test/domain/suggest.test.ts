import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from '../../src/domain/text/suggest';

const COMMANDS = ['status', 'stats', 'search', 'settings', 'replicas', 'reroute', 'tasks', 'templates', 'help'];

describe('did you mean', () => {
  it('counts a swap of two letters as one edit', () => {
    expect(editDistance('stauts', 'status')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('finds the command and the flag a typo meant', () => {
    expect(didYouMean('stauts', COMMANDS)).toBe('status');
    expect(didYouMean('replcias', COMMANDS)).toBe('replicas');
    expect(didYouMean('--jsn', ['--json', '--yes', '--url', '--help'])).toBe('--json');
    expect(didYouMean('--tempalte', ['--template', '--timeout'])).toBe('--template');
  });

  it('says nothing when nothing is close, when two are as close, or for very short words', () => {
    expect(didYouMean('frobnicate', COMMANDS)).toBeUndefined();
    expect(didYouMean('stat', ['stats', 'state'])).toBeUndefined();
    expect(didYouMean('x', COMMANDS)).toBeUndefined();
    expect(didYouMean('status', COMMANDS)).toBeUndefined();
  });
});
