// The platform refresh tokens, one per profile, in a 0600 file inside the 0700 config directory.
// Nothing else ever holds them: not conf's config.json, not argv, not a log or an error message.
// A secrets file that group or others can read is refused (with the chmod that fixes it).
import fs from 'node:fs';
import path from 'node:path';
import { assertPrivateFile, configDir, InsecureFileError, withFileLock, writePrivateFileAtomic } from './files';
import { UsageError } from './connection';

interface SecretsFile {
  version: 1;
  /** Refresh token by profile name. */
  refreshTokens: Record<string, string>;
}

export function secretsFile(): string {
  return path.join(configDir(), 'secrets.json');
}

function readSecrets(): SecretsFile {
  const file = secretsFile();
  let text: string;
  try {
    assertPrivateFile(file);
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, refreshTokens: {} };
    if (e instanceof InsecureFileError) throw new UsageError(e.message);
    throw new UsageError(`cannot read the secrets file ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const parsed = JSON.parse(text) as Partial<SecretsFile>;
    return { version: 1, refreshTokens: { ...(parsed.refreshTokens ?? {}) } };
  } catch {
    // Never echo the content: it is a secret.
    throw new UsageError(`the secrets file ${file} is not valid JSON: remove it and run shardeck login again`);
  }
}

function writeSecrets(s: SecretsFile): void {
  writePrivateFileAtomic(secretsFile(), JSON.stringify(s, null, 2) + '\n');
}

export function readRefreshToken(profile: string): string | undefined {
  return readSecrets().refreshTokens[profile];
}

/** Stores (or replaces) a profile's refresh token atomically: a crash never leaves half a token. */
export function saveRefreshToken(profile: string, token: string): void {
  const s = readSecrets();
  s.refreshTokens[profile] = token;
  writeSecrets(s);
}

/** Forgets a profile's refresh token. Returns whether there was one. */
export function forgetRefreshToken(profile: string): boolean {
  const s = readSecrets();
  if (!(profile in s.refreshTokens)) return false;
  delete s.refreshTokens[profile];
  writeSecrets(s);
  return true;
}

/**
 * Runs fn while no other shardeck exchanges a refresh token: when the platform rotates tokens, two
 * processes exchanging the same one at once would leave one of them with a retired token.
 */
export function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  return withFileLock(`${secretsFile()}.lock`, fn);
}
