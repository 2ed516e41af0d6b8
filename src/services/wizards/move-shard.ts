// The session behind the Shards pane's m: the same steps as `shardeck move` (services/move-shard.ts:
// the copy and the nodes allocation explain accepts, then for the chosen node the explain and the
// reroute dry run), the move through the guard, then the copy followed until started on its new node.
import type { EsApi } from '../../cluster/api';
import { moveMachine, type MoveEffect, type MoveEvent, type MoveOpened, type MoveState } from '../../domain/wizards/move-shard';
import type { Guard } from '../guard';
import { followMove, prepareMove } from '../move-shard';
import { performMutations, WizardSession, type WatchTuning } from './session';

export function moveSession(es: EsApi, guard: Guard, opened: MoveOpened, tuning: WatchTuning = {}) {
  return new WizardSession<MoveState, MoveEvent, MoveEffect>(moveMachine(opened), async (f, send) => {
    switch (f.type) {
      case 'targets': {
        const p = await prepareMove(es, guard, f.opened.index, f.opened.shard, { from: f.opened.from });
        return send(p.ok ? { type: 'offered', copy: p.copy, targets: p.targets } : { type: 'rejected', message: p.error });
      }
      case 'check': {
        const p = await prepareMove(es, guard, f.opened.index, f.opened.shard, { from: f.opened.from, to: f.to });
        if (!p.ok) return send({ type: 'rejected', message: p.error });
        if (!p.move) return send({ type: 'rejected', message: 'nothing to move' });
        return send({ type: 'checked', ref: p.move.ref, plan: p.move.plan });
      }
      case 'mutate':
        return send({ type: 'applied', results: await performMutations(guard, f) });
      case 'follow': {
        const r = await followMove(es, f.ref, tuning.watchTimeoutMs ?? 120_000, (percent) => send({ type: 'progress', percent }));
        return send({ type: 'followed', started: r.done });
      }
    }
  });
}

/** The console's way to open it: `services.open(moveWizard, opened)`. */
export const moveWizard = (es: EsApi, guard: Guard, tuning: WatchTuning, opened: MoveOpened) => moveSession(es, guard, opened, tuning);
