// Resolves how to reach the storage node: flags override the profile, the profile overrides the
// defaults. The password never travels in argv: --password-env VAR, --password-file F or a prompt.
import { NotRegularFileError, readCapped } from '../boundary/files';
import { existsHere } from '../boundary/host-reads';
import type { ConnectionOptions } from '../cluster/connection';
import { nodeUrlProblem, urlForMessage } from '../domain/urls';
import { assertPrivateFile, UsageError } from './files';
import { DEFAULT_URL, type Profile } from './profiles';
import { findSearchCurl, SEARCH_CURL } from './search-curl';
import type { SearchCurl } from '../domain/mutation/preview';

export { UsageError };

export interface ConnectionFlags {
  url?: string;
  user?: string;
  'password-env'?: string;
  'password-file'?: string;
  ca?: string;
  insecure?: boolean;
  'read-only'?: boolean;
  via?: string;
}

export interface ResolvedConnection extends ConnectionOptions {
  readOnly: boolean;
  /** The node's search_curl wrapper, when found: previews show it (and `via` sends through it). */
  searchCurl?: SearchCurl;
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
  const searchCurl = findSearchCurl(profile);
  const via = flags.via ?? profile?.via;
  if (via !== undefined) {
    if (via !== SEARCH_CURL) throw new UsageError(`--via "${via}" is not a way to connect: the only one is --via search_curl`);
    if (!searchCurl)
      throw new UsageError(
        '--via search_curl: no search_curl on PATH; name it in the profile (shardeck profiles save NAME --search-curl PATH)',
      );
    if (
      flags.user !== undefined ||
      flags['password-env'] !== undefined ||
      flags['password-file'] !== undefined ||
      flags.ca !== undefined ||
      flags.insecure
    )
      throw new UsageError(
        '--via search_curl brings its own credentials and CA: drop --user, --password-env, --password-file, --ca and --insecure',
      );
    // The wrapper authenticates; shardeck holds no password and no CA.
    return { url, searchCurl, via: searchCurl, readOnly: Boolean(flags['read-only'] ?? profile?.readOnly) };
  }
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
      // Non-blocking, a regular file only: a FIFO given as the password file never hangs the start.
      const r = readCapped(passwordFile, 64 * 1024);
      if (r.truncated) throw Object.assign(new Error('too large'), { code: 'over 64 KB: not a password file' });
      password = r.text.replace(/\r?\n$/, '');
    } catch (e) {
      if ((e as Error).name === 'InsecureFileError') throw new UsageError((e as Error).message);
      const why = e instanceof NotRegularFileError ? `it is ${e.what}` : ((e as NodeJS.ErrnoException).code ?? 'error');
      throw new UsageError(`cannot read the password file ${passwordFile} (${why})`);
    }
    passwordSource = passwordFile;
  } else if (user !== undefined) {
    if (!prompt)
      throw new UsageError(
        `a password is needed for user ${user}: give --password-env VAR or --password-file FILE (no terminal to prompt on)`,
      );
    password = await prompt(`password for ${user}@${urlForMessage(url)}: `);
    passwordSource = 'prompt';
  }
  const ca = flags.ca ?? profile?.ca;
  if (ca && !existsHere(ca)) throw new UsageError(`the CA file ${ca} (from --ca) does not exist`);
  return {
    url,
    user,
    password,
    passwordSource,
    caFile: ca,
    insecure: Boolean(flags.insecure ?? profile?.insecure),
    readOnly: Boolean(flags['read-only'] ?? profile?.readOnly),
    searchCurl,
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
