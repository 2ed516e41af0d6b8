// Resolves how to reach the storage node: flags override the profile, the profile overrides the
// defaults. The password never travels in argv: --password-env VAR, --password-file F or a prompt.
import fs from 'node:fs';
import type { ConnectionOptions } from '../cluster/connection';
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

/**
 * A URL with every userinfo shape (user:pass@, user@, :pass@, even unparseable ones) cut out,
 * for messages: a password typed into a URL must never be echoed back.
 */
export function urlForMessage(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '';
      u.password = '';
    }
    if (/^https?:$/.test(u.protocol)) return u.toString().replace(/\/$/, '');
  } catch {
    // not a URL: cut by hand below
  }
  // Everything before the last "@" of the authority (or of the whole text, without a scheme).
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i, '$1');
}

/** True when a URL carries credentials in any shape (user:pass@, user@, :pass@, a bare "@"). */
export function urlHasCredentials(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.username || u.password) return true;
  } catch {
    // fall through to the text test
  }
  return /^([a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i.test(url.trim());
}

export const NO_CREDENTIALS_IN_URL = 'give the user with --user and the password with --password-file FILE or --password-env VAR (or a prompt)';

/**
 * What is wrong with a storage node URL, or null: credentials inside it (refused, never echoed),
 * no http(s) scheme, no host. `what` names where it came from (--url, the profile).
 */
export function nodeUrlProblem(url: string, what = '--url'): string | null {
  if (urlHasCredentials(url)) return `${what} holds credentials (user or password before "@"), which would show in ps, the shell history and the config: remove them and ${NO_CREDENTIALS_IN_URL}`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${what} "${urlForMessage(url)}" is not a URL: give one like https://127.0.0.1:9200`;
  }
  if (!/^https?:$/.test(u.protocol) || !u.hostname) return `${what} "${urlForMessage(url)}" must start with http:// or https:// and name a host, like https://127.0.0.1:9200`;
  return null;
}

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
