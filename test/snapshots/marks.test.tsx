// Issue 43's marks as the operator sees them, at 80x23 and 120x40, on the yellow scenario recorded
// from a real node (test/fixtures/yellow): the Indices pane with two indices marked (the * gutter,
// the footer's count), then c and X opened on them: the review naming each index (its facts parsed
// from the same recorded _cat/indices), the request and, for a delete, the typed count asked.
// Colour is kept as visible markers (test/ui/markers.ts), one file per screen in __screens__/.
import { afterEach, describe, expect, it } from 'vitest';
import { buildPreview } from '../../src/domain/mutation/preview';
import { indexActionPlan, parseIndexFacts, type IndexAction } from '../../src/domain/maintenance/index-admin';
import { indexAdminMachine } from '../../src/domain/wizards/index-admin';
import type { WizardServices } from '../../src/services/wizards';
import { WizardSession } from '../../src/services/wizards/session';
import { plain, wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, fixture, loadScenario, makeStore, renderApp, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const SIZES = [
  [80, 23],
  [120, 40],
] as const;
const MARKED = ['service_v9_bravo', 'service_v9_orders'];

/** The session's machine without its effects: the test answers the preview with the recorded facts. */
function recordedServices() {
  const sessions: WizardSession<any, any, any>[] = [];
  const services = {
    open: (_make: unknown, action: IndexAction, target: string) => {
      const s = new WizardSession(indexAdminMachine(action, target), () => Promise.resolve());
      sessions.push(s);
      return s;
    },
    preview: (plan) => buildPreview(plan, { url: 'http://127.0.0.1:9200', user: 'elastic' }),
  } as WizardServices;
  return { services, sessions };
}

async function marked(columns: number, rows: number, services?: WizardServices): Promise<Rendered> {
  const store = makeStore();
  loadScenario(store, 'yellow');
  store.setState({ pane: 'indices' });
  const app = await renderApp(store, {
    columns,
    rows,
    ...(services ? { services, wizards: wizardsWith(['indexClose', 'indexDelete'], services) } : {}),
  });
  app.ui.setState({ marks: MARKED });
  await app.settled();
  return app;
}

describe('marks on the Indices pane', () => {
  for (const [columns, rows] of SIZES)
    it(`two marked at ${columns}x${rows}`, async () => {
      r = await marked(columns, rows);
      const text = withColourMarkers(r.frame());
      expect(r.frame()).toContain('2 marked · Space mark · Esc clear');
      await expect(text).toMatchFileSnapshot(`__screens__/marks-indices-${columns}x${rows}.txt`);
    });

  for (const action of ['close', 'delete'] as const)
    for (const [columns, rows] of SIZES)
      it(`${action} of the marked: the review at ${columns}x${rows}`, async () => {
        const { services, sessions } = recordedServices();
        r = await marked(columns, rows, services);
        await r.press(action === 'close' ? 'c' : 'X');
        await r.settled();
        const [s] = sessions;
        expect(s.getState()).toMatchObject({ phase: 'loading', target: MARKED.join(',') });
        const cat = (fixture('yellow', 'indices') as { index: string }[]).filter((i) => MARKED.includes(i.index));
        const facts = parseIndexFacts(cat, {}, (i) => (i === 'service_v9_orders' ? 'nightly:snap-2026.11.28' : null));
        s.send({
          type: 'previewed',
          preview: { facts, already: [], plan: indexActionPlan(action, facts, MARKED.join(',')), snapshotsRead: true },
        });
        await r.settled();
        await expect(withColourMarkers(r.frame())).toMatchFileSnapshot(`__screens__/marks-${action}-review-${columns}x${rows}.txt`);
      });

  it('a request too tall for 80x23 (60 indices) is not offered for confirmation: said, typing ignored, Esc closes', async () => {
    const { services, sessions } = recordedServices();
    r = await marked(80, 23, services);
    await r.press('X');
    await r.settled();
    const [row] = fixture('yellow', 'indices') as Record<string, string>[];
    const cat = Array.from({ length: 60 }, (_, i) => ({ ...row, index: `logs-app-2025-${String(i).padStart(2, '0')}` }));
    const facts = parseIndexFacts(cat, {}, () => null);
    sessions[0].send({
      type: 'previewed',
      preview: { facts, already: [], plan: indexActionPlan('delete', facts, 'x'), snapshotsRead: true },
    });
    await r.settled();
    expect(plain(r.frame()).replace(/\s+/g, ' ')).toMatch(
      /the request naming these 60 indices takes \d+ rows: too tall to review whole here/,
    );
    await r.type('60');
    await r.press('\r');
    await r.settled();
    expect(sessions[0].getState()).toMatchObject({ phase: 'review', typed: '' });
  });
});
