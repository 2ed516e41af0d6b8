// shardeck profiles [--json]: the named profiles (no secrets), the last used marked: it is the
// default when --profile is not given.
import { listProfiles } from '../config/profiles';
import { readRefreshToken } from '../config/secrets';
import type { CommandModule } from './common';

const profiles: CommandModule = {
  summary: 'List the profiles (storage node, platform URL, whether signed in); * marks the last used, the default.',
  usage: 'usage: shardeck profiles [--json]',
  async run({ values }) {
    const rows = listProfiles().map(({ name, profile, last }) => ({
      name,
      last,
      ...profile,
      // Whether a refresh token is stored, never the token.
      signedIn: readRefreshToken(name) !== undefined,
    }));
    if (values.json) {
      process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
      return 0;
    }
    if (!rows.length) {
      process.stdout.write('no profiles yet: shardeck login --platform URL [--profile NAME] creates one\n');
      return 0;
    }
    const wName = Math.max(4, ...rows.map((r) => r.name.length));
    const wUrl = Math.max(7, ...rows.map((r) => r.url.length));
    const lines = [`  ${'NAME'.padEnd(wName)}  ${'STORAGE'.padEnd(wUrl)}  PLATFORM`];
    for (const r of rows) {
      const platform = r.platformUrl ? `${r.platformUrl} (${r.signedIn ? 'signed in' : 'not signed in'})` : '-';
      lines.push(`${r.last ? '*' : ' '} ${r.name.padEnd(wName)}  ${r.url.padEnd(wUrl)}  ${platform}`);
    }
    lines.push('* last used: the default when --profile is not given');
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  },
};

export default profiles;
