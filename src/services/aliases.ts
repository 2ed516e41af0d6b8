// An alias change prepared for the guard (issue 43 item 5): the alias and index names checked as
// names (no patterns, no system or hidden index), the indices read as they are now, one atomic plan.
import type { EsApi } from '../cluster/api';
import { aliasPlan, type AliasChange, type AliasPlanCheck } from '../domain/maintenance/aliases';
import { refusal } from '../domain/maintenance/index-admin';
import { checkIndexExpression, isPattern } from '../domain/mutation/targets';
import type { Guard } from './guard';

type AliasApi = Pick<EsApi, 'aliasRows' | 'wholeIndexFacts'>;

/** A name, not a pattern or a list: one sentence when it is not. */
export function checkOneName(what: string, name: string): string | null {
  if (isPattern(name)) return `the ${what} "${name}" is a pattern or a list: name exactly one`;
  return checkIndexExpression(name);
}

export async function prepareAliasChange(es: AliasApi, guard: Guard, c: AliasChange): Promise<AliasPlanCheck> {
  const named = c.kind === 'swap' ? [c.from, c.to] : [c.index];
  for (const n of named) {
    const r = await guard.resolveTarget(n);
    if (!r.ok) return r;
  }
  const facts = await es.wholeIndexFacts(named, () => null);
  const no = refusal('open', facts, []);
  if (no) return { ok: false, error: no };
  return aliasPlan(c, await es.aliasRows());
}
