// The inspect parsers and the index detail's lines, on answers recorded from a real 8.19.21 node
// (test/fixtures/detail).
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  catTable,
  fieldDefinition,
  foldablePaths,
  globMatches,
  groupMappings,
  isSingleIndex,
  mappingFields,
  parseCatCommands,
  parseCatHelp,
  parseIndexSettings,
  parseIndexStats,
  parseIndexTemplates,
  settingRows,
  shownSettingValue,
  statRates,
  templateDrift,
  templateMatch,
  unfoldedFields,
  unknownColumns,
} from '../../src/domain/inspect/inspect';
import {
  mappingSectionLines,
  nextSection,
  projectText,
  shardsSectionLines,
  statsSectionLines,
  templateSectionLines,
} from '../../src/domain/inspect/index-detail';
import { parseCatShards } from '../../src/domain/parse';
import { detailFixture, recordedDetail } from '../ui/detail-fixtures';

const NOW = Date.UTC(2026, 10, 22, 12);

describe('settings', () => {
  it('parses flat settings with defaults; rows: own first, then defaults not overridden', () => {
    const [s] = parseIndexSettings(detailFixture('alpha-settings.json'));
    expect(s.index).toBe('service_v9_alpha');
    expect(s.settings['index.number_of_shards']).toBe('6');
    expect(s.defaults?.['index.refresh_interval']).toBe('1s');
    const rows = settingRows(s);
    const firstDefault = rows.findIndex((r) => r.isDefault);
    expect(rows.slice(0, firstDefault).every((r) => !r.isDefault && r.key in s.settings)).toBe(true);
    expect(rows.filter((r) => r.key === 'index.number_of_shards')).toEqual([
      { key: 'index.number_of_shards', value: '6', isDefault: false },
    ]);
    // Issue 47 item 10: dates as dates.
    const created = rows.find((r) => r.key === 'index.creation_date')!;
    expect(created.value).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(\d{13}\)$/);
    expect(shownSettingValue('index.creation_date', '1764331200000')).toBe('2025-11-28 12:00:00 UTC (1764331200000)');
    expect(shownSettingValue('index.number_of_shards', '1764331200000')).toBe('1764331200000');
  });
});

describe('mappings', () => {
  const wide = detailFixture('wide-mappings.json').service_v9_wide.mappings;

  it('walks 2,000 fields depth first: objects, multi-fields, enabled: false, notes', () => {
    const fields = mappingFields(wide);
    expect(fields.length).toBeGreaterThanOrEqual(2000);
    expect(fields.find((f) => f.path === 'raw_payload')).toMatchObject({ type: 'object', disabled: true, children: 0 });
    expect(fields.find((f) => f.path === 'title.raw')).toMatchObject({
      depth: 1,
      multi: true,
      type: 'keyword',
      notes: ['ignore_above: 256'],
    });
    const group = fields.find((f) => f.path === 'group00')!;
    expect(group.children).toBe(49);
    expect(fields[fields.indexOf(group) + 1].path).toBe('group00.f00');
  });

  it('folding hides exactly the children; fold-all leaves the top level', () => {
    const fields = mappingFields(wide);
    const folded = unfoldedFields(fields, new Set(['group00']));
    expect(folded.length).toBe(fields.length - 49);
    const top = unfoldedFields(fields, new Set(foldablePaths(fields)));
    expect(top.every((f) => f.depth === 0)).toBe(true);
  });

  it('finds a field by dotted path (multi-fields and dotted names too)', () => {
    expect(fieldDefinition(wide, 'title.raw')).toEqual({ type: 'keyword', ignore_above: 256 });
    expect(fieldDefinition(wide, 'group01.f03')).toMatchObject({ type: expect.any(String) });
    expect(fieldDefinition(wide, 'group01.nope')).toBeUndefined();
    expect(fieldDefinition({ properties: { 'a.b': { type: 'long' } } }, 'a.b')).toEqual({ type: 'long' });
  });

  it('groups identical mappings whatever their key order, largest group first', () => {
    const groups = groupMappings({
      b: { mappings: { properties: { x: { type: 'long' }, y: { type: 'date' } } } },
      a: { mappings: { properties: { y: { type: 'date' }, x: { type: 'long' } } } },
      c: { mappings: { properties: { x: { type: 'keyword' } } } },
    });
    expect(groups.map((g) => g.indices)).toEqual([['a', 'b'], ['c']]);
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] })).toBe('{"a":[{"c":2,"d":1}],"b":1}');
  });

  it('the tree lines mark folds, enabled: false and a search shows matching paths flat', () => {
    const fields = mappingFields(wide);
    const lines = mappingSectionLines(wide, fields, new Set(['group00']), '');
    expect(lines[0].text).toMatch(/^2\d\d\d fields; dynamic: strict$/);
    expect(lines.find((l) => l.key === 'group00')?.text).toBe('▸ group00  object  (49 fields folded)');
    expect(lines.find((l) => l.key === 'raw_payload')).toMatchObject({ text: '  raw_payload  object  enabled: false', tone: 'yellow' });
    const search = mappingSectionLines(wide, fields, new Set(), 'raw');
    expect(search.slice(1).map((l) => l.key)).toEqual(['raw_payload', 'title.raw']);
  });
});

