// Issue 44's screens on data recorded from a real node (test/fixtures/yellow): a profile's label
// heading the panes (in colour, and under NO_COLOR), the production cluster-name question, and the
// x-ray of an index (the tree made by domain/inspect/xray.ts from the recorded reads), at 80x23 and 120x40.
import { afterEach, describe, expect, it } from 'vitest';
import { parseTemplates } from '../../src/domain/templates';
import { xrayTree, type XrayFacts } from '../../src/domain/inspect/xray';
import { profileBadge } from '../../src/domain/console/profile-badge';
import type { WizardServices } from '../../src/services/wizards';
import { parsedAsPolled } from '../helpers/recorded';
import { failOnConsoleError, fixture, loadScenario, makeStore, renderApp, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';
import { catTable } from '../../src/domain/inspect/inspect';
import type { LineCommands } from '../../src/ui/app/context';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  delete process.env.NO_COLOR;
});

const SIZES = [
  [80, 23],
  [120, 40],
] as const;
const INDEX = 'service_v9_orders';

function labelled(badge = profileBadge({ label: 'PROD', color: 'red', production: true })) {
  const store = makeStore();
  store.setState((s) => ({ connection: { ...s.connection, badge } }));
  loadScenario(store, 'yellow');
  return store;
}

/** The x-ray of INDEX from the yellow scenario's recorded reads (no aliases, snapshots or changes there). */
function recordedXray(): XrayFacts {
  return {
    index: INDEX,
    row: parsedAsPolled('yellow', 'indices').find((i) => i.name === INDEX)!,
    settings: { 'index.number_of_shards': '6', 'index.number_of_replicas': '1' },
    fields: [],
    aliases: [],
    shards: parsedAsPolled('yellow', 'shards').filter((s) => s.index === INDEX),
    disks: parsedAsPolled('yellow', 'allocation'),
    templates: parseTemplates(fixture('yellow', 'indexTemplates') as never, fixture('yellow', 'componentTemplates') as never),
    tasks: parsedAsPolled('yellow', 'tasks'),
    snapshots: [],
  };
}

