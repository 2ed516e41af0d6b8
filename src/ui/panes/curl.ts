// The requests behind a pane as curl lines (the same form as the mutation previews): the operator
// can run them on the node's own shell. The user is named, never the password (curl asks for it).
import { useMemo } from 'react';
import { curlLine } from '../../domain/mutation/preview';
import { urlForMessage } from '../../domain/urls';
import { readRequestsOf } from '../../store/panes';
import type { ResourceName } from '../../store/console';
import type { ConnectionInfo } from '../../store/console';
import { useConsole } from '../app/context';

export function curlLinesOf(
  names: readonly ResourceName[],
  conn: Pick<ConnectionInfo, 'url' | 'user' | 'insecure'>,
  extra: { path: string; querystring?: Record<string, string> }[] = [],
): string[] {
  const to = { url: urlForMessage(conn.url), user: conn.user, insecure: conn.insecure };
  return [
    ...names.flatMap(readRequestsOf),
    ...extra.map((e) => ({ method: 'GET' as const, path: e.path, querystring: e.querystring ?? {} })),
  ].map((r) => curlLine(r, to));
}

export function useCurlLines(
  names: readonly ResourceName[],
  extra: { path: string; querystring?: Record<string, string> }[] = [],
): string[] {
  const conn = useConsole((s) => s.connection);
  const key = JSON.stringify(extra);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `extra` by content (a new array each render)
  return useMemo(() => curlLinesOf(names, conn, extra), [conn.url, conn.user, conn.insecure, key]);
}
