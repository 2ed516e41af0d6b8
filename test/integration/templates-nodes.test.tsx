// Templates, nodes and the component template that disables a field, against a real 8.19 node:
// composed templates created here (service_v9 and service_v9_filter, components that set shards and
// replicas), `shardeck templates`, `shardeck nodes`, `shardeck component-template put` (bad input,
// dry run, decline, read-only refused, --yes then verified on a new index), and the Templates and
// Nodes panes with the real poller at 80x24, the wizard (X) sending through a real Guard.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/cluster/connection';
import { createEsApi } from '../../src/cluster/api';
import { readAudit } from '../../src/services/audit';
import { keysOf } from '../../src/keys/keymap';
import { Guard } from '../../src/services/guard';
import { Poller } from '../../src/services/poller';
import { createWizardServices } from '../../src/services/wizards';
import { createConsoleStore } from '../../src/store/console';
import { auditLinesIn, cliAgainst, esCall } from '../helpers/real-node';
import { ensureBuilt } from '../helpers/run-cli';
import { sharedNode, type SharedNode } from '../helpers/shared-node';
import { expectFits, until, wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, KEYS, renderApp } from '../ui/harness';

let node: SharedNode;
let dir: string;
const es = (method: string, p: string, body?: unknown) => esCall(node.url, method, p, body);
const cli = cliAgainst(
  () => node.url,
  () => dir,
);
const composedOf = async (t = 'service_v9') =>
  (await es('GET', `/_index_template/${t}`)).body.index_templates[0].index_template.composed_of;

