// The checks behind broken local files (config/local-files.ts says them): plain values only.
import { describe, expect, it } from 'vitest';
import { brokenAsideName, checkConfigText, checkSecretsText, hasTornLastLine, readProblem } from '../../src/domain/host/local-files';
import { parseAuditLog } from '../../src/domain/mutation/audit';
import { shellPath } from '../../src/domain/mutation/preview';

describe('checkConfigText', () => {
  it('accepts what conf writes, and a file without profiles yet', () => {
    expect(
      checkConfigText('{"version":1,"profiles":{"p":{"url":"http://a:9200","readOnly":true,"intervalMs":2000}},"lastProfile":"p"}').ok,
    ).toBe(true);
    expect(checkConfigText('{"version":1}').ok).toBe(true);
    // A field this version does not know is left for a newer one.
    expect(checkConfigText('{"profiles":{"p":{"url":"u","future":[1]}}}').ok).toBe(true);
  });

  it.each([
    ['', /is empty/],
    ['  \n', /is empty/],
    ['{"version":1,"profiles":{"a"', /cut short or not valid JSON/],
    ['version=1', /is not JSON/],
    ['null', /not a JSON object/],
    ['[]', /not a JSON object/],
    ['{"version":"1"}', /"version" is not a number/],
    ['{"lastProfile":3}', /"lastProfile"/],
    ['{"profiles":[]}', /"profiles" is not an object/],
    ['{"profiles":{"a":"http://x"}}', /profile "a" is not an object/],
    ['{"profiles":{"a":{}}}', /profile "a" has no url/],
    ['{"profiles":{"a":{"url":"u","readOnly":"yes"}}}', /profile "a": "readOnly" is not a boolean/],
    ['{"profiles":{"a\\u001b[2J":{"url":1}}}', /profile "a\?\[2J" has no url/],
  ])('%j is refused: %s', (text, problem) => {
    const r = checkConfigText(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toMatch(problem);
  });

  it("never repeats the parser's words (they name no file)", () => {
    const r = checkConfigText('{"a":');
    expect(r.ok || r.problem).not.toMatch(/Unexpected/);
  });
});

describe('checkSecretsText', () => {
  it('reads the tokens; never quotes the content when refusing', () => {
    expect(checkSecretsText('{"version":1,"refreshTokens":{"p":"t"}}')).toEqual({ ok: true, value: { p: 't' } });
    expect(checkSecretsText('{"version":1}')).toEqual({ ok: true, value: {} });
    for (const bad of [
      '',
      '{"refreshTokens":{"p":"SeCrEt',
      'null',
      '{"refreshTokens":"SeCrEt"}',
      '{"refreshTokens":{"p":7}}',
      '"SeCrEt"',
    ]) {
      const r = checkSecretsText(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problem).not.toContain('SeCrEt');
    }
  });
});

describe('the words and names', () => {
  it('a broken file goes beside itself, named after the time in UTC', () => {
    expect(brokenAsideName('/c/config.json', new Date('2026-11-25T21:05:09.123Z'))).toBe('/c/config.json.broken-20261125T210509Z');
  });

  it('read errors in words', () => {
    expect(readProblem('EISDIR')).toBe('is a folder, not a file');
    expect(readProblem('EACCES')).toBe('cannot be read by this user');
    expect(readProblem('NOT_REGULAR', 'a FIFO')).toBe('is not a regular file (a FIFO)');
    expect(readProblem('EIO')).toBe('cannot be read (EIO)');
  });

  it('a path is quoted for the shell only when it has to be', () => {
    expect(shellPath('/home/ann/.config/shardeck/config.json')).toBe('/home/ann/.config/shardeck/config.json');
    expect(shellPath("/tmp/my dir/it's")).toBe(`'/tmp/my dir/it'\\''s'`);
  });

  it('a torn last line is one without its line break', () => {
    expect(hasTornLastLine('')).toBe(false);
    expect(hasTornLastLine('{}\n')).toBe(false);
    expect(hasTornLastLine('{}\n{"a"')).toBe(true);
  });
});

describe('parseAuditLog on a damaged log', () => {
  const sending = (id: string) =>
    JSON.stringify({ id, phase: 'sending', time: 't', profile: 'p', url: 'u', risk: 'low', target: 'x', summary: id, confirmedBy: 'flag' });

  it('lines of another shape are counted, never fatal; a torn last line is said', () => {
    const r = parseAuditLog(
      `null\n3\n"x"\n[]\n{"of":null,"outcome":1}\n{"summary":"no time"}\n${sending('a')}\n${sending('b').slice(0, 30)}`,
    );
    expect(r.records.map((x) => x.id)).toEqual(['a']);
    expect(r.unreadable).toBe(7);
    expect(r.tornLastLine).toBe(true);
  });
});
