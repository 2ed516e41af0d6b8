// What the platform subcommands (login, whoami, projects) share: how a platform failure is told
// and which exit code it gives.
import { getProfile, openConfig, pickProfileName, type Profile } from '../../config/profiles';
import { LockBusyError } from '../../config/files';
import { PlatformError, type PlatformSignIn } from '../../platform/sign-in';
import { openProfileSignIn } from '../../services/platform-sign-in';
import { EXIT, type CommandContext } from './common';
import { err, outJson } from './output';

/** The platform sign-in of the profile the flags pick (--profile, else the last used). */
export function signInOfFlags(values: CommandContext['values']): {
  profileName: string;
  profile: Profile | undefined;
  platform: PlatformSignIn;
} {
  const conf = openConfig();
  const profileName = pickProfileName(values.profile as string | undefined, conf);
  const profile = getProfile(profileName, conf);
  return { profileName, profile, platform: openProfileSignIn(profileName, profile) };
}

/**
 * Prints a PlatformError (or a token-exchange lock never obtained) as one sentence, with --json
 * also as { ok: false, error }, and maps it to an exit code; rethrows anything else.
 */
export function reportPlatformError(command: string, e: unknown, json = false): number {
  if (!(e instanceof LockBusyError) && !(e instanceof PlatformError)) throw e;
  if (json) outJson({ command, ok: false, error: e.message });
  err(`shardeck ${command}: ${e.message}\n`);
  if (e instanceof LockBusyError) return EXIT.failed;
  return e.kind === 'unreachable' || e.kind === 'timeout' ? EXIT.unreachable : EXIT.failed;
}

/** Reads a secret from a pipe: the first line, without its line end. */
export async function readSecretFromStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0].trim();
}
