// The index detail as the operator sees it, each section at 80x24 and 120x40, on answers recorded
// from a real node (test/fixtures/detail): service_v9_alpha (demo data, the service_v9 template) and
// service_v9_wide (2,000 mapped fields, an enabled: false object, settings that differ from the
// template's). Colour kept as visible markers, one file per screen in __screens__/.
import { afterEach, describe, expect, it } from 'vitest';
import { DETAIL_SECTIONS, type DetailSection } from '../../src/domain/inspect/index-detail';
import { createUiStore, emptyDetailView, type DetailView } from '../../src/ui/state';
import { failOnConsoleError, loadScenario, makeStore, NOW, renderApp, type Rendered } from '../ui/harness';
import { loadRecordedDetail } from '../ui/detail-fixtures';
import { withColourMarkers } from '../ui/markers';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const SIZES = [
  [80, 24],
  [120, 40],
] as const;

async function screen(short: 'alpha' | 'wide', view: Partial<DetailView>, columns: number, rows: number): Promise<string> {
  const store = makeStore();
  loadScenario(store, 'yellow');
  store.setState({ pane: 'indices', projects: { alpha: 'Alpha Team' } });
  await loadRecordedDetail(store, short, NOW);
  r = await renderApp(store, { columns, rows, ui: createUiStore({ detail: { ...emptyDetailView(), ...view } }) });
  return withColourMarkers(r.frame());
}

describe('service_v9_alpha', () => {
  for (const section of DETAIL_SECTIONS as readonly DetailSection[])
    for (const [columns, rows] of SIZES)
      it(`${section} at ${columns}x${rows}`, async () => {
        const text = await screen('alpha', { section }, columns, rows);
        expect(text).toContain('Index service_v9_alpha  project: Alpha Team (alpha)');
        await expect(text).toMatchFileSnapshot(`__screens__/detail-alpha-${section}-${columns}x${rows}.txt`);
      });

  it('the curl line of the section (c)', async () => {
    const text = await screen('alpha', { section: 'template', curl: true }, 80, 24);
    expect(text.replace(/⟦[^⟧]*⟧|\n/g, '')).toContain(
      "POST /_index_template/_simulate_index/service_v9_alpha: curl -X POST 'http://127.0.0.1:9200/_index_template/_simulate_index/service_v9_alpha'",
    );
    await expect(text).toMatchFileSnapshot('__screens__/detail-alpha-template-curl-80x24.txt');
  });
});

describe('service_v9_wide (2,000 fields)', () => {
  for (const [columns, rows] of SIZES)
    it(`mappings at ${columns}x${rows}`, async () => {
      const text = await screen('wide', { section: 'mappings' }, columns, rows);
      expect(text.split('\n').length).toBeLessThanOrEqual(rows);
      await expect(text).toMatchFileSnapshot(`__screens__/detail-wide-mappings-${columns}x${rows}.txt`);
    });

  it('mappings folded, searched (raw) and the template with settings that differ', async () => {
    const folded = await screen('wide', { section: 'mappings', folded: ['title', 'attachments', 'group00', 'group01'] }, 80, 24);
    await expect(folded).toMatchFileSnapshot('__screens__/detail-wide-mappings-folded-80x24.txt');
    r?.unmount();
    const searched = await screen('wide', { section: 'mappings', filter: 'raw' }, 80, 24);
    await expect(searched).toMatchFileSnapshot('__screens__/detail-wide-mappings-search-80x24.txt');
    r?.unmount();
    const template = await screen('wide', { section: 'template' }, 80, 24);
    expect(template).toContain('index.number_of_shards 6  (this index: 1)');
    await expect(template).toMatchFileSnapshot('__screens__/detail-wide-template-80x24.txt');
  });
});
