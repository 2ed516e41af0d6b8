// The environment of every command shardeck runs on the host (the corruption checklist's bash,
// and through it runuser, java, elasticsearch-shard and the operator's --stop-cmd/--start-cmd).
// A child inherits its parent's environment, and anything it runs inherits it again and may log
// it (/proc/<pid>/environ is readable by the process's user): so no secret goes along.

/** What shardeck knows to be secret in its own environment. */
export interface HostSecrets {
  /** Variables that hold a secret by name: --password-env / the profile's passwordEnv. */
  envNames: string[];
  /** Secret values (the Elasticsearch password, platform tokens), wherever they appear. */
  values: string[];
}

/** Names that say they hold a secret (ELASTIC_PASSWORD, SHARDECK_PLATFORM_TOKEN, AWS_SECRET_ACCESS_KEY, ...). */
const SECRET_NAME = /PASSW(OR)?D|PASSPHRASE|SECRET|TOKEN|API_?KEY|CREDENTIAL|PRIVATE_?KEY|AUTH/i;

/** A value this short is not searched for inside others (it would strip PATH for a password "a"). */
const MIN_SEARCHED = 8;

/** The child's environment: `base` without every variable that holds a secret. */
export function hostCommandEnv(base: Record<string, string | undefined>, secrets: HostSecrets): Record<string, string> {
  const names = new Set(secrets.envNames);
  const values = secrets.values.filter((v) => v.length > 0);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || names.has(k) || SECRET_NAME.test(k)) continue;
    if (values.some((s) => v === s || (s.length >= MIN_SEARCHED && v.includes(s)))) continue;
    out[k] = v;
  }
  return out;
}

/** The secrets of a resolved connection: the password and the variable it came from. */
export function connectionSecrets(conn: { password?: string; passwordSource?: string }, extra: string[] = []): HostSecrets {
  const fromEnv = conn.passwordSource?.startsWith('$') ? [conn.passwordSource.slice(1)] : [];
  return { envNames: fromEnv, values: [...(conn.password ? [conn.password] : []), ...extra] };
}

/** The PATH of every host command: system folders only, never the PATH shardeck inherited. */
export const SYSTEM_PATH = '/usr/sbin:/usr/bin:/sbin:/bin';

/** What a system tool shardeck runs itself (tar) keeps of shardeck's environment: the locale and time zone. */
const TOOL_ALLOWED = ['LANG', 'LC_ALL', 'LC_CTYPE', 'LC_MESSAGES', 'TZ'];

/** A system tool's environment: an allow-list of `base`, PATH the system's. */
export function toolEnv(base: Record<string, string | undefined> = {}): Record<string, string> {
  const out: Record<string, string> = { PATH: SYSTEM_PATH };
  for (const k of TOOL_ALLOWED) if (base[k] !== undefined) out[k] = base[k]!;
  return out;
}

/** What a host command keeps of shardeck's own environment (an allow-list: anything else, a proxy password or a DATABASE_URL, stays behind). */
const HOST_ALLOWED = /^(HOME|USER|LOGNAME|LANG|LANGUAGE|LC_[A-Z]+|TZ|TERM)$/;

/**
 * The environment of a host command (the checklist's bash, service commands, the plugin tool):
 * the allow-listed variables of `base`, PATH the system's, and the engine's own ES_* settings
 * from its package configuration (`pkg`, /etc/default/elasticsearch), never the running
 * engine's environment. A secret value is dropped even from an allowed variable.
 */
export function hostEnv(
  base: Record<string, string | undefined>,
  pkg: Record<string, string>,
  secrets: HostSecrets,
): Record<string, string> {
  const values = secrets.values.filter((v) => v.length > 0);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || !HOST_ALLOWED.test(k)) continue;
    if (values.some((s) => v === s || (s.length >= MIN_SEARCHED && v.includes(s)))) continue;
    out[k] = v;
  }
  for (const [k, v] of Object.entries(pkg)) if (/^ES_[A-Z_]+$/.test(k)) out[k] = v;
  out.PATH = SYSTEM_PATH;
  return out;
}

/**
 * KEY=VALUE lines of a package's environment file (/etc/default/elasticsearch,
 * /etc/sysconfig/elasticsearch): comments and blank lines skipped, one level of quotes removed,
 * nothing expanded (the file is data here, never run).
 */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*?)\s*$/.exec(raw);
    if (!m || raw.trim().startsWith('#')) continue;
    const v = m[2];
    out[m[1]] = /^(["']).*\1$/.test(v) ? v.slice(1, -1) : v;
  }
  return out;
}

/** The engine's config folder when its package configuration names none: the package's, or <home>/config of a tarball. */
export function defaultConfDir(home: string | undefined): string {
  return !home || home.replace(/\/+$/, '') === '/usr/share/elasticsearch' ? '/etc/elasticsearch' : `${home.replace(/\/+$/, '')}/config`;
}