beforeAll(async () => {
  ensureBuilt();
  node = await sharedNode();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-tplnodes-'));
  const ok = async (p: string, body: unknown) => expect((await es('PUT', p, body)).status, p).toBe(200);
  await ok('/_component_template/t_mappings', {
    template: { mappings: { properties: { title: { type: 'text' }, modified_at: { type: 'date' } } } },
  });
  await ok('/_component_template/t_settings', { template: { settings: { number_of_shards: 3, number_of_replicas: 1 } } });
  // service_v9: shards and replicas from its own settings; service_v9_filter: shards from a component, replicas its own.
  await ok('/_index_template/service_v9', {
    index_patterns: ['service_v9_*'],
    composed_of: ['t_mappings'],
    template: { settings: { number_of_shards: 6, number_of_replicas: 0 } },
    priority: 100,
  });
  await ok('/_index_template/service_v9_filter', {
    index_patterns: ['service_v9_filter_*'],
    composed_of: ['t_mappings', 't_settings'],
    template: { settings: { number_of_replicas: 0 } },
    priority: 200,
  });
  await ok('/_index_template/other_logs', { index_patterns: ['other-*'], composed_of: ['t_settings'] });
}, 240_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('shardeck templates', () => {
  it('lists what composes what and the shards/replicas a new index gets, as Elasticsearch itself resolves them', async () => {
    const r = await cli(['templates', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const byName = Object.fromEntries(out.indexTemplates.map((t: any) => [t.name, t]));
    expect(byName.service_v9).toMatchObject({ composedOf: ['t_mappings'], shards: 6, replicas: 0, platform: true });
    expect(byName.service_v9_filter).toMatchObject({
      composedOf: ['t_mappings', 't_settings'],
      shards: 3,
      shardsFrom: 'component t_settings',
      replicas: 0,
      replicasFrom: 'the template',
    });
    expect(byName.other_logs).toMatchObject({ shards: 3, replicas: 1, platform: false });
    expect(out.componentTemplates.find((c: any) => c.name === 't_settings').usedBy.sort()).toEqual(['other_logs', 'service_v9_filter']);
    // What the domain computes is what Elasticsearch would do: its own simulation agrees.
    for (const name of ['service_v9', 'service_v9_filter', 'other_logs']) {
      const sim = (await es('POST', `/_index_template/_simulate/${name}`)).body.template.settings.index;
      expect([Number(sim.number_of_shards ?? 1), Number(sim.number_of_replicas ?? 1)], name).toEqual([
        byName[name].shards,
        byName[name].replicas,
      ]);
    }
    expect(out.platformSettings.value).toEqual({
      service_v9: { number_of_shards: 6, number_of_replicas: 0, additional_components: ['t_mappings'] },
      service_v9_filter: { number_of_shards: 3, number_of_replicas: 0, additional_components: ['t_mappings', 't_settings'] },
    });
  });

  it('--platform-json prints the value alone (valid JSON); one template by name; unknown name exit 5; bad name exit 64', async () => {
    const p = await cli(['templates', '--platform-json']);
    expect(p.code).toBe(0);
    expect(Object.keys(JSON.parse(p.stdout))).toEqual(['service_v9', 'service_v9_filter']);
    const one = await cli(['templates', 'service_v9_filter']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('new index: 3 shards (from component t_settings), 0 replicas (from the template)');
    expect(one.stdout).toContain('"composed_of"');
    const text = await cli(['templates']);
    expect(text.stdout).toMatch(/service_v9_filter \[service_v9_filter_\*\] <- t_mappings \+ t_settings: 3 shards \/ 0 replicas/);
    const missing = await cli(['templates', 'nope']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(
      /no index or component template named "nope": the index templates are other_logs, service_v9, service_v9_filter/,
    );
    const bad = await cli(['templates', 'a,b']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/not a template name/);
  });

  it('an unreachable node is exit 3', async () => {
    const r = await cli(['templates', '--url', 'http://127.0.0.1:9', '--json']);
    expect(r.code).toBe(3);
  });
});

describe('shardeck nodes', () => {
  it('heap with Xms/Xmx from the JVM arguments, GC, fielddata, RAM, load, CPU and the data path, as the node reports them', async () => {
    const r = await cli(['nodes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const [n] = JSON.parse(r.stdout).nodes;
    const raw = Object.values((await es('GET', '/_nodes/stats/jvm,fs')).body.nodes)[0] as any;
    expect(n.name).toBe(raw.name);
    // The test node runs with a 512 MB heap (dev/lib/es-node.mjs).
    expect(n.heap).toMatchObject({ maxBytes: 512 * 1024 ** 2, xms: '-Xms512m', xmx: '-Xmx512m', xmsBytes: 512 * 1024 ** 2 });
    expect(n.gc.map((c: any) => c.name).sort()).toEqual(Object.keys(raw.jvm.gc.collectors).sort());
    expect(n.dataPaths.map((d: any) => d.path)).toEqual(raw.fs.data.map((d: any) => d.path));
    expect(n.ram.totalBytes).toBeGreaterThan(0);
    expect(n.fielddata).toEqual({ bytes: expect.any(Number), evictions: expect.any(Number) });
    const text = await cli(['nodes']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('-Xms512m = -Xmx512m');
    expect(text.stdout).toMatch(/data \d+% used, .* free of .*: .*\/data/);
    expect((await cli(['nodes', 'extra'])).code).toBe(64);
  });
});

describe('shardeck component-template put', () => {
  const NAME = 'service_v9_no_body';
  const exists = async () => (await es('GET', `/_component_template/${NAME}`)).status === 200;

  it('bad input: one sentence, exit 64, nothing sent', async () => {
    for (const [args, re] of [
      [['component-template', 'put', NAME], /--disable-field FIELD/],
      [['component-template', 'put', NAME, '--disable-field', 'body', '--type', 'text'], /enabled:false only on object/],
      [['component-template', 'put', 'Bad', '--disable-field', 'body'], /capitals/],
      [['component-template', 'add', NAME], /shardeck component-template put/],
    ] as const) {
      const r = await cli([...args]);
      expect(r.code, r.stderr).toBe(64);
      expect(r.stderr).toMatch(re);
    }
    const missingTemplate = await cli(['component-template', 'put', NAME, '--disable-field', 'body', '--template', 'service_v8', '--yes']);
    expect(missingTemplate.code).toBe(5);
    expect(missingTemplate.stderr).toMatch(
      /index template "service_v8" does not exist: give one of other_logs, service_v9, service_v9_filter/,
    );
    expect(await exists()).toBe(false);
    expect(auditLinesIn(dir)).toEqual([]);
  });

  it('--dry-run shows both requests and the platform value; declined (no terminal) and read-only send nothing', async () => {
    const dry = await cli(['component-template', 'put', NAME, '--disable-field', 'body', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const out = JSON.parse(dry.stdout);
    expect(out.requests.map((r: any) => `${r.method} ${r.path}`)).toEqual([
      `PUT /_component_template/${NAME}`,
      'PUT /_index_template/service_v9',
    ]);
    expect(out.requests[0].body).toEqual({ template: { mappings: { properties: { body: { type: 'object', enabled: false } } } } });
    expect(out.requests[1].body.composed_of).toEqual(['t_mappings', NAME]);
    expect(out.platformSettings.value.service_v9.additional_components).toEqual(['t_mappings', NAME]);
    expect(out.requests[0].curl).toContain(`curl -X PUT '${node.url}/_component_template/${NAME}'`);
    const declined = await cli(['component-template', 'put', NAME, '--disable-field', 'body']);
    expect(declined.code).toBe(5);
    expect(declined.stderr).toMatch(/no terminal to confirm on.*nothing was sent/);
    const ro = await cli(['component-template', 'put', NAME, '--disable-field', 'body', '--yes', '--read-only']);
    expect(ro.code).toBe(4);
    expect(ro.stderr).toMatch(/read-only mode.*nothing was sent/);
    expect(await exists()).toBe(false);
    expect(await composedOf()).toEqual(['t_mappings']);
    expect(auditLinesIn(dir)).toEqual([]);
  });

  it('--yes: the component, then the template with only composed_of changed; verified; a new index does not index the field', async () => {
    const before = (await es('GET', '/_index_template/service_v9')).body.index_templates[0].index_template;
    const r = await cli(['component-template', 'put', NAME, '--disable-field', 'body', '--yes']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`ok: create component template ${NAME}`);
    expect(r.stdout).toContain(`index template service_v9 is composed of t_mappings + ${NAME}`);
    expect(r.stdout).toContain('ok: a new index from service_v9 maps body as object with enabled: false');
    const value = JSON.parse(
      r.stdout.slice(r.stdout.indexOf('{', r.stdout.lastIndexOf('set topic.elasticsearch.index-templates-settings to this'))),
    );
    expect(value.service_v9.additional_components).toEqual(['t_mappings', NAME]);
    const after = (await es('GET', '/_index_template/service_v9')).body.index_templates[0].index_template;
    expect(after).toEqual({ ...before, composed_of: ['t_mappings', NAME] });
    expect(auditLinesIn(dir).filter((l) => l.includes('"phase":"sending"') || l.includes('"request"'))).not.toHaveLength(0);
    // The real proof: an index created from the template now.
    expect((await es('PUT', '/service_v9_newproj', {})).status).toBe(200);
    const mapping = (await es('GET', '/service_v9_newproj/_mapping')).body.service_v9_newproj.mappings.properties;
    expect(mapping.body).toEqual({ type: 'object', enabled: false });
    expect((await es('PUT', '/service_v9_newproj/_doc/1?refresh=true', { title: 'x', body: { any: ['thing', 1] } })).status).toBe(201);
    expect((await es('POST', '/service_v9_newproj/_count', { query: { term: { 'body.any': 'thing' } } })).body.count).toBe(0);
    expect((await es('GET', '/service_v9_newproj/_doc/1')).body._source.body).toEqual({ any: ['thing', 1] });
    // Again: the template already has it; only the component is put (replaced).
    const again = await cli(['component-template', 'put', NAME, '--disable-field', 'body', '--dry-run', '--json']);
    const o = JSON.parse(again.stdout);
    expect(o.requests).toHaveLength(1);
    expect(o.warnings[0]).toMatch(/exists and is replaced whole \(used by service_v9\)/);
  });
});

describe('panes on the real node (80x24, real poller)', () => {
  failOnConsoleError();

  it('Templates pane: rows, details, P platform JSON, c curl; X disables a field through the Guard', async () => {
    const client = createClient({ url: node.url });
    const auditFile = path.join(dir, 'ui-audit.log');
    const guard = new Guard({ client, conn: { url: node.url, readOnly: false }, profile: 'ui', auditFile });
    const api = createEsApi(client, node.url);
    const store = createConsoleStore({
      connection: { url: node.url, profile: 'ui', insecure: false, readOnly: false },
      intervalMs: 300,
      pane: 'templates',
    });
    const poller = new Poller(api, store);
    poller.start();
    const app = await renderApp(store, {
      columns: 80,
      rows: 24,
      wizards: wizardsWith(['componentTemplate'], createWizardServices(api, guard)),
    });
    try {
      let f = await until(app, /service_v9_filter/);
      expectFits(f);
      const components = (await es('GET', '/_component_template')).body.component_templates.length;
      expect(f).toMatch(new RegExp(`Templates {2}3 index · ${components} component`));
      expect(f).toMatch(/index +other_logs +<- t_settings +3 +1/);
      await app.press(KEYS.down); // service_v9
      f = await until(app, /index template service_v9 \(platform\): patterns service_v9_\*/);
      expect(f).toContain('new index: 6 shards (from the template), 0 replicas (from the template)');
      await app.press('P');
      f = await until(app, /index-templates-settings \(from the live templates\)/);
      // Wrapped at 80 columns: compared without the white space.
      expect(f.replace(/\s+/g, '')).toContain(
        `"service_v9":{"number_of_shards":6,"number_of_replicas":0,"additional_components":${JSON.stringify(await composedOf())}}`,
      );
      expectFits(f);
      await app.press('P');
      await app.press('c');
      f = await until(app, /curl -X GET/);
      expect(f).toContain(`curl -X GET '${node.url}/_index_template'`);
      expect(f).toContain(`curl -X GET '${node.url}/_index_template/service_v9'`);
      await app.press('c');

      // X on service_v9_filter: the form opens with it, nothing is sent before y.
      await app.press(KEYS.down);
      await until(app, /index template service_v9_filter/);
      await app.press('X');
      f = await until(app, /component name/);
      expect(f).toMatch(/index template +service_v9_filter/);
      await app.type('filter_no_raw');
      await app.press(KEYS.tab);
      await app.type('raw');
      await app.press(KEYS.enter);
      f = await until(app, /y send/);
      expect(f.replace(/\n│ /g, '')).toContain('PUT /_component_template/filter_no_raw');
      expect(f).toContain('PUT /_index_template/service_v9_filter');
      expect(readAudit(auditFile).records).toEqual([]);
      await app.press('y');
      f = await until(app, /a new index from service_v9_filter maps raw as object with enabled: false/, 30_000);
      expect(f.replace(/\s+/g, '')).toContain('"additional_components":["t_mappings","t_settings","filter_no_raw"]');
      expect(readAudit(auditFile).records).toHaveLength(2);
      expect(await composedOf('service_v9_filter')).toEqual(['t_mappings', 't_settings', 'filter_no_raw']);
      await app.press(' ');
      // The pane follows: the new component, used by service_v9_filter.
      await until(app, /comp +filter_no_raw +-> service_v9_filter/);
    } finally {
      app.unmount();
      poller.stop();
    }
  }, 90_000);

  it("Nodes pane: heap bar, Xms/Xmx, GC, CPU, load at 80 columns; the node's statistics under the table; sort by disk; c curl", async () => {
    const api = createEsApi(createClient({ url: node.url }), node.url);
    const store = createConsoleStore({
      connection: { url: node.url, profile: 'ui', insecure: false, readOnly: false },
      intervalMs: 300,
      pane: 'nodes',
    });
    const poller = new Poller(api, store);
    poller.start();
    const app = await renderApp(store, { columns: 80, rows: 24 });
    try {
      // Two reads fill the pane (the node list, then its statistics): wait for both, not the first.
      let f = await until(app, /-Xms512m = -Xmx512m[\s\S]*RAM [\d.]+[mg]b used of/);
      expectFits(f);
      expect(f).toMatch(/node↑ +heap% heap +used\/max +Xms\/Xmx +gc +cpu +load/);
      expect(f).toMatch(new RegExp(`\\*${node.name}\\S* +\\d+% [█·]{10} +[\\d.]+mb/512mb +512m/512m +\\d+ [\\d.]+m?s +\\d+% +[\\d.]+`));
      expect(f).toMatch(/gc (young|old) \d+/);
      expect(f).toMatch(/RAM [\d.]+[mg]b used of [\d.]+gb · load/);
      expect(f).toMatch(/data \d+% used, [\d.]+[kmgt]?b free of [\d.]+[kmgt]?b: \//);
      await app.resize(120, 40);
      f = await until(app, /fielddata +RAM +max\/RAM/);
      for (let i = 0; i < 6; i++) await app.press(keysOf('table.sort')[0]);
      f = await until(app, /disk↑/);
      await app.press('c');
      f = await until(app, /curl -X GET/);
      // Each request on rows of its own (a wrapped one was drawn over the next); the long statistics
      // line has no room whole under the table at 120x40: it is named, never shown half (issue 47 item 7).
      expect(f).toMatch(/^curl -X GET '[^']*\/_nodes\/jvm\?filter_path=nodes\.\*\.name%2Cnodes\.\*\.jvm\.input_arguments' *$/m);
      expect(f).toContain('(1 more line: a taller terminal shows it)');
      expect(f).not.toContain('/_nodes/stats/jvm,os,fs');
    } finally {
      app.unmount();
      poller.stop();
    }
  }, 60_000);
});
