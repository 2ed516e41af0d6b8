// shardeck logout [--profile NAME]: forgets the profile's stored refresh token.
import { getProfile, openConfig, pickProfileName, saveProfile } from '../config/profiles';
import { forgetRefreshToken } from '../config/secrets';
import type { CommandModule } from './support/common';
import { out } from './support/output';

const logout: CommandModule = {
  summary: "Forget the profile's stored platform refresh token.",
  usage: 'usage: shardeck logout [--profile NAME]',
  group: 'platform',
  flagHelp: {},
  examples: ['shardeck logout', 'shardeck logout --profile prod'],
  run({ values }) {
    const conf = openConfig();
    const profileName = pickProfileName(values.profile as string | undefined, conf);
    const had = forgetRefreshToken(profileName);
    if (getProfile(profileName, conf)?.platformUser) saveProfile(profileName, { platformUser: undefined }, conf);
    const text = had
      ? `forgot the refresh token of profile "${profileName}"; it still works on the platform until revoked there (API Access), so revoke it if it may have leaked\n`
      : `profile "${profileName}" had no stored refresh token\n`;
    out(values.json ? JSON.stringify({ profile: profileName, forgotten: had }) + '\n' : text);
    return 0;
  },
};

export default logout;
