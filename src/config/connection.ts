// Resolves how to reach the storage node: flags override the profile, the profile overrides the
// defaults. The password never travels in argv: --password-env VAR, --password-file F or a prompt.
import fs from 'node:fs';
import type { ConnectionOptions } from '../cluster/connection';
import { nodeUrlProblem, urlForMessage } from '../domain/urls';
import { assertPrivateFile, UsageError } from './files';
import { DEFAULT_URL, type Profile } from './profiles';

export { UsageError };

export interface ConnectionFlags {
  url?: string;
  user?: string;
  'password-env'?: string;
  'password-file'?: string;
  ca?: string;
  insecure?: boolean;
  'read-only'?: boolean;
}

export interface ResolvedConnection extends ConnectionOptions {
  readOnly: boolean;
  /** Where the password came from, for messages (never the password). */
  passwordSource?: string;
}

export type PasswordPrompt = (question: string) => Promise<string>;

export async function resolveConnection(
  flags: ConnectionFlags,
  profile: Profile | undefined,
  prompt?: PasswordPrompt,
): Promise<ResolvedConnection> {
  const url = flags.url ?? profile?.url ?? DEFAULT_URL;
  const bad = nodeUrlProblem(url, flags.url !== undefined ? '--url' : 'the URL of the profile');
  if (bad) throw new UsageError(bad);
  const user = flags.user ?? profile?.user;
  const passwordEnv = flags['password-env'] ?? profile?.passwordEnv;
  const passwordFile = flags['password-file'] ?? profile?.passwordFile;
  let password: string | undefined;
  let passwordSource: string | undefined;
  if (passwordEnv) {
    password = process.env[passwordEnv];
    if (password === undefined) throw new UsageError(`the environment variable ${passwordEnv} (from --password-env) is not set`);
    passwordSource = `$${passwordEnv}`;
  } else if (passwordFile) {
    try {
      assertPrivateFile(passwordFile);
      password = fs.readFileSync(passwordFile, 'utf8').replace(/\r?\n$/, '');
    } catch (e) {
      if ((e as Error).name === 'InsecureFileError') throw new UsageError((e as Error).message);
      throw new UsageError(`cannot read the password file ${passwordFile} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    passwordSource = passwordFile;
  } else if (user !== undefined) {
    if (!prompt) throw new UsageError(`a password is needed for user ${user}: give --password-env VAR or --password-file FILE (no terminal to prompt on)`);
    password = await prompt(`password for ${user}@${urlForMessage(url)}: `);
    passwordSource = 'prompt';
  }
  const ca = flags.ca ?? profile?.ca;
  if (ca && !fs.existsSync(ca)) throw new UsageError(`the CA file ${ca} (from --ca) does not exist`);
  return {
    url,
    user,
    password,
    passwordSource,
    caFile: ca,
    insecure: Boolean(flags.insecure ?? profile?.insecure),
    readOnly: Boolean(flags['read-only'] ?? profile?.readOnly),
  };
}

/** Reads a line from the terminal without echoing it. */
export function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const { stdin, stderr } = process;
    if (!stdin.isTTY) {
      reject(new UsageError('no terminal to prompt for a password on: use --password-env or --password-file'));
      return;
    }
    stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    let value = '';
    const onData = (buf: Buffer) => {
      for (const ch of buf.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          cleanup();
          stderr.write('\n');
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          cleanup();
          stderr.write('\n');
          reject(new UsageError('cancelled'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    const cleanup = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
    };
    stdin.on('data', onData);
  });
}
