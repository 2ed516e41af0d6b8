// Access: which privileges of the two documented roles (domain/privileges.ts) the user shardeck
// connects as lacks, from _security/user/_has_privileges. Pure.
import type { Finding } from './finding';

export interface AccessFacts {
  user: string;
  /** Per role, the privileges missing ("cluster monitor", "index manage on *"). */
  missing: { watcher: string[]; operator: string[] };
}

export function accessFindings(a: AccessFacts | null): Finding[] {
  if (!a)
    return [
      {
        id: 'access.privileges',
        family: 'access',
        severity: 'ok',
        finding: 'the node checks no privileges (security off): every user may do everything',
        evidence: ['_security/user/_has_privileges not answered'],
      },
    ];
  const who = a.user ? `user ${a.user}` : 'this user';
  if (a.missing.watcher.length)
    return [
      {
        id: 'access.privileges',
        family: 'access',
        severity: 'warn',
        finding: `${who} lacks ${a.missing.watcher.join(', ')}: some panes and inspect commands cannot read (and no change can be made)`,
        evidence: [
          ...a.missing.watcher.map((p) => `watching needs ${p}`),
          ...a.missing.operator.filter((p) => !a.missing.watcher.includes(p)).map((p) => `changes need ${p}`),
        ],
        remedy:
          'grant the watcher role of the README (cluster monitor; index monitor, view_index_metadata, read on *), or the operator role to make changes',
      },
    ];
  if (a.missing.operator.length)
    return [
      {
        id: 'access.privileges',
        family: 'access',
        severity: 'ok',
        finding: `${who} may watch every pane; the changes (wizards) need ${a.missing.operator.join(', ')}`,
        evidence: a.missing.operator.map((p) => `changes need ${p}`),
      },
    ];
  return [
    {
      id: 'access.privileges',
      family: 'access',
      severity: 'ok',
      finding: `${who} has every privilege the console and its changes need`,
      evidence: ['watcher and operator privileges all granted'],
    },
  ];
}
