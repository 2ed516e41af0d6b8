// How a mutation is previewed: the request with the equivalent curl line (or the node's
// search_curl wrapper), shown by the CLI and by the wizards' preview box alike.
import { pathWithQuery, type MutationMethod, type MutationPlan, type MutationRequest, type Risk } from './plan';
import { displayText } from '../text/display-text';
import { badgeText, type ProfileBadge } from '../console/profile-badge';

export interface PreviewConnection {
  /** Already without credentials (domain/urls.ts urlForMessage). */
  url: string;
  user?: string;
  caFile?: string;
  insecure?: boolean;
  /** The node's search_curl wrapper, when it has one: previews show it instead of curl. */
  searchCurl?: SearchCurl;
  /** The profile's label and colour: every preview of a labelled profile starts with it. */
  badge?: ProfileBadge;
}

/**
 * The wrapper that nodes upgraded with the deployment tooling carry (it supplies the credentials
 * and CA itself). Its argument form is not documented: `curl` (default) passes curl's own
 * arguments with the full URL; `path` passes the path (with its query) instead of the URL.
 */
export interface SearchCurl {
  command: string;
  form: SearchCurlForm;
}
export type SearchCurlForm = 'curl' | 'path';
export const SEARCH_CURL_FORMS: readonly SearchCurlForm[] = ['curl', 'path'];

export interface Preview {
  method: MutationMethod;
  /** Path with its query string. */
  path: string;
  body?: unknown;
  risk: Risk;
  target: string;
  summary: string;
  /** The same request for the node's own tools; curl asks for the password itself. */
  curl: string;
  /** The profile's label (production or staging at a glance), when it has one. */
  badge?: ProfileBadge;
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A path or a name (an index in a printed command) as the operator can paste it into a shell: quoted only when it has to be. */
export function shellPath(p: string): string {
  return /^[\w./+-]+$/.test(p) ? p : shellQuote(p);
}

type AnyRequest = Omit<MutationRequest, 'method'> & { method: MutationMethod | 'GET' | 'HEAD' };

/**
 * The argv of one request through search_curl: the ONE place its argument form lives (previews
 * print it, cluster/search-curl.ts runs it). `body`: 'inline' (-d JSON, for a line to copy) or
 * 'stdin' (--data-binary @-, for running it).
 */
export function searchCurlArgv(req: AnyRequest, url: string, sc: SearchCurl, body: 'inline' | 'stdin' = 'inline'): string[] {
  const target = sc.form === 'path' ? pathWithQuery(req) : url.replace(/\/$/, '') + pathWithQuery(req);
  const argv = [sc.command, '-X', req.method, target];
  if (req.body !== undefined)
    argv.push('-H', 'Content-Type: application/json', ...(body === 'stdin' ? ['--data-binary', '@-'] : ['-d', JSON.stringify(req.body)]));
  return argv;
}

export function curlLine(req: AnyRequest, conn: PreviewConnection): string {
  if (conn.searchCurl) {
    // The wrapper brings the credentials: no -u, --cacert or -k.
    const [command, ...args] = searchCurlArgv(req, conn.url, conn.searchCurl);
    return [
      /^[\w./-]+$/.test(command) ? command : shellQuote(command),
      ...args.map((a) => (/^-/.test(a) || /^[A-Z]+$/.test(a) ? a : shellQuote(a))),
    ].join(' ');
  }
  const parts = ['curl', '-X', req.method, shellQuote(conn.url.replace(/\/$/, '') + pathWithQuery(req))];
  // -u with the user alone: curl asks for the password, so the line runs as shown and the password never appears.
  if (conn.user !== undefined) parts.push('-u', shellQuote(conn.user));
  if (conn.caFile) parts.push('--cacert', shellQuote(conn.caFile));
  if (conn.insecure) parts.push('-k');
  if (req.body !== undefined) parts.push('-H', shellQuote('Content-Type: application/json'), '-d', shellQuote(JSON.stringify(req.body)));
  return parts.join(' ');
}

export function buildPreview(plan: MutationPlan, conn: PreviewConnection): Preview {
  return {
    method: plan.method,
    path: pathWithQuery(plan),
    body: plan.body,
    risk: plan.risk,
    target: plan.target,
    summary: plan.summary,
    curl: curlLine(plan, conn),
    ...(conn.badge ? { badge: conn.badge } : {}),
  };
}

/** Preview as text lines (CLI output and the wizard's preview box share it). */
export function previewLines(p: Preview): string[] {
  // The summary names the target: one line, whatever the name holds.
  const lines = [`${p.badge ? badgeText(p.badge) + ' ' : ''}${displayText(p.summary)}`, `${p.method} ${p.path}`];
  if (p.body !== undefined) lines.push(JSON.stringify(p.body));
  lines.push(`equivalent: ${p.curl}`);
  return lines;
}
