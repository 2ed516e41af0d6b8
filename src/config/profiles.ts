// Named profiles: how to reach one storage node (and its platform). No secret is ever stored
// here: the Elasticsearch password comes from an env var, a file or a prompt; the platform's
// refresh token lives in the 0600 secrets file (config/secrets.ts).
import path from 'node:path';
import Conf from 'conf';
import { checkConfigText } from '../domain/host/local-files';
import { configDir, ensurePrivateDir, tightenPrivateFile } from './files';
import { BrokenFileError, moveAsideRemedy, readLocalText } from './local-files';

export interface Profile {
  url: string;
  user?: string;
  /** Name of the environment variable holding the password. */
  passwordEnv?: string;
  /** File holding the password (must be 0600). */
  passwordFile?: string;
  ca?: string;
  insecure?: boolean;
  readOnly?: boolean;
  /** Shown in every header, preview and confirmation (domain/console/profile-badge.ts): "PROD". */
  label?: string;
  /** The label's colour: one of PROFILE_COLOURS. */
  color?: string;
  /** A data-loss confirmation also asks for the cluster's name. */
  production?: boolean;
  platformUrl?: string;
  /** The operator accepted a plain-http platform on another machine (--insecure-http): the token crosses the network in clear. */
  platformInsecureHttp?: boolean;
  /** The platform's cluster node runs on this storage node's machine (the heap rule is then 30% of RAM); unset: detected from platformUrl. */
  platformOnHost?: boolean;
  /** user_id of the last successful platform sign-in (not a secret): audit records of CLI mutations name it. */
  platformUser?: string;
  /** Template version in index names: service_<templateVersion>_<project>. */
  templateVersion?: string;
  intervalMs?: number;
  /** Commands the corruption checklist runs to stop/start the engine on this node. */
  serviceStop?: string;
  serviceStart?: string;
  /** The node's search_curl wrapper (path or name), when it is not `search_curl` on PATH. */
  searchCurl?: string;
  /** Its argument form: curl (default, curl's arguments and the full URL) or path. */
  searchCurlForm?: 'curl' | 'path';
  /** Connect through search_curl (no password in shardeck). */
  via?: 'search_curl';
  /** Four eyes: every change waits for a follower of the shared console to approve it (--require-approval). */
  requireApproval?: boolean;
  /** shardeck service: restart and status commands (systemctl restart / is-active elasticsearch when absent). */
  serviceRestart?: string;
  serviceStatus?: string;
  /** The engine's home, the user its plugin tool runs as, its ES_PATH_CONF and java (read from the running node when absent). */
  esHome?: string;
  esUser?: string;
  confDir?: string;
  javaHome?: string;
}

interface ConfigSchema {
  version: number;
  lastProfile?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_URL = 'http://localhost:9200';
export const DEFAULT_PROFILE = 'default';
const SCHEMA_VERSION = 1;

/** The most a config.json of profiles may hold: more is not ours. */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * Refuses a broken config.json (empty, cut short, not JSON, wrong types, a folder) with the file's
 * name and what to do, before conf reads it: conf would throw the parser's words ("Unexpected end
 * of JSON input", exit 70) or, told to clear it, overwrite the operator's profiles.
 */
function checkConfigFile(file: string): void {
  const remedy = moveAsideRemedy(file, 'shardeck starts with no profiles');
  const text = readLocalText(file, MAX_CONFIG_BYTES, remedy);
  if (text === null) return;
  const check = checkConfigText(text);
  if (!check.ok) throw new BrokenFileError(file, check.problem, remedy);
}

export function openConfig(): Conf<ConfigSchema> {
  const cwd = ensurePrivateDir(configDir());
  const file = path.join(cwd, 'config.json');
  checkConfigFile(file);
  // conf sets 0600 only when it writes; one left 0644 (older version, by hand) is tightened now.
  tightenPrivateFile(file);
  return new Conf<ConfigSchema>({
    projectName: 'shardeck',
    cwd,
    configName: 'config',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
    defaults: { version: SCHEMA_VERSION, profiles: {} },
  });
}

export function listProfiles(conf = openConfig()): { name: string; profile: Profile; last: boolean }[] {
  const last = conf.get('lastProfile');
  return Object.entries(conf.get('profiles')).map(([name, profile]) => ({ name, profile, last: name === last }));
}

/** The profile to use: --profile, else the last used, else "default". */
export function pickProfileName(requested: string | undefined, conf = openConfig()): string {
  return requested ?? conf.get('lastProfile') ?? DEFAULT_PROFILE;
}

export function getProfile(name: string, conf = openConfig()): Profile | undefined {
  return conf.get('profiles')[name];
}

export function saveProfile(name: string, patch: Partial<Profile>, conf = openConfig()): Profile {
  const profiles = conf.get('profiles');
  const next: Profile = { ...(profiles[name] ?? { url: DEFAULT_URL }), ...patch };
  for (const k of Object.keys(next) as (keyof Profile)[]) if (next[k] === undefined) delete next[k];
  conf.set('profiles', { ...profiles, [name]: next });
  return next;
}

export function markLastUsed(name: string, conf = openConfig()): void {
  if (conf.get('profiles')[name]) conf.set('lastProfile', name);
}
