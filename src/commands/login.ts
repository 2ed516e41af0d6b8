// shardeck login [--platform URL] [--profile NAME]: proves a refresh token works (one exchange) and
// stores it for the profile. The token comes from a hidden prompt or stdin, never argv.
import { promptHidden, UsageError } from '../config/connection';
import { getProfile, markLastUsed, openConfig, pickProfileName, saveProfile } from '../config/profiles';
import { saveRefreshToken, secretsFile } from '../config/secrets';
import { PlatformError, platformUrlProblem, PlatformSignIn } from '../platform/sign-in';
import { loginCommandFor } from '../services/platform-sign-in';
import type { CommandModule } from './support/common';
import { readSecretFromStdin, reportPlatformError } from './support/platform-common';
import { out } from './support/output';

async function readRefreshTokenInput(): Promise<string> {
  const token = process.stdin.isTTY
    ? await promptHidden('refresh token (API Access in the platform settings; input hidden): ')
    : await readSecretFromStdin();
  if (!token) throw new UsageError('no refresh token given: type it at the prompt or pipe it on stdin (shardeck login < token-file)');
  return token;
}

const login: CommandModule = {
  summary: 'Sign in to the platform: check a refresh token with one exchange and store it (0600) for the profile.',
  usage:
    'usage: shardeck login [--platform URL] [--insecure-http] [--profile NAME]   (refresh token from a hidden prompt, or stdin when piped)\n' +
    '  --insecure-http  allow a plain http:// platform on another machine (the token then crosses the network unencrypted)',
  options: { platform: { type: 'string' }, 'insecure-http': { type: 'boolean' } },
  group: 'platform',
  flagHelp: {
    platform: "the platform's base URL (default: the profile's)",
    'insecure-http': 'allow a plain http:// platform on another machine (the token then crosses the network unencrypted)',
  },
  examples: ['shardeck login --platform https://platform.example:8443 < refresh-token', 'shardeck login --profile prod'],
  async run({ values, positionals }) {
    if (positionals.length) {
      // Never echo it: a token on the command line is already in the shell history and ps.
      throw new UsageError(
        'the refresh token is never taken from the command line (ps and shell history show it): pipe it on stdin or type it at the prompt',
      );
    }
    const conf = openConfig();
    const profileName = pickProfileName(values.profile as string | undefined, conf);
    const saved = getProfile(profileName, conf);
    const platformUrl = (values.platform as string | undefined) ?? saved?.platformUrl;
    if (!platformUrl) throw new UsageError('give the platform address with --platform URL (e.g. --platform https://platform.example.com)');
    // Accepted now by the flag, or before for this very URL (profiles save/login --insecure-http).
    const insecureHttp = Boolean(values['insecure-http']) || (saved?.platformInsecureHttp === true && platformUrl === saved.platformUrl);
    const bad = platformUrlProblem(platformUrl, { insecureHttp });
    if (bad) throw new UsageError(bad);
    let platform: PlatformSignIn;
    try {
      platform = new PlatformSignIn({
        baseUrl: platformUrl,
        insecureHttp,
        refreshToken: await readRefreshTokenInput(),
        // Stored only once an exchange proved it works (or the rotated one the server issued).
        stored: false,
        tokens: { save: (t) => saveRefreshToken(profileName, t) },
        loginCommand: loginCommandFor(profileName),
      });
    } catch (e) {
      if (e instanceof PlatformError) throw new UsageError(e.message);
      throw e;
    }
    let info;
    try {
      info = await platform.signIn();
    } catch (e) {
      return reportPlatformError('login', e, Boolean(values.json));
    }
    saveProfile(
      profileName,
      {
        platformUrl: platform.baseUrl,
        platformInsecureHttp: insecureHttp && new URL(platform.baseUrl).protocol === 'http:' ? true : undefined,
        platformUser: info.user_id,
      },
      conf,
    );
    markLastUsed(profileName, conf);
    const who = { profile: profileName, platformUrl: platform.baseUrl, user_id: info.user_id, tenant: info.tenant, role: info.role };
    out(
      values.json
        ? JSON.stringify(who, null, 2) + '\n'
        : `signed in to ${platform.baseUrl} as ${info.user_id}@${info.tenant} (role ${info.role}); the refresh token is stored for profile "${profileName}" in ${secretsFile()} (mode 0600)\n`,
    );
    return 0;
  },
};

export default login;
