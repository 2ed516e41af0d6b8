// m on the Shards pane as the operator sees it, at 80x23 and 120x40: the copy no node accepts (the
// answer of allocation explain recorded on a real two-node cluster, test/fixtures/admin: a primary
// whose replica holds the other node, so same_shard says no), with the decider's words and nothing
// sent. Colour kept as visible markers, one file per screen in __screens__/.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { moveTargets } from '../../src/domain/maintenance/move-shard';
import { buildPreview } from '../../src/domain/mutation/preview';
import { moveMachine, type MoveOpened } from '../../src/domain/wizards/move-shard';
import type { WizardServices } from '../../src/services/wizards';
import { WizardSession } from '../../src/services/wizards/session';
import { wizardsWith } from '../helpers/wizard-ui';
import { failOnConsoleError, loadScenario, makeStore, renderApp, type Rendered } from '../ui/harness';
import { withColourMarkers } from '../ui/markers';

failOnConsoleError();
let r: Rendered | undefined;
afterEach(() => r?.unmount());

const explain = JSON.parse(fs.readFileSync('test/fixtures/admin/explain-same-shard-8.19.json', 'utf8'));

describe('move a shard: refused by every node', () => {
  for (const [columns, rows] of [
    [80, 23],
    [120, 40],
  ] as const)
    it(`at ${columns}x${rows}`, async () => {
      const sessions: WizardSession<any, any, any>[] = [];
      const services = {
        open: (_make: unknown, opened: MoveOpened) => {
          const s = new WizardSession(moveMachine(opened), () => Promise.resolve());
          sessions.push(s);
          return s;
        },
        preview: (plan) => buildPreview(plan, { url: 'http://127.0.0.1:9200', user: 'elastic' }),
      } as WizardServices;
      const store = makeStore();
      loadScenario(store, 'yellow');
      store.setState({ pane: 'shards' });
      r = await renderApp(store, { columns, rows, services, wizards: wizardsWith(['moveShard'], services) });
      await r.press('m');
      await r.settled();
      const [s] = sessions;
      expect(s.getState().phase).toBe('loading');
      s.send({
        type: 'offered',
        copy: { shard: 0, primary: true, state: 'STARTED', node: 'node-2', relocatingTo: null },
        targets: moveTargets(explain),
      });
      await r.settled();
      expect(r.frame()).toContain('same_shard');
      await expect(withColourMarkers(r.frame())).toMatchFileSnapshot(`__screens__/move-refused-${columns}x${rows}.txt`);
    });
});
