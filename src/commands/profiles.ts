// shardeck profiles [--json]: the named profiles (no secrets), the last used marked: it is the
// default when --profile is not given.
import { UsageError } from '../config/connection';
import { nodeUrlProblem, urlForMessage } from '../domain/urls';
import { platformUrlProblem } from '../platform/sign-in';
import { listProfiles, markLastUsed, saveProfile, type Profile } from '../config/profiles';
import { readRefreshToken } from '../config/secrets';
import { parseSearchCurlForm, SEARCH_CURL } from '../config/search-curl';
import type { CommandContext, CommandModule } from './support/common';
import { displayText } from '../domain/text/display-text';
import { badgeText, colourProblem, labelProblem, profileBadge, PROFILE_COLOURS } from '../domain/console/profile-badge';
import { out } from './support/output';
import { paint } from './support/paint';

function badVia(via: string): never {
  throw new UsageError(`--via "${via}" is not a way to connect: the only one is --via search_curl`);
}

/** --production marks the profile, --no-production unmarks it, neither leaves it as it was. */
function productionFlag(values: CommandContext['values']): boolean | undefined {
  if (values.production && values['no-production']) throw new UsageError('give --production or --no-production, not both');
  return values.production ? true : values['no-production'] ? false : undefined;
}

/**
 * `profiles save NAME`: stores how to reach a node (never a password: only where it comes from)
 * and makes NAME the default.
 */
function save({ values, positionals }: CommandContext): number {
  const name = positionals[1];
  if (!name || !/^[A-Za-z0-9_.-]+$/.test(name))
    throw new UsageError('give the profile a name of letters, digits, "_", "-" or ".": shardeck profiles save NAME --url URL ...');
  const flag = (k: string) => values[k] as string | undefined;
  let intervalMs: number | undefined;
  if (flag('interval') !== undefined) {
    const s = Number(flag('interval'));
    if (!Number.isFinite(s) || s < 1) throw new UsageError(`--interval "${flag('interval')}" is not a number of seconds (1 or more)`);
    intervalMs = Math.round(s * 1000);
  }
  // Nothing with credentials is stored: config.json is no place for a password.
  const urlProblem = flag('url') === undefined ? null : nodeUrlProblem(flag('url')!, '--url');
  if (urlProblem) throw new UsageError(urlProblem);
  // http to another machine is refused here as at login, unless --insecure-http accepts it (stored with the profile).
  const insecureHttp = values['insecure-http'] === true;
  const platformProblem = flag('platform') === undefined ? null : platformUrlProblem(flag('platform')!, { insecureHttp });
  if (platformProblem) throw new UsageError(platformProblem);
  const badgeProblem =
    (flag('label') === undefined ? null : labelProblem(flag('label')!)) ??
    (flag('color') === undefined ? null : colourProblem(flag('color')!));
  if (badgeProblem) throw new UsageError(badgeProblem);
  const patch: Partial<Profile> = {
    url: flag('url'),
    user: flag('user'),
    passwordEnv: flag('password-env'),
    passwordFile: flag('password-file'),
    ca: flag('ca'),
    insecure: values.insecure as boolean | undefined,
    readOnly: values['read-only'] as boolean | undefined,
    label: flag('label'),
    color: flag('color'),
    production: productionFlag(values),
    platformUrl: flag('platform'),
    templateVersion: flag('template-version'),
    intervalMs,
    searchCurl: flag('search-curl'),
    searchCurlForm:
      flag('search-curl-form') === undefined ? undefined : parseSearchCurlForm(flag('search-curl-form'), '--search-curl-form'),
    via: flag('via') === undefined ? undefined : flag('via') === SEARCH_CURL ? SEARCH_CURL : badVia(flag('via')!),
  };
  // A flag not given leaves the profile's value as it was (an undefined would delete it: the url too, then the message below had none).
  const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<Profile>;
  // A new platform URL drops an earlier acceptance of plain http, unless given again for it.
  if (flag('platform') !== undefined)
    given.platformInsecureHttp = insecureHttp && new URL(flag('platform')!).protocol === 'http:' ? true : undefined;
  const stored = saveProfile(name, given);
  markLastUsed(name);
  const badge = profileBadge(stored);
  out(
    values.json
      ? JSON.stringify({ name, ...stored }, null, 2) + '\n'
      : `saved profile "${name}"${badge ? ` ${badgeText(badge)}${badge.production ? ' (production)' : ''}` : ''} (${urlForMessage(stored.url)}); it is now the default\n`,
  );
  return 0;
}

/** One row of `shardeck profiles` (text). */
export interface ProfileRow {
  name: string;
  last: boolean;
  url: string;
  platformUrl?: string;
  signedIn: boolean;
  label?: string;
  color?: string;
  production?: boolean;
}

