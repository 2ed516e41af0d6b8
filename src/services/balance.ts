// Why shards move (`shardeck balance`): the desired balance read whole (8.6+), what limits
// allocation now, and for the first few copies the balancer wants elsewhere that are not moving,
// what allocation explain says keeps them (one explain each, at most MAX_EXPLAINS). Reads only.
import type { EsApi } from '../cluster/api';
import { ConnError } from '../cluster/connection';
import { lacks } from '../domain/capabilities';
import { balanceUnsupported, copyKey, explainBlock, type BalanceContext, type DesiredBalance } from '../domain/nodes/balance';

export const MAX_EXPLAINS = 3;

export async function readBalance(es: EsApi): Promise<{ balance: DesiredBalance; context: BalanceContext }> {
  const v = await es.version().catch(() => undefined);
  if (v && lacks(v, 'desiredBalance')) throw new ConnError('unsupported', balanceUnsupported(404, undefined, v.text)!);
  const [balance, settings] = await Promise.all([es.desiredBalance(v?.text), es.data('settings')]);
  const blockedBy: Record<string, string> = {};
  for (const c of balance.misplaced.filter((m) => !m.movingTo).slice(0, MAX_EXPLAINS)) {
    try {
      const why = explainBlock(await es.allocationExplain({ index: c.index, shard: c.shard, primary: c.primary }));
      if (why) blockedBy[copyKey(c)] = why;
    } catch {
      // the generic reason stays
    }
  }
  return { balance, context: { limits: settings.allocationLimits.map((l) => l.text), blockedBy } };
}
