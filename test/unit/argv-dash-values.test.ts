// Values that start with '-' reach the command as values: an index uuid is random base64url, so
// one in 64 starts with '-' ("shardeck dangling import -xA9..." once failed with "Unknown option
// '-x'" in a fresh run); a flag is still a flag.
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/commands/support/argv';
import dangling from '../../src/commands/dangling';

const UUID = '-xA9bC3dE5fG7hI9jK1lMn';

describe('a value that starts with a dash', () => {
  it('an index uuid is a positional and a flag value, never an option', () => {
    const r = parseCommandArgs(dangling, ['import', UUID, '--yes', '--accept-data-loss', UUID]);
    expect(r).toMatchObject({ ok: true, ctx: { positionals: ['import', UUID], values: { yes: true, 'accept-data-loss': UUID } } });
  });

  it('a flag of the same length is still a flag; an unknown short option is still refused', () => {
    expect(parseCommandArgs(dangling, ['import', 'abc', '-x'])).toMatchObject({ ok: false, error: expect.stringContaining("'-x'") });
    expect(parseCommandArgs(dangling, ['--json'])).toMatchObject({ ok: true, ctx: { values: { json: true } } });
  });
});
