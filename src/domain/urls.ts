// URLs as the operator gives them: credentials inside a URL are refused and never echoed back.
// Pure, so the config (flags, profiles), the cluster client's messages and the platform sign-in share it.

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

export const NO_CREDENTIALS_IN_URL =
  'give the user with --user and the password with --password-file FILE or --password-env VAR (or a prompt)';

/**
 * What is wrong with a storage node URL, or null: credentials inside it (refused, never echoed),
 * no http(s) scheme, no host. `what` names where it came from (--url, the profile).
 */
export function nodeUrlProblem(url: string, what = '--url'): string | null {
  if (urlHasCredentials(url))
    return `${what} holds credentials (user or password before "@"), which would show in ps, the shell history and the config: remove them and ${NO_CREDENTIALS_IN_URL}`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${what} "${urlForMessage(url)}" is not a URL: give one like https://127.0.0.1:9200`;
  }
  if (!/^https?:$/.test(u.protocol) || !u.hostname)
    return `${what} "${urlForMessage(url)}" must start with http:// or https:// and name a host, like https://127.0.0.1:9200`;
  return null;
}
