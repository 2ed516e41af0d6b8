// shardeck whoami [--json]: who the stored refresh token signs in as. Never prints a token.
import type { CommandModule } from './support/common';
import { reportPlatformError, signInOfFlags } from './support/platform-common';
import { out } from './support/output';

const whoami: CommandModule = {
  summary: 'The platform user, tenant, role and permissions of the profile (one token exchange); never a token.',
  usage: 'usage: shardeck whoami [--json] [--profile NAME]',
  group: 'platform',
  flagHelp: {},
  examples: ['shardeck whoami', 'shardeck whoami --profile prod --json'],
  async run({ values }) {
    const { profileName, platform } = signInOfFlags(values);
    let info;
    try {
      info = await platform.signIn();
    } catch (e) {
      return reportPlatformError('whoami', e, Boolean(values.json));
    }
    const who = { profile: profileName, platformUrl: platform.baseUrl, ...info };
    if (values.json) {
      out(JSON.stringify(who, null, 2) + '\n');
      return 0;
    }
    const rows: [string, string][] = [
      ['user_id', info.user_id],
      ['tenant', info.tenant],
      ['role', info.role],
      ['role_permissions', info.role_permissions.join(', ') || '(none)'],
      ['project_permissions', info.project_permissions.join(', ') || '(none)'],
      ['session_id', info.session_id],
      ['platform', `${platform.baseUrl} (profile ${profileName})`],
    ];
    out(rows.map(([k, v]) => `${k.padEnd(20)} ${v}`).join('\n') + '\n');
    return 0;
  },
};

export default whoami;
