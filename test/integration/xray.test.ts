// shardeck xray INDEX on a real node (issue 44 item 5): the tree from the index to its project,
// the index template and the component templates that set its settings and mappings, aliases,
// shards with nodes and disks, the snapshots holding it, the tasks running on it and the audit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;
let cfg: string;
const P = `xray${process.pid}`;
const INDEX = `service_v9_${P}`;
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const cli = (args: string[]) => runCli([args[0], '--url', node.url, ...args.slice(1)], { env: { SHARDECK_CONFIG_DIR: cfg } });

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-xray-'));
  const ok = (r: { status: number; body: unknown }) => expect(r.status, JSON.stringify(r.body)).toBe(200);
  ok(
    await es('PUT', `/_component_template/${P}_settings`, {
      template: { settings: { index: { refresh_interval: '5s' } }, mappings: { properties: { title: { type: 'keyword' } } } },
    }),
  );
  ok(await es('PUT', `/_component_template/${P}_other`, { template: {}, _meta: { why: 'a component that sets nothing' } }));
  ok(
    await es('PUT', `/_index_template/${P}_tpl`, {
      index_patterns: [`service_v9_${P}*`],
      priority: 500,
      composed_of: [`${P}_settings`, `${P}_other`],
      template: { settings: { number_of_shards: 2, number_of_replicas: 0 }, aliases: { [`${P}_alias`]: { is_write_index: true } } },
    }),
  );
  ok(await es('PUT', `/${INDEX}`));
  for (let i = 0; i < 20; i++) await es('PUT', `/${INDEX}/_doc/${i}`, { title: `t${i}`, n: i });
  await es('POST', `/${INDEX}/_refresh`);
  // Changed after it was created: the tree says the index differs from its component.
  ok(await es('PUT', `/${INDEX}/_settings`, { index: { refresh_interval: '10s' } }));
  ok(await es('PUT', `/_snapshot/${P}_repo`, { type: 'fs', settings: { location: path.join(node.repoDir, P) } }));
  ok(await es('PUT', `/_snapshot/${P}_repo/${P}_snap?wait_for_completion=true`, { indices: INDEX }));
  // A change through shardeck: in the audit log of this config dir.
  const changed = await cli(['replicas', 'set', INDEX, '0', '--yes', '--json']);
  expect(changed.code, changed.stderr).toBe(0);
  // A task running on it: a by-query delete throttled to one document a second.
  const task = await es(
    'POST',
    `/${INDEX}/_delete_by_query?wait_for_completion=false&requests_per_second=1&scroll_size=1&conflicts=proceed`,
    {
      query: { match_all: {} },
    },
  );
  ok(task);
}, 120_000);

afterAll(async () => {
  const tasks = await es('GET', '/_tasks?actions=*byquery&detailed=true');
  for (const n of Object.values((tasks.body.nodes ?? {}) as Record<string, { tasks: Record<string, unknown> }>))
    for (const id of Object.keys(n.tasks)) await es('POST', `/_tasks/${id}/_cancel`);
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
});

describe('shardeck xray', () => {
  it('draws the index and everything that touches it, each branch from the real node', async () => {
    const r = await cli(['xray', INDEX]);
    expect(r.code, r.stderr).toBe(0);
    const text = r.stdout;
    const lines = text.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${INDEX}  green open · 2 shards, 0 replicas · \\d+ docs · `));
    expect(text).toContain(`├ project ${P}\n`);
    expect(text).toContain(`├ index template ${P}_tpl (service_v9_${P}*, priority 500)`);
    expect(text).toMatch(
      new RegExp(
        `│ ├ component ${P}_settings: sets index.refresh_interval=5s · maps title\\n│ │ └ index.refresh_interval is 10s on the index \\(changed since it was created\\)`,
      ),
    );
    expect(text).toContain(`│ ├ component ${P}_other: sets nothing this index has`);
    expect(text).toMatch(/│ └ its own template block: sets index\.number_of_shards=2, index\.number_of_replicas=0/);
    expect(text).toContain(`├ aliases: 1\n│ └ ${P}_alias (write index)`);
    expect(text).toContain('├ shards: 2, all started');
    expect(text).toMatch(new RegExp(`│ ├ 0 primary STARTED on ${node.name} [\\d.]+[kmg]?b · its disk \\d+% used, [\\d.]+[kmgt]?b free`));
    expect(text).toContain(`├ snapshots holding it: 1\n│ └ ${P}_repo/${P}_snap SUCCESS `);
    // The by-query delete and its search child.
    expect(text).toMatch(/├ tasks on it: \d+\n(│ [├└] .*\n)*│ [├└] \S+:\d+ indices:data\/write\/delete\/byquery running /);
    expect(text).toMatch(
      new RegExp(
        `└ shardeck's changes to it \\(audit log\\): 1\\n  └ \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d set number_of_replicas to 0 on 1 index: ${INDEX} · ok`,
      ),
    );
  });

  it('--json gives the tree and the facts; a missing index or a pattern is a usage error', async () => {
    const r = await cli(['xray', INDEX, '--json']);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ ok: true, index: INDEX, tree: { tone: 'green' } });
    expect(body.facts.aliases).toEqual([{ name: `${P}_alias`, write: true }]);
    const missing = await cli(['xray', `${INDEX}_nope`]);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain(`no index named "${INDEX}_nope"`);
    const pattern = await cli(['xray', 'service_v9_*']);
    expect(pattern.code).toBe(64);
    expect(pattern.stderr).toContain('is a pattern: give one index by its name');
  });
});
