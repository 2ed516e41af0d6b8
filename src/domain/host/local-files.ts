// What shardeck makes of its own files when they are broken (a full disk, a crash mid-write, an
// edit by hand): config.json, secrets.json, the audit log, a timeline, the completion cache. Pure:
// config/local-files.ts reads the bytes and throws the sentence; here are the checks and the words.
export type FileCheck<T> = { ok: true; value: T } | { ok: false; problem: string };

/** What a read error means, in words ("is a folder, not a file"). */
export function readProblem(code: string | undefined, what?: string): string {
  switch (code) {
    case 'EISDIR':
      return 'is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read by this user';
    case 'ELOOP':
      return 'is a symbolic link';
    case 'NOT_REGULAR':
      return `is not a regular file (${what ?? 'not a file'})`;
    case 'TOO_BIG':
      return `is too big to be ours (${what ?? 'over the limit'})`;
    default:
      return `cannot be read (${code ?? 'error'})`;
  }
}

/** Where a broken file is kept when it is moved aside: beside it, named after the time (UTC). */
export function brokenAsideName(file: string, now: Date): string {
  return `${file}.broken-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
}

function jsonProblem(text: string): FileCheck<unknown> {
  if (!text.trim()) return { ok: false, problem: 'is empty (a write that never finished, or a full disk)' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // Never the parser's words: they quote the content, and "Unexpected end of JSON input" names no file.
    return { ok: false, problem: /^\s*[{[]/.test(text) ? 'is cut short or not valid JSON (a write that never finished?)' : 'is not JSON' };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The type each known profile field must have (config/profiles.ts Profile); unknown fields are left alone. */
const PROFILE_FIELD_TYPES: Record<string, 'string' | 'boolean' | 'number'> = {
  url: 'string',
  user: 'string',
  passwordEnv: 'string',
  passwordFile: 'string',
  ca: 'string',
  insecure: 'boolean',
  readOnly: 'boolean',
  label: 'string',
  color: 'string',
  production: 'boolean',
  platformUrl: 'string',
  platformInsecureHttp: 'boolean',
  platformOnHost: 'boolean',
  platformUser: 'string',
  templateVersion: 'string',
  intervalMs: 'number',
  serviceStop: 'string',
  serviceStart: 'string',
  searchCurl: 'string',
  searchCurlForm: 'string',
  via: 'string',
  requireApproval: 'boolean',
  serviceRestart: 'string',
  serviceStatus: 'string',
  esHome: 'string',
  esUser: 'string',
  confDir: 'string',
  javaHome: 'string',
};

/** Names from the file shown in a sentence: printable, short. */
const shown = (s: string) => JSON.stringify(s.replace(/[^\x20-\x7e]/g, '?').slice(0, 40));

/**
 * config.json (conf's store): an object with profiles (name -> profile, each with a string url and
 * its known fields of their types), lastProfile a string, version a number. A profile read with a
 * field of the wrong type could lose its readOnly, so the whole file is refused, not patched.
 */
export function checkConfigText(
  text: string,
): FileCheck<{ version?: number; lastProfile?: string; profiles?: Record<string, Record<string, unknown>> }> {
  const parsed = jsonProblem(text);
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  if (!isObject(v)) return { ok: false, problem: 'is not a JSON object' };
  if (v.version !== undefined && typeof v.version !== 'number') return { ok: false, problem: '"version" is not a number' };
  if (v.lastProfile !== undefined && typeof v.lastProfile !== 'string')
    return { ok: false, problem: '"lastProfile" is not a profile name' };
  if (v.profiles !== undefined) {
    if (!isObject(v.profiles)) return { ok: false, problem: '"profiles" is not an object of profiles' };
    for (const [name, p] of Object.entries(v.profiles)) {
      if (!isObject(p)) return { ok: false, problem: `profile ${shown(name)} is not an object` };
      if (typeof p.url !== 'string') return { ok: false, problem: `profile ${shown(name)} has no url` };
      for (const [field, type] of Object.entries(PROFILE_FIELD_TYPES)) {
        if (p[field] !== undefined && typeof p[field] !== type)
          return { ok: false, problem: `profile ${shown(name)}: "${field}" is not a ${type}` };
      }
    }
  }
  return { ok: true, value: v };
}

/** secrets.json: { refreshTokens: profile -> token string }. The problem never quotes the content (it is a secret). */
export function checkSecretsText(text: string): FileCheck<Record<string, string>> {
  const parsed = jsonProblem(text);
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  if (!isObject(v)) return { ok: false, problem: 'is not a JSON object' };
  if (v.refreshTokens === undefined) return { ok: true, value: {} };
  if (!isObject(v.refreshTokens)) return { ok: false, problem: '"refreshTokens" is not an object' };
  for (const t of Object.values(v.refreshTokens))
    if (typeof t !== 'string') return { ok: false, problem: 'holds a token that is not a string' };
  return { ok: true, value: { ...(v.refreshTokens as Record<string, string>) } };
}

/** A log written line by line whose last line has no line break: a write cut short (a crash, a full disk). */
export function hasTornLastLine(text: string): boolean {
  return text.length > 0 && !text.endsWith('\n');
}
