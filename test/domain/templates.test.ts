// Templates, pure: what composes what, shards/replicas a new index gets, the platform's
// index-templates-settings value, and the component-template wizard's checks and plans; on the
// templates recorded from a real 8.19 node (test/fixtures/yellow) and variations of them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkComponentName,
  checkFieldName,
  checkFieldType,
  componentTemplatePlan,
  composeTemplatePlan,
  parseTemplates,
  platformJsonLines,
  platformTemplatesSettings,
  templateOfIndex,
  templateWithComponent,
} from '../../src/domain/templates';
import { buildComponentReview, checkNewIndexMapping, componentMachine } from '../../src/domain/wizards/component-template';
import { platformTemplateSettings } from '../../src/domain/wizards/replicas';
import { templateDetails, templateLines, TEMPLATE_COLUMNS } from '../../src/domain/panes/templates';

const FIX = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures', 'yellow');
const raw = (f: string) => JSON.parse(fs.readFileSync(path.join(FIX, `${f}.json`), 'utf8'));
const view = parseTemplates(raw('indexTemplates'), raw('componentTemplates'));

describe('templates view', () => {
  it('joins index templates with their components, both ways', () => {
    expect(view.index.map((t) => [t.name, t.composedOf])).toEqual([
      ['service_v9', ['service_v9_mappings']],
      ['service_v9_filter', ['service_v9_mappings', 'service_v9_filter_settings', 'service_v9_no_body']],
    ]);
    expect(view.components.find((c) => c.name === 'service_v9_mappings')!.usedBy.sort()).toEqual(['service_v9', 'service_v9_filter']);
    expect(view.components.find((c) => c.name === 'service_v9_no_body')!.fields).toEqual([
      { name: 'body', type: 'object', enabled: false },
    ]);
  });

  it("a new index gets the components' settings in order, then the template's own, then the defaults", () => {
    const v9 = view.index.find((t) => t.name === 'service_v9')!;
    expect(v9).toMatchObject({ shards: 6, replicas: 0, shardsFrom: 'the template', platform: true });
    const filter = view.index.find((t) => t.name === 'service_v9_filter')!;
    // shards from the component, replicas overridden by the template itself
    expect(filter).toMatchObject({
      shards: 2,
      shardsFrom: 'component service_v9_filter_settings',
      replicas: 0,
      replicasFrom: 'the template',
      platform: true,
    });
    const bare = parseTemplates(
      { index_templates: [{ name: 'logs_x', index_template: { index_patterns: ['logs-*'], composed_of: ['gone'] } }] },
      { component_templates: [] },
    );
    expect(bare.index[0]).toMatchObject({ shards: 1, replicas: 1, shardsFrom: 'the default', missing: ['gone'], platform: false });
  });

  it('the platform value: service_v9 and service_v9_filter alike, additional_components from composed_of, other templates left out', () => {
    const other = parseTemplates(
      { index_templates: [...raw('indexTemplates').index_templates, { name: 'metrics', index_template: { index_patterns: ['m-*'] } }] },
      raw('componentTemplates'),
    );
    expect(platformTemplatesSettings(other)).toEqual({
      service_v9: { number_of_shards: 6, number_of_replicas: 0, additional_components: ['service_v9_mappings'] },
      service_v9_filter: {
        number_of_shards: 2,
        number_of_replicas: 0,
        additional_components: ['service_v9_mappings', 'service_v9_filter_settings', 'service_v9_no_body'],
      },
    });
    const lines = platformJsonLines(platformTemplatesSettings(view));
    expect(JSON.parse(lines.join('\n'))).toEqual(platformTemplatesSettings(view));
  });

  it("the replicas wizard's platform value keeps the components the template is composed of", () => {
    const t = raw('indexTemplates').index_templates.find((x: any) => x.name === 'service_v9_filter').index_template;
    expect(platformTemplateSettings('service_v9_filter', t, 1).service_v9_filter).toMatchObject({
      number_of_replicas: 1,
      additional_components: ['service_v9_mappings', 'service_v9_filter_settings', 'service_v9_no_body'],
    });
  });

  it('finds the template of an index by pattern and priority', () => {
    expect(templateOfIndex(view, 'service_v9_filter_abc')?.name).toBe('service_v9_filter');
    expect(templateOfIndex(view, 'service_v9_abc')?.name).toBe('service_v9');
    expect(templateOfIndex(view, 'other')).toBeNull();
  });

  it('pane rows and details', () => {
    const rows = templateLines(view);
    expect(rows.map((r) => `${r.kind}:${r.name}`)).toEqual([
      'index:service_v9',
      'index:service_v9_filter',
      'component:service_v9_filter_settings',
      'component:service_v9_mappings',
      'component:service_v9_no_body',
    ]);
    expect(TEMPLATE_COLUMNS.map((c) => c.text(rows[1]))).toEqual([
      'index',
      'service_v9_filter',
      '<- service_v9_mappings + service_v9_filter_settings + service_v9_no_body',
      '2',
      '0',
    ]);
    expect(templateDetails(rows[4]).map((l) => l.text)).toEqual([
      'component template service_v9_no_body: used by service_v9_filter',
      'sets no shards or replicas · 1 top-level fields: body object enabled:false',
      'not indexed (enabled: false): body',
    ]);
  });
});