/** The profiles table: names and URLs (a config.json edited by hand may hold anything) escaped in their line. */
export function profilesText(rows: readonly ProfileRow[]): string {
  const t = displayText;
  const wName = Math.max(4, ...rows.map((r) => t(r.name).length));
  const wUrl = Math.max(7, ...rows.map((r) => t(r.url).length));
  // The label column only once a profile has one (its colour too: the same word as in the console's header).
  const badges = rows.map((r) => profileBadge(r));
  const wLabel = badges.some(Boolean) ? Math.max(5, ...badges.map((b) => (b ? badgeText(b).length : 0))) : 0;
  const label = (i: number) => {
    if (!wLabel) return '';
    const b = badges[i];
    const text = b ? badgeText(b) : '';
    return `${b?.colour ? paint(b.colour, text) : text}${' '.repeat(wLabel - text.length)}  `;
  };
  const lines = [`  ${wLabel ? 'LABEL'.padEnd(wLabel) + '  ' : ''}${'NAME'.padEnd(wName)}  ${'STORAGE'.padEnd(wUrl)}  PLATFORM`];
  for (const [i, r] of rows.entries()) {
    const platform = r.platformUrl ? `${t(r.platformUrl)} (${r.signedIn ? 'signed in' : 'not signed in'})` : '-';
    lines.push(`${r.last ? '*' : ' '} ${label(i)}${t(r.name).padEnd(wName)}  ${t(r.url).padEnd(wUrl)}  ${platform}`);
  }
  lines.push('* last used: the default when --profile is not given');
  return lines.join('\n') + '\n';
}

const profiles: CommandModule = {
  summary: 'List the profiles (storage node, platform URL, whether signed in); * marks the last used, the default.',
  usage: [
    'usage: shardeck profiles [--json]',
    '       shardeck profiles save NAME [--url URL] [--user NAME] [--password-env VAR | --password-file FILE] [--ca FILE]',
    '                                   [--insecure] [--read-only] [--platform URL] [--template-version v9] [--interval S]',
    '                                   [--search-curl PATH] [--search-curl-form curl|path] [--via search_curl]',
    '                                   [--label PROD] [--color red|yellow|green|blue|magenta|cyan] [--production | --no-production]',
  ].join('\n'),
  options: {
    platform: { type: 'string' },
    'insecure-http': { type: 'boolean' },
    'template-version': { type: 'string' },
    interval: { type: 'string' },
    'search-curl': { type: 'string' },
    'search-curl-form': { type: 'string' },
    label: { type: 'string' },
    color: { type: 'string' },
    production: { type: 'boolean' },
    'no-production': { type: 'boolean' },
  },
  group: 'config',
  flagHelp: {
    platform: "with save: the platform's base URL",
    'insecure-http': 'with save: accept a plain http:// platform on another machine (the token then crosses the network unencrypted)',
    'template-version': 'with save: the index template version of the platform (e.g. v9)',
    interval: "with save: the console's poll interval in seconds (default 5)",
    'search-curl': "with save: the node's search_curl wrapper when it is not on PATH (previews then show it instead of curl)",
    'search-curl-form': "with save: the wrapper's argument form: curl (default: curl's arguments, full URL) or path (the path only)",
    label: 'with save: a short word shown in every header, preview and confirmation of this profile (e.g. PROD)',
    color: `with save: the label's colour: ${PROFILE_COLOURS.join(', ')}`,
    production:
      "with save: a data-loss confirmation on this profile also asks for the cluster's name (labelled PROD in red unless --label/--color say otherwise)",
    'no-production': 'with save: this profile is not production any more',
  },
  examples: [
    'shardeck profiles',
    'shardeck profiles save prod --url https://10.0.0.5:9200 --user elastic --password-file ~/.es-pw --ca /etc/elasticsearch/certs/http_ca.crt --label PROD --color red --production',
    'shardeck profiles save lab --url http://127.0.0.1:9200 --read-only',
  ],
  run(ctx) {
    const { values, positionals } = ctx;
    if (positionals[0] === 'save') return save(ctx);
    if (positionals.length)
      throw new UsageError(`unknown profiles action "${positionals[0]}": use shardeck profiles, or shardeck profiles save NAME`);
    const rows = listProfiles().map(({ name, profile, last }) => ({
      name,
      last,
      ...profile,
      // A config.json edited by hand may hold user:pass@ in a URL: never shown (using it is refused).
      url: urlForMessage(profile.url ?? ''),
      ...(profile.platformUrl ? { platformUrl: urlForMessage(profile.platformUrl) } : {}),
      // Whether a refresh token is stored, never the token.
      signedIn: readRefreshToken(name) !== undefined,
    }));
    if (values.json) {
      out(JSON.stringify(rows, null, 2) + '\n');
      return 0;
    }
    if (!rows.length) {
      out('no profiles yet: shardeck login --platform URL [--profile NAME] creates one\n');
      return 0;
    }
    out(profilesText(rows));
    return 0;
  },
};

export default profiles;
