// Roles and privileges: the two documented roles (docs/roles/*.json are these, checked by a test),
// what Elasticsearch's 403 says is missing in one sentence, and which of the privileges shardeck
// needs the current user lacks (from _security/user/_has_privileges, for `shardeck doctor`).

export interface RoleDescriptor {
  cluster: string[];
  indices: { names: string[]; privileges: string[]; allow_restricted_indices: boolean }[];
}

/**
 * watcher: every pane and inspect command, no change. `monitor` (cluster) reads health, the
 * health report, the cluster state's blocks, settings, nodes, _cat and tasks; index `monitor` the
 * index and shard stats; `view_index_metadata` mappings, settings and templates of indices; `read`
 * the documents (get, search, the delete preview's count).
 * operator: what every wizard needs, not superuser (no security, no snapshots' repositories):
 * cluster `manage` (cluster settings: scroll limit; reroute; index and component templates; task
 * cancel), index `manage` (replicas, blocks, forcemerge) and `delete` (delete-by-query).
 */
export const ROLES: Record<'watcher' | 'operator', RoleDescriptor> = {
  watcher: {
    cluster: ['monitor'],
    indices: [{ names: ['*'], privileges: ['monitor', 'view_index_metadata', 'read'], allow_restricted_indices: false }],
  },
  operator: {
    cluster: ['monitor', 'manage'],
    indices: [
      { names: ['*'], privileges: ['monitor', 'view_index_metadata', 'read', 'manage', 'delete'], allow_restricted_indices: false },
    ],
  },
};

/** What a 403 of Elasticsearch says: the action, the user, and the privileges that grant it. */
export interface Unauthorized {
  action: string;
  user?: string;
  scope: 'cluster' | 'index';
  /** The privileges that would grant it, narrowest first as Elasticsearch lists them. */
  grantedBy: string[];
  indices?: string[];
}

/**
 * "action [cluster:monitor/state] is unauthorized for user [w] with effective roles [watcher],
 * this action is granted by the cluster privileges [monitor,manage,all]" (and the index form,
 * "... on indices [a,b], this action is granted by the index privileges [...]").
 */
export function parseUnauthorized(reason: string | undefined): Unauthorized | undefined {
  const text = String(reason ?? '');
  const action = /action \[([^\]]+)\] is unauthorized/.exec(text)?.[1];
  const granted = /granted by the (cluster|index) privileges \[([^\]]*)\]/.exec(text);
  if (!action || !granted) return undefined;
  const user = /for user \[([^\]]+)\]/.exec(text)?.[1];
  const indices = /on indices \[([^\]]*)\]/.exec(text)?.[1];
  return {
    action,
    user,
    scope: granted[1] as 'cluster' | 'index',
    grantedBy: granted[2]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    ...(indices !== undefined
      ? {
          indices: indices
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        }
      : {}),
  };
}

/** One sentence for a pane or a command: which privilege is missing, instead of the raw 403. */
export function forbiddenSentence(u: Unauthorized): string {
  const on = u.indices?.length
    ? ` on ${u.indices.slice(0, 3).join(', ')}${u.indices.length > 3 ? ` and ${u.indices.length - 3} more` : ''}`
    : '';
  const [first, ...rest] = u.grantedBy;
  const or = rest.length ? ` (or ${rest.join(', ')})` : '';
  return `${u.user ? `user ${u.user}` : 'this user'} lacks the ${u.scope} privilege ${first ?? '?'}${or}${on} for ${u.action}: see the watcher and operator roles in the README`;
}

/** The body of POST _security/user/_has_privileges for a role's privileges. */
export function hasPrivilegesBody(role: RoleDescriptor): {
  cluster: string[];
  index: { names: string[]; privileges: string[]; allow_restricted_indices: boolean }[];
} {
  return {
    cluster: role.cluster,
    index: role.indices.map((i) => ({ names: i.names, privileges: i.privileges, allow_restricted_indices: i.allow_restricted_indices })),
  };
}

/** The privileges the answer of _has_privileges says are missing, as "cluster monitor", "index manage on *". */
export function missingPrivileges(answer: {
  cluster?: Record<string, boolean>;
  index?: Record<string, Record<string, boolean>>;
}): string[] {
  const out: string[] = [];
  for (const [p, ok] of Object.entries(answer.cluster ?? {})) if (!ok) out.push(`cluster ${p}`);
  for (const [names, privs] of Object.entries(answer.index ?? {}))
    for (const [p, ok] of Object.entries(privs)) if (!ok) out.push(`index ${p} on ${names}`);
  return out;
}

/** A failure the node reported (a task's error): the missing privilege in one sentence when it is one, else as it came. */
export function failureSentence(reason: string): string {
  const u = parseUnauthorized(reason);
  return u ? forbiddenSentence(u) : reason;
}
