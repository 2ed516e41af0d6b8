// The text of the header (cluster, status, who is signed in, markers) and of the status bar
// (where shardeck is connected, how often it polls, the warnings that must stay visible).
import { formatAge } from '../text/format';

/** The platform user as user@tenant while signed in; a word when signing in failed; else nothing. */
export function platformWho(p: { state: string; user?: string; tenant?: string }): string {
  return p.state === 'signed-in' || p.state === 'refreshing'
    ? `${p.user ?? '?'}@${p.tenant ?? '?'}`
    : p.state === 'error'
      ? 'platform: sign-in failed'
      : '';
}

/** The status in the header's badge; a '?' when the last health read failed, dots before the first. */
export function statusBadge(status: string | undefined, stale: boolean): string {
  return status ? ` ${status.toUpperCase()}${stale ? '?' : ''} ` : ' ... ';
}

export function modeMarkers(paused: boolean, readOnly: boolean): string {
  return [paused ? 'PAUSED' : '', readOnly ? 'READ-ONLY' : ''].filter(Boolean).join(' ');
}

export const INSECURE_WARNING = ' INSECURE: TLS certificate not verified (--insecure) ';

/** "<url> · every 5s", with the connection's trouble while the node does not answer. */
export function connectionLine(url: string, intervalMs: number, paused: boolean, errorKind: string | undefined): string {
  const conn = errorKind ? ` · ${errorKind === 'unreachable' ? 'node not answering' : errorKind}, retrying` : '';
  const poll = paused ? 'paused' : `every ${formatAge(intervalMs)}`;
  return `${url} · ${poll}${conn}`;
}

/**
 * The status bar's line while sharing or following: who, how many, and what needs attention. A
 * leader's line fits `room` by leaving out the least first: at rest, the command a colleague runs
 * to follow (and its token) is never cut (issue 47 item 7).
 */
export function shareLine(
  v: {
    role: 'leader' | 'follower';
    socket?: string;
    followers: readonly { user: string }[];
    refused: readonly string[];
    leader?: string;
    leaderGone?: boolean;
    following?: boolean;
    approval?: { summary: string };
    requireApproval?: boolean;
    message?: string;
    token?: string;
  },
  room = Infinity,
): { text: string; alert: boolean } {
  if (v.role === 'follower') {
    if (v.leaderGone) return { text: `LEADER GONE · ${v.message ?? 'the data shown is stale'}`, alert: true };
    if (v.approval) return { text: `approval asked: ${v.approval.summary}`, alert: true };
    return {
      text: `following ${v.leader ?? 'the leader'}${v.message ? ` · ${v.message}` : ''} · ${v.following ? 'f: on your own' : 'on your own · f: follow the leader'} · n note`,
      alert: false,
    };
  }
  if (v.approval) return { text: `waiting for a follower to approve: ${v.approval.summary}`, alert: true };
  const refused = v.refused.length ? ` · REFUSED ${v.refused[v.refused.length - 1]}` : '';
  const who = v.followers.length ? v.followers.map((f) => f.user).join(', ') : 'nobody yet';
  const eyes = v.requireApproval ? ' · four eyes' : '';
  const join = `${v.token ? ` · token ${v.token}` : ''} · shardeck follow ${v.socket ?? ''}`;
  // What happens now (a proposal, a refusal) comes first; else the command stays whole and who
  // follows comes after it, where the line is cut.
  if (v.message) return { text: `SHARED (${v.followers.length})${eyes}${refused} · ${v.message}${join} · ${who}`, alert: Boolean(refused) };
  // A refusal is never left out (someone was turned away): with it the command may be cut.
  const head =
    [`SHARED (${v.followers.length})${eyes}${refused}`, `SHARED (${v.followers.length})${refused}`].find(
      (h) => h.length + join.length <= room,
    ) ?? (refused ? `SHARED (${v.followers.length})${refused}` : 'SHARED');
  return { text: `${head}${join} · ${who}`, alert: Boolean(refused) };
}
