// A read command's text as the console's output view draws it (domain/console/command-output.ts).
import { describe, expect, it } from 'vitest';
import { exitText, findLine, outputLines } from '../../src/domain/console/command-output';

describe('command output', () => {
  it('one line per line, tabs laid out, every control character escaped, no trailing empty line', () => {
    expect(outputLines('a\tb\nosc\u001b]0;pwned\u0007\r\n')).toEqual(['a       b', 'osc\\u001b]0;pwned\\u0007']);
    expect(outputLines('')).toEqual(['']);
  });

  it('finds the next line holding a word (any case), wrapping; none: undefined', () => {
    const lines = ['index health', 'logs-1 green', 'logs-2 red', 'other green'];
    expect(findLine(lines, 'GREEN', -1)).toBe(1);
    expect(findLine(lines, 'green', 1)).toBe(3);
    expect(findLine(lines, 'green', 3)).toBe(1);
    expect(findLine(lines, 'blue', 0)).toBeUndefined();
    expect(findLine(lines, '', 0)).toBeUndefined();
  });

  it('the exit code in words, coloured by what it means', () => {
    expect(exitText(0, 'ok')).toEqual({ text: 'exit 0: ok', tone: 'green' });
    expect(exitText(4, 'read-only mode')).toMatchObject({ tone: 'yellow' });
    expect(exitText(64, undefined)).toEqual({ text: 'exit 64', tone: 'red' });
  });
});
