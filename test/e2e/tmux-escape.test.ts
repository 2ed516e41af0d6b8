// The terminal harness refuses a key typed right after Escape until the screen was waited for: read
// together, the two are one Alt-key (CI failed twice on such a pair before the harness said so).
import { afterAll, describe, expect, it } from 'vitest';
import { Terminals } from '../helpers/tmux';

const term = new Terminals('shardeck-escape');
afterAll(() => term.close());

describe('the terminal harness and Escape', () => {
  it('refuses Escape and a key in one call, and a key after Escape before a wait; takes it after the wait', async () => {
    term.start('cat', 'cat -v');
    await term.waitFor('cat', (s) => s.trim() === '', 'the empty pane');
    expect(() => term.keys('cat', 'Escape', 'q')).toThrow(/one Alt-key/);
    term.keys('cat', 'Escape');
    expect(() => term.keys('cat', 'q')).toThrow(/wait for the screen after Escape/);
    await term.waitFor('cat', (s) => s.includes('^['), 'the Escape echoed');
    term.keys('cat', 'q');
    term.keys('cat', '-l', 'Escape');
    await term.waitFor('cat', (s) => s.includes('^[qEscape'), 'q and the word Escape typed as text');
  });
});
