// A label and a colour per profile (issue 44 item 3) on a real node: saved and listed, at the start
// of every CLI preview and confirmation, and, on a profile marked production, a change that loses
// data sent only with the cluster's name as the node gives it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { auditLinesIn, esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let cfg: string;
const INDEX = `label_docs_${process.pid}`;
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { env: { SHARDECK_CONFIG_DIR: cfg, ...env } });
const count = async () => (await esCall(node.url, 'GET', `/${INDEX}/_count`)).body.count as number;

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-label-'));
  expect((await esCall(node.url, 'PUT', `/${INDEX}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } })).status).toBe(200);
  for (let i = 0; i < 3; i++) await esCall(node.url, 'PUT', `/${INDEX}/_doc/${i}?refresh=true`, { n: i });
  fs.writeFileSync(path.join(cfg, 'all.json'), JSON.stringify({ query: { match_all: {} } }));
});

afterAll(() => {
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

describe('profiles save --label --color --production', () => {
  it('saves and lists the label; a bad label or colour is a usage error naming the flag, and nothing is saved', async () => {
    const saved = await cli(['profiles', 'save', 'stage', '--url', node.url, '--label', 'STAGE', '--color', 'yellow']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).toContain('saved profile "stage" [STAGE]');
    const bad = await cli(['profiles', 'save', 'other', '--url', node.url, '--color', 'pink']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('--color "pink" is not one of red, yellow, green, blue, magenta, cyan');
    const badLabel = await cli(['profiles', 'save', 'other', '--url', node.url, '--label', 'TOO LONG A LABEL']);
    expect(badLabel.code).toBe(64);
    expect(badLabel.stderr).toContain('--label "TOO LONG A LABEL" is not a label');
    const list = await cli(['profiles']);
    expect(list.stdout).toMatch(/^\s+LABEL\s+NAME\s+STORAGE/m);
    expect(list.stdout).toMatch(/\* \[STAGE\]\s+stage\s+http:/);
    expect(list.stdout).not.toMatch(/other/);
    const json = JSON.parse((await cli(['profiles', '--json'])).stdout);
    expect(json).toEqual([expect.objectContaining({ name: 'stage', label: 'STAGE', color: 'yellow' })]);
  });

  it('every preview and the confirmation start with the label: plain under NO_COLOR, in its colour otherwise', async () => {
    const plain = await cli(['replicas', 'set', INDEX, '1', '--profile', 'stage', '--dry-run']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/^\[STAGE\] set number_of_replicas to 1 on 1 index/m);
    // eslint-disable-next-line no-control-regex -- no escape sequence at all under NO_COLOR
    expect(plain.stdout).not.toMatch(/\u001b\[/);
    const coloured = await cli(['replicas', 'set', INDEX, '1', '--profile', 'stage', '--dry-run'], { NO_COLOR: '', FORCE_COLOR: '1' });
    // eslint-disable-next-line no-control-regex -- the label painted yellow (SGR 33)
    expect(coloured.stdout).toMatch(/^\u001b\[33m\[STAGE\]\u001b\[39m\u001b\[1m set number_of_replicas/m);
    // --json carries it for scripts, with the preview it belongs to.
    const json = JSON.parse((await cli(['replicas', 'set', INDEX, '1', '--profile', 'stage', '--dry-run', '--json'])).stdout);
    expect(json.requests[0].badge).toEqual({ label: 'STAGE', colour: 'yellow', production: false });
    // A --url of its own (no --profile) may be another cluster: no label claims it.
    const other = await cli(['replicas', 'set', INDEX, '1', '--url', node.url, '--dry-run']);
    expect(other.stdout).not.toContain('[STAGE]');
  });

  it('production: data loss needs the cluster name the node gives (not given, or wrong: refused, nothing sent); a reversible change does not', async () => {
    const saved = await cli(['profiles', 'save', 'prod', '--url', node.url, '--production']);
    expect(saved.stdout).toContain('saved profile "prod" [PROD] (production)');
    const del = ['delete-by-query', INDEX, '--query-file', path.join(cfg, 'all.json'), '--expect', '3', '--yes', '--profile', 'prod'];
    const before = auditLinesIn(cfg).length;

    const missing = await cli(del);
    expect(missing.code, missing.stdout).toBe(5);
    // Each request of the change starts with the label.
    expect(missing.stdout).toMatch(/^\[PROD\] delete at most 3 documents of /m);
    expect(missing.stdout).toMatch(/^\[PROD\] refresh /m);
    expect(missing.stderr).toContain(`[PROD] is a production profile: the cluster's name "${node.clusterName}" was not given`);
    expect(missing.stderr).toContain('nothing was sent');
    const wrong = await cli([...del, '--cluster-name', 'staging-cluster']);
    expect(wrong.code).toBe(5);
    expect(wrong.stderr).toContain('was not typed exactly');
    expect(await count()).toBe(3);
    // Refused before the audit's "sending" record: nothing was sent, nothing recorded.
    expect(auditLinesIn(cfg).length).toBe(before);

    const reversible = await cli(['replicas', 'set', INDEX, '0', '--profile', 'prod', '--yes', '--json']);
    expect(reversible.code, reversible.stderr).toBe(0);

    const right = await cli([...del, '--cluster-name', node.clusterName, '--json']);
    expect(right.code, right.stderr).toBe(0);
    await esCall(node.url, 'POST', `/${INDEX}/_refresh`);
    expect(await count()).toBe(0);

    // --no-production takes the mark away (the label PROD with it: it was only the default).
    const unmarked = await cli(['profiles', 'save', 'prod', '--no-production']);
    expect(unmarked.stdout).toMatch(/saved profile "prod" \(/);
  });
});