describe('stats', () => {
  it('parses index stats and the rates between two reads', () => {
    const cur = parseIndexStats(detailFixture('alpha-stats.json')).indices.service_v9_alpha;
    const prev = parseIndexStats(detailFixture('alpha-stats-prev.json')).indices.service_v9_alpha;
    expect(cur.docs - prev.docs).toBe(200);
    expect(cur.search.queries - prev.search.queries).toBeGreaterThanOrEqual(20);
    const r = statRates(prev, 0, cur, 10_000)!;
    expect(r.indexing).toBe(20);
    expect(r.docs).toBe(20);
    expect(statRates(undefined, undefined, cur, 1)).toBeNull();
    // A counter that went back (shard moved, node restarted) gives no negative rate.
    expect(statRates(cur, 0, prev, 1000)!.indexing).toBe(0);
  });

  it('the whole node: _all totals and every index', () => {
    const r = parseIndexStats(detailFixture('stats-all.json'));
    expect(Object.keys(r.indices)).toContain('service_v9_wide');
    expect(r.all.docs).toBe(Object.values(r.indices).reduce((n, s) => n + s.docs, 0));
  });

  it('the stats section shows the rates once there are two reads', async () => {
    const d = await recordedDetail('alpha', NOW, 10_000);
    const text = statsSectionLines(d)
      .map((l) => l.text)
      .join('\n');
    expect(text).toContain('rates over the last 10 s: indexing 20.0/s');
    expect(statsSectionLines({ ...d, previousStats: undefined }).at(-1)?.text).toBe('rates: after the next poll');
  });
});

describe('template', () => {
  const templates = parseIndexTemplates(detailFixture('templates.json'));

  it('names the highest-priority template whose pattern matches; the simulation gives its settings', () => {
    const m = templateMatch('service_v9_alpha', detailFixture('alpha-simulate.json'), templates);
    expect(m.template).toMatchObject({ name: 'service_v9', composedOf: ['service_v9_mappings'], indexPatterns: ['service_v9_*'] });
    expect(m.settings['index.number_of_shards']).toBe('6');
    expect(templateMatch('other', { template: {} }, templates).template).toBeNull();
    expect(globMatches('service_v9_*', 'service_v9_x')).toBe(true);
    expect(globMatches('a*b*c', 'aXbYc')).toBe(true);
    expect(globMatches('a*b*c', 'aXc')).toBe(false);
  });

  it('marks a setting where the index differs from what the template gives', async () => {
    const d = await recordedDetail('wide', NOW);
    const drift = templateDrift(d.template.data!, d.settings.data!.settings);
    expect(drift.find((x) => x.key === 'index.number_of_shards')).toEqual({ key: 'index.number_of_shards', template: '6', index: '1' });
    const lines = templateSectionLines(d);
    expect(lines.find((l) => l.key === 'set:index.number_of_shards')).toMatchObject({
      text: '  index.number_of_shards 6  (this index: 1)',
      tone: 'yellow',
    });
  });
});

describe('shards and project', () => {
  it('lists the copies, unassigned replicas in yellow with their reason', async () => {
    const lines = shardsSectionLines({
      ...(await recordedDetail('alpha', NOW)),
      shards: { data: parseCatShards(detailFixture('orders-shards.json')), failures: 0 },
    });
    const unassigned = lines.filter((l) => l.text.includes('UNASSIGNED'));
    expect(unassigned.length).toBeGreaterThan(0);
    expect(unassigned.every((l) => l.tone === 'yellow' && /REPLICA_ADDED|INDEX_CREATED/.test(l.text))).toBe(true);
  });

  it('the project as the Indices pane knows it', () => {
    expect(projectText('service_v9_alpha', { alpha: 'Alpha Team' }, 'v9')).toBe('Alpha Team (alpha)');
    expect(projectText('service_v9_alpha', undefined, 'v9')).toBe('alpha (not signed in to the platform)');
    expect(projectText('logs', {}, 'v9')).toMatch(/not a project index/);
    expect(nextSection('template', 1)).toBe('stats');
    expect(nextSection('stats', -1)).toBe('template');
  });
});

describe('_cat', () => {
  it('the commands the node offers, and the columns of one', () => {
    const commands = parseCatCommands(detailFixture('cat.txt'));
    expect(commands.find((c) => c.name === 'shards')).toEqual({
      name: 'shards',
      paths: ['/_cat/shards', '/_cat/shards/{index}'],
      takesTarget: true,
    });
    expect(commands.find((c) => c.name === 'health')?.takesTarget).toBe(false);
    const columns = parseCatHelp(detailFixture('cat-shards-help.txt'));
    expect(columns[0]).toEqual({ name: 'index', aliases: ['i', 'idx'], description: 'index name' });
    expect(unknownColumns(['i', 'prirep', 'bogus', 'seg*'], columns)).toEqual(['bogus']);
  });

  it('rows as an aligned table; one index vs a pattern', () => {
    expect(
      catTable([
        { a: 'x', bb: null },
        { a: 'longer', bb: 2 },
      ]),
    ).toEqual(['a       bb', 'x', 'longer  2']);
    expect(isSingleIndex('service_v9_a')).toBe(true);
    for (const e of ['a*', 'a,b', '_all', '-a', '']) expect(isSingleIndex(e), e).toBe(false);
  });
});
