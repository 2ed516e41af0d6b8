// The platform refresh tokens, one per profile, in a 0600 file inside the 0700 config directory.
// Nothing else ever holds them: not conf's config.json, not argv, not a log or an error message.
// A secrets file that group or others can read is refused (with the chmod that fixes it).
import path from 'node:path';
import { checkSecretsText } from '../domain/host/local-files';
import { assertPrivateFile, configDir, InsecureFileError, withFileLock, writePrivateFileAtomic } from './files';
import { UsageError } from './connection';
import { BrokenFileError, moveAsideRemedy, readLocalText } from './local-files';

/** A secrets file holds a few tokens: more is not ours. */
const MAX_SECRETS_BYTES = 1024 * 1024;

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
  const remedy = moveAsideRemedy(file, 'run shardeck login again');
  const text = readLocalText(file, MAX_SECRETS_BYTES, remedy);
  if (text === null) return { version: 1, refreshTokens: {} };
  try {
    assertPrivateFile(file);
  } catch (e) {
    if (e instanceof InsecureFileError) throw new UsageError(e.message);
    throw e;
  }
  // The problem never quotes the content: it is a secret.
  const check = checkSecretsText(text);
  if (!check.ok) throw new BrokenFileError(file, check.problem, remedy);
  return { version: 1, refreshTokens: check.value };
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
