// The two documented roles (docs/roles/watcher.json, operator.json) on the secured node (TLS with
// our own CA, passwords), through the built CLI: the watcher reads and changes nothing, a refused
// change says which privilege is missing (no raw 403), the operator's changes work, and
// `shardeck doctor` names what a user lacks. The console's panes per role: npm run test:versions -- --roles.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFileRealmUser, startNode } from '../../dev/lib/es-node.mjs';
import { waitUntil } from '../helpers/wait-until';
import { ensureBuilt, runCli } from '../helpers/run-cli';

const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-roles-'));
const INDEX = 'roles_idx';
let node: Awaited<ReturnType<typeof startNode>>;
const passwords: Record<string, string> = {};

/** One request as elastic (the set-up only). */
function admin(method: string, p: string, body?: unknown): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL(node.url + p),
      { method, ca: fs.readFileSync(node.ca!), auth: `elastic:${node.password}`, headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () =>
          res.statusCode! >= 300 ? reject(new Error(`${method} ${p}: ${res.statusCode} ${text}`)) : resolve(JSON.parse(text || '{}')),
        );
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The CLI as `user`, the password only in the environment. */
function as(user: string, args: string[]) {
  return runCli([...args, '--url', node.url, '--ca', node.ca!, '--user', user, '--password-env', 'ROLES_TEST_PW'], {
    env: { SHARDECK_CONFIG_DIR: configDir, ROLES_TEST_PW: passwords[user] },
  });
}

beforeAll(async () => {
  ensureBuilt();
  node = await startNode({ name: 'roles', secure: true });
  const role = (name: string) => JSON.parse(fs.readFileSync(path.resolve('docs/roles', `${name}.json`), 'utf8'));
  const roles: Record<string, Record<string, unknown>> = {
    w: { shardeck_watcher: role('watcher') },
    o: { shardeck_operator: role('operator') },
    // Index rights only, no cluster monitor: what the issue feared ("not tried yet").
    n: { index_only: { cluster: [], indices: [{ names: ['*'], privileges: ['read', 'view_index_metadata'] }] } },
  };
  for (const user of Object.keys(roles)) {
    passwords[user] = `pw-${user}-${Math.random().toString(36).slice(2, 10)}`;
    addFileRealmUser(node, { user, password: passwords[user], roles: roles[user] });
  }
  // The node reads the file realm again within seconds: each user authenticates once it has.
  for (const user of Object.keys(roles))
    await waitUntil(
      `user ${user} known to the node`,
      () => as(user, ['status', '--json']),
      (r) => !r.stdout.includes('"unauthorized"'),
      { timeoutMs: 30_000, intervalMs: 1000 },
    );
  await admin('PUT', `/${INDEX}`, { settings: { number_of_shards: 1, number_of_replicas: 1 } });
  await admin('POST', `/${INDEX}/_doc/1?refresh=true`, { modified_at: '2020-01-01T00:00:00Z' });
}, 300_000);

afterAll(async () => {
  await node?.stop();
  fs.rmSync(configDir, { recursive: true, force: true });
});

describe('the watcher role', () => {
  it('reads: status, the inspect commands; doctor says it may watch every pane and what changes would need', async () => {
    const status = await as('w', ['status', '--json']);
    expect(status.code).toBe(1); // yellow: the replica of one node
    expect(JSON.parse(status.stdout)).toMatchObject({ reachable: true, status: 'yellow' });
    for (const args of [
      ['templates'],
      ['nodes'],
      ['mappings', INDEX],
      ['settings', INDEX],
      ['stats', INDEX],
      ['cat', 'indices'],
      ['get', INDEX, '1'],
      ['explain'],
      ['tasks'],
    ]) {
      const r = await as('w', args);
      expect({ args, code: r.code, err: r.stderr }).toMatchObject({ code: 0 });
    }
    const doctor = await as('w', ['doctor', '--json']);
    const report = JSON.parse(doctor.stdout);
    const access = report.findings.find((f: { id: string }) => f.id === 'access.privileges');
    expect(access).toMatchObject({
      severity: 'ok',
      finding: 'user w may watch every pane; the changes (wizards) need cluster manage, index delete on *, index manage on *',
    });
  });

  it('a change is refused with the privilege it lacks, in one sentence, not a raw 403', async () => {
    const r = await as('w', ['replicas', 'set', INDEX, '0', '--yes', '--timeout', '30']);
    expect(r.code).not.toBe(0);
    const out = `${r.stdout}${r.stderr}`;
    expect(out).toContain('lacks the index privilege manage');
    expect(out).not.toMatch(/security_exception|is unauthorized for user/);
    expect(out).not.toContain(passwords.w);
  });
});

describe('a user with index rights only (no cluster monitor)', () => {
  it('status says which privilege is missing; doctor names every privilege the user lacks', async () => {
    const status = await as('n', ['status', '--json']);
    expect(status.code).toBe(3);
    expect(JSON.parse(status.stdout).error).toMatchObject({
      kind: 'forbidden',
      message: expect.stringContaining('lacks the cluster privilege monitor'),
    });
    const doctor = await as('n', ['doctor']);
    expect(doctor.code).toBe(3);
    expect(doctor.stdout).toMatch(/^REFUSED user n lacks the cluster privilege monitor/);
    expect(doctor.stdout).toContain('user n lacks, to watch: cluster monitor, index monitor on *; to change: ');
  });
});

describe('the operator role', () => {
  it('every wizard works: replicas (index and template), forcemerge, scroll limit, reroute, component template; doctor finds nothing missing', async () => {
    await admin('PUT', '/_index_template/roles_tpl', { index_patterns: ['roles_*'], template: { settings: { number_of_replicas: 1 } } });
    const steps = [
      ['replicas', 'set', INDEX, '0', '--template', 'roles_tpl', '--yes', '--timeout', '60'],
      ['forcemerge', INDEX, '--expunge-deletes', '--yes'],
      ['scroll-limit', '600', '--yes'],
      ['reroute', '--retry-failed', '--yes'],
      ['component-template', 'put', 'roles_off', '--disable-field', 'body', '--template', 'roles_tpl', '--yes'],
      ['unblock', '--dry-run'],
      ['delete-by-query', INDEX, '--older-than', '365d', '--dry-run'],
    ];
    for (const args of steps) {
      const r = await as('o', args);
      expect({ args, code: r.code, out: `${r.stdout}${r.stderr}`.slice(-400) }).toMatchObject({ code: 0 });
    }
    expect((await admin('GET', `/${INDEX}/_settings/index.number_of_replicas`))[INDEX].settings.index.number_of_replicas).toBe('0');
    const doctor = JSON.parse((await as('o', ['doctor', '--json'])).stdout);
    expect(doctor.findings.find((f: { id: string }) => f.id === 'access.privileges')).toMatchObject({
      severity: 'ok',
      finding: 'user o has every privilege the console and its changes need',
    });
  });
});