describe('component template that disables a field', () => {
  it('refuses bad names, fields and types with one sentence', () => {
    expect(checkComponentName('No_Body')).toMatch(/capitals.*no_body/);
    expect(checkComponentName('a b')).toMatch(/character Elasticsearch refuses/);
    expect(checkComponentName('_x')).toMatch(/starts with _/);
    expect(checkComponentName('service_v9_no_body')).toBeNull();
    expect(checkFieldName('')).toMatch(/--disable-field FIELD/);
    expect(checkFieldName('_source')).toMatch(/metadata/);
    expect(checkFieldName('a..b')).toMatch(/not a field name/);
    expect(checkFieldType('text')).toMatch(/enabled:false only on object/);
    expect(checkFieldType('object')).toBeNull();
  });

  it("the seed's body, and the template put back whole with only composed_of changed", () => {
    const p = componentTemplatePlan('no_body', 'body', 'object', false);
    expect(p).toMatchObject({
      method: 'PUT',
      path: '/_component_template/no_body',
      body: { template: { mappings: { properties: { body: { type: 'object', enabled: false } } } } },
    });
    const t = raw('indexTemplates').index_templates[0].index_template;
    const next = templateWithComponent(t, 'no_body');
    expect(next).toEqual({ ...t, composed_of: [...t.composed_of, 'no_body'] });
    expect(templateWithComponent(next, 'no_body').composed_of).toEqual(next.composed_of);
    const c = composeTemplatePlan('service_v9', t, 'no_body');
    expect(c.verify!.check({ index_templates: [{ name: 'service_v9', index_template: next }] }).ok).toBe(true);
    expect(c.verify!.check({ index_templates: [{ name: 'service_v9', index_template: t }] })).toMatchObject({ ok: false });
    expect(p.verify!.check({ component_templates: [{ name: 'no_body', component_template: p.body }] }).ok).toBe(true);
    expect(
      checkNewIndexMapping(
        { field: 'body', type: 'object', template: 'service_v9' },
        { properties: { body: { type: 'object', enabled: false } } },
      ).ok,
    ).toBe(true);
    expect(checkNewIndexMapping({ field: 'body', type: 'object', template: 'service_v9' }, { properties: {} }).ok).toBe(false);
  });

  it('the review: two requests, the platform value with the component; a missing template sends the operator back', () => {
    const form = { name: 'service_v9_no_body2', field: 'body', type: 'object', template: 'service_v9' };
    const t = raw('indexTemplates').index_templates[0].index_template;
    const r = buildComponentReview(form, { template: t, existing: null, view });
    if (!r.ok) throw new Error(r.error);
    expect(r.review.plans.map((p) => `${p.method} ${p.path}`)).toEqual([
      'PUT /_component_template/service_v9_no_body2',
      'PUT /_index_template/service_v9',
    ]);
    expect(r.review.platformJson.service_v9.additional_components).toEqual(['service_v9_mappings', 'service_v9_no_body2']);
    expect(r.review.platformJson.service_v9_filter).toBeDefined();
    const again = buildComponentReview(form, {
      template: { ...t, composed_of: [...t.composed_of, form.name] },
      existing: { template: {} },
      view,
    });
    expect(again.ok && again.review.plans).toHaveLength(1);
    expect(again.ok && again.review.warnings[0]).toMatch(/exists and is replaced whole/);
    expect(buildComponentReview({ ...form, template: 'nope' }, { template: null, existing: null, view })).toEqual({
      ok: false,
      error: 'index template "nope" does not exist: give one of service_v9, service_v9_filter with --template',
    });
  });

  it('the machine: form checked before anything is read; confirm sends both plans as one effect', () => {
    const m = componentMachine({ name: 'Bad Name', field: 'body' });
    let s = m.init().state;
    let step = m.step(s, { type: 'submit' });
    expect(step.effects).toEqual([]);
    expect(step.state).toMatchObject({ phase: 'input', error: expect.stringMatching(/capitals/) });
    s = m.step(step.state, { type: 'edit', field: 'name', value: 'good' }).state;
    step = m.step(s, { type: 'submit' });
    expect(step.effects).toEqual([{ type: 'inspect', form: { name: 'good', field: 'body', type: 'object', template: 'service_v9' } }]);
    const t = raw('indexTemplates').index_templates[0].index_template;
    s = m.step(step.state, { type: 'inspected', facts: { template: t, existing: null, view } }).state;
    expect(s.phase).toBe('review');
    step = m.step(s, { type: 'confirm', confirmation: { by: 'key' } });
    expect(step.effects[0]).toMatchObject({ type: 'apply' });
    expect(step.state.phase).toBe('applying');
  });

  it('the component wizard reads back: a missing component, a missing field, a field still indexed', () => {
    const p = componentTemplatePlan('no_body', 'body', 'object', true);
    expect(p.summary).toMatch(/^replace component template no_body/);
    expect(p.verify!.check({ component_templates: [] })).toEqual({
      ok: false,
      message: 'component template no_body reads back without body',
    });
    expect(p.verify!.check({ component_templates: [{ name: 'no_body', component_template: {} }] })).toMatchObject({ ok: false });
    const indexed = { template: { mappings: { properties: { body: { type: 'object' } } } } };
    expect(p.verify!.check({ component_templates: [{ name: 'no_body', component_template: indexed }] })).toEqual({
      ok: false,
      message: 'component template no_body reads back {"type":"object"}',
    });
  });
});

describe('templates view: where a value comes from', () => {
  it('names the component that set the shards, and a template without priority has none', () => {
    const v = parseTemplates(
      {
        index_templates: [
          { name: 't', index_template: { index_patterns: ['t-*'], composed_of: ['c1', 'c2'] } },
          { name: 'p', index_template: { index_patterns: ['p-*'], priority: 0 } },
        ],
      },
      {
        component_templates: [
          { name: 'c1', component_template: { template: { settings: { number_of_shards: 3 } } } },
          { name: 'c2', component_template: { template: { settings: { index: { number_of_replicas: 2 } } } } },
        ],
      },
    );
    expect(v.index.find((t) => t.name === 't')).toMatchObject({
      shards: 3,
      shardsFrom: 'component c1',
      replicas: 2,
      replicasFrom: 'component c2',
      priority: null,
    });
    expect(v.index.find((t) => t.name === 'p')!.priority).toBe(0);
    const shardsColumn = TEMPLATE_COLUMNS.find((c) => c.title === 'shards')!;
    const c2 = v.components.find((c) => c.name === 'c2')!;
    expect(shardsColumn.text({ kind: 'component', c: c2 } as never)).toBe('-');
  });
});