describe.each(SIZES)('issue 44 screens at %ix%i', (columns, rows) => {
  it('the label heads the pane, reversed in its colour', async () => {
    const store = labelled();
    store.setState({ pane: 'indices' });
    r = await renderApp(store, { columns, rows });
    const text = withColourMarkers(r.frame());
    expect(text.split('\n')[0]).toMatch(/^⟦[^⟧]*red[^⟧]*⟧\[PROD\]⟦⟧ /);
    await expect(text).toMatchFileSnapshot(`__screens__/habits-label-indices-${columns}x${rows}.txt`);
  });

  it('under NO_COLOR the label stays, as text', async () => {
    process.env.NO_COLOR = '1';
    const store = labelled(profileBadge({ label: 'STAGE', color: 'yellow' }));
    r = await renderApp(store, { columns, rows });
    const text = withColourMarkers(r.frame());
    expect(text.split('\n')[0]).toMatch(/^⟦bold⟧\[STAGE\]⟦⟧ /);
    await expect(text).toMatchFileSnapshot(`__screens__/habits-label-nocolor-${columns}x${rows}.txt`);
  });

  it("production: the cluster's name asked before a change that loses data", async () => {
    const store = labelled();
    store.setState({ pane: 'indices' });
    r = await renderApp(store, { columns, rows });
    r.ui.setState({
      clusterName: {
        badge: store.getState().connection.badge!,
        summary: `delete at most 3 documents of ${INDEX} matching the previewed query`,
        typed: 'shardeck-fix',
        answer: () => undefined,
      },
    });
    await r.settled();
    const text = withColourMarkers(r.frame());
    expect(text).toContain("type the cluster's name to go on: ");
    await expect(text).toMatchFileSnapshot(`__screens__/habits-cluster-name-${columns}x${rows}.txt`);
  });

  it('x: the x-ray of the highlighted index', async () => {
    const store = labelled(undefined);
    store.setState({ pane: 'indices' });
    const services = {
      xray: (index: string) =>
        Promise.resolve(index === INDEX ? { tree: xrayTree(recordedXray(), { audit: [] }), facts: recordedXray() } : null),
    } as unknown as WizardServices;
    r = await renderApp(store, { columns, rows, services });
    r.ui.setState({ dialog: { kind: 'view', id: 'xray', index: INDEX } });
    await r.settled();
    const text = withColourMarkers(r.frame());
    expect(text).toContain(`X-ray of ${INDEX}`);
    expect(text).toContain('├ shards: 12, 6 not started');
    await expect(text).toMatchFileSnapshot(`__screens__/habits-xray-${columns}x${rows}.txt`);
  });
  it(":cat shards: a read command's text in a view (the text `shardeck cat shards` prints for the recorded shards), searched", async () => {
    const store = labelled(undefined);
    store.setState({ pane: 'indices' });
    const text = `${catTable(fixture('yellow', 'shards') as Record<string, unknown>[]).join('\n')}\n`;
    const commands: LineCommands = {
      table: () => ({ reads: { cat: ['columns'] }, changes: [] }),
      ready: () => Promise.resolve({ reads: { cat: ['columns'] }, changes: [] }),
      profiles: () => [],
      names: () => Promise.resolve({ indices: [], nodes: [] }),
      run: (words) =>
        Promise.resolve(words.join(' ') === 'cat shards' ? { code: 0, text, meaning: 'ok: green, found, done' } : { code: 64, text: '' }),
    };
    r = await renderApp(store, { columns, rows, commands });
    await r.press(':');
    for (const k of 'cat shards') await r.press(k);
    await r.press('\r');
    await r.settled();
    await r.press('/');
    for (const k of 'replica_added') await r.press(k);
    await r.press('\r');
    // n: the next line holding it (the second unassigned copy).
    await r.press('n');
    const shown = withColourMarkers(r.frame());
    expect(shown).toContain(':cat shards');
    expect(shown).toContain('exit 0: ok');
    expect(shown).toMatch(/⟦inverse⟧service_v9_orders +1 +r +UNASSIGNED/);
    expect(shown).toMatch(/line 17 of 38/);
    await expect(shown).toMatchFileSnapshot(`__screens__/habits-output-${columns}x${rows}.txt`);
  });

  it('Tab: the choices of an index name listed under the line, a second Tab takes the first', async () => {
    const store = labelled(undefined);
    store.setState({ pane: 'indices' });
    const table = { reads: { cat: ['columns'] }, changes: [] };
    const commands: LineCommands = {
      table: () => table,
      ready: () => Promise.resolve(table),
      profiles: () => [],
      names: () => Promise.resolve({ indices: [], nodes: [] }),
      run: () => Promise.resolve({ code: 0, text: '' }),
    };
    r = await renderApp(store, { columns, rows, commands });
    await r.press(':');
    for (const k of 'replicas service_v9_') await r.press(k);
    await r.press('\t');
    await r.press('\t');
    const shown = withColourMarkers(r.frame());
    const plain = shown.replace(/⟦[^⟧]*⟧/g, '');
    expect(plain).toMatch(/^:replicas service_v9_alpha_ +\[service_v9_alpha\] service_v9_bravo/m);
    for (const l of plain.split('\n')) expect(l.length, l).toBeLessThanOrEqual(columns);
    await expect(shown).toMatchFileSnapshot(`__screens__/habits-tab-choices-${columns}x${rows}.txt`);
  });

  it('V: the columns chooser of the Indices pane, docs hidden, size moved before deleted', async () => {
    const store = labelled(undefined);
    store.setState({ pane: 'indices' });
    r = await renderApp(store, { columns, rows });
    await r.press('V');
    for (const k of ['\u001b[B', '\u001b[B', '\u001b[B', '\u001b[B', ' ', '\u001b[B', '\u001b[B', '<']) await r.press(k);
    const text = withColourMarkers(r.frame());
    expect(text).toContain('Columns of the Indices pane · kept for this profile');
    expect(text).toMatch(/\[x\] p\/r\n\[ \] docs\n.*\[x\] size.*\n\[x\] deleted/);
    await expect(text).toMatchFileSnapshot(`__screens__/habits-columns-${columns}x${rows}.txt`);
    await r.press('\u001b');
    expect(withColourMarkers(r.frame())).toMatch(/index\S* +p\/r +size +deleted/);
  });
});
