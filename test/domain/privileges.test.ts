// The roles as documented, a 403 in one sentence, and what _has_privileges says is missing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forbiddenSentence, hasPrivilegesBody, missingPrivileges, parseUnauthorized, ROLES } from '../../src/domain/privileges';
import { accessFindings } from '../../src/domain/doctor/access';

const docs = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'docs', 'roles');

describe('privileges', () => {
  it('docs/roles/*.json are the roles shardeck checks (paste them into PUT _security/role/NAME)', () => {
    for (const name of ['watcher', 'operator'] as const)
      expect(JSON.parse(fs.readFileSync(path.join(docs, `${name}.json`), 'utf8'))).toEqual(ROLES[name]);
    // The watcher changes nothing: no cluster manage, no index manage, delete or write.
    expect(ROLES.watcher.cluster).toEqual(['monitor']);
    expect(ROLES.watcher.indices[0].privileges.some((p) => /manage|delete|write|all/.test(p))).toBe(false);
    // The operator is not a superuser: no security, no "all".
    expect([...ROLES.operator.cluster, ...ROLES.operator.indices[0].privileges].some((p) => /security|^all$/.test(p))).toBe(false);
  });

  it("a 403's reason becomes which privilege is missing, cluster and index forms", () => {
    const cluster = parseUnauthorized(
      'action [cluster:monitor/state] is unauthorized for user [w] with effective roles [shardeck_watcher_lite], this action is granted by the cluster privileges [monitor,manage,all]',
    );
    expect(cluster).toEqual({ action: 'cluster:monitor/state', user: 'w', scope: 'cluster', grantedBy: ['monitor', 'manage', 'all'] });
    expect(forbiddenSentence(cluster!)).toBe(
      'user w lacks the cluster privilege monitor (or manage, all) for cluster:monitor/state: see the watcher and operator roles in the README',
    );
    const index = parseUnauthorized(
      'action [indices:admin/settings/update] is unauthorized for user [w] with effective roles [watcher] on indices [a,b,c,d], this action is granted by the index privileges [manage,all]',
    );
    expect(index).toMatchObject({ scope: 'index', grantedBy: ['manage', 'all'], indices: ['a', 'b', 'c', 'd'] });
    expect(forbiddenSentence(index!)).toContain(
      'lacks the index privilege manage (or all) on a, b, c and 1 more for indices:admin/settings/update',
    );
    expect(parseUnauthorized('something else')).toBeUndefined();
  });

  it('names what _has_privileges says is missing, and the doctor turns it into one finding', () => {
    expect(hasPrivilegesBody(ROLES.watcher)).toEqual({
      cluster: ['monitor'],
      index: [{ names: ['*'], privileges: ['monitor', 'view_index_metadata', 'read'], allow_restricted_indices: false }],
    });
    const answer = {
      username: 'w',
      has_all_requested: false,
      cluster: { monitor: false },
      index: { '*': { monitor: true, view_index_metadata: true, read: false } },
    };
    expect(missingPrivileges(answer)).toEqual(['cluster monitor', 'index read on *']);
    const [f] = accessFindings({ user: 'w', missing: { watcher: ['cluster monitor'], operator: ['cluster monitor', 'cluster manage'] } });
    expect(f).toMatchObject({
      id: 'access.privileges',
      severity: 'warn',
      finding: 'user w lacks cluster monitor: some panes and inspect commands cannot read (and no change can be made)',
    });
    expect(f.evidence).toEqual(['watching needs cluster monitor', 'changes need cluster manage']);
    expect(accessFindings({ user: 'w', missing: { watcher: [], operator: ['cluster manage'] } })[0]).toMatchObject({
      severity: 'ok',
      finding: 'user w may watch every pane; the changes (wizards) need cluster manage',
    });
    expect(accessFindings(null)[0].finding).toMatch(/security off/);
  });
});

describe('a failure reported by a task (issue 41: a force merge refused to the watcher said "merge finished")', () => {
  it('names the missing privilege when it is one, else keeps the reason', async () => {
    const { failureSentence } = await import('../../src/domain/privileges');
    expect(
      failureSentence(
        'action [indices:admin/forcemerge] is unauthorized for user [smoke_watcher] with effective roles [smoke_watcher] on indices [smoke_v], this action is granted by the index privileges [maintenance,manage,all]',
      ),
    ).toBe(
      'user smoke_watcher lacks the index privilege maintenance (or manage, all) on smoke_v for indices:admin/forcemerge: see the watcher and operator roles in the README',
    );
    expect(failureSentence('shard failure: no space left on device')).toBe('shard failure: no space left on device');
  });
});
