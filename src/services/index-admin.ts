// Whole indices closed, opened or deleted (issue 43 item 4): the pattern resolved to names by the
// guard's rules (no `*`, `_all`, exclusions or system names), what each index is, and the refusals
// (hidden and system indices, the write index of an alias) before any plan exists.
import type { EsApi } from '../cluster/api';
import {
  alreadyThere,
  indexActionPlan,
  refusal,
  type AliasRow,
  type IndexAction,
  type IndexFacts,
} from '../domain/maintenance/index-admin';
import type { MutationPlan } from '../domain/mutation/plan';
import { holdingIndex, type SnapshotInfo } from '../domain/snapshots';
import type { Guard } from './guard';

type IndexApi = Pick<EsApi, 'wholeIndexFacts' | 'aliasRows' | 'repositories' | 'snapshots'>;

export type IndexPreview =
  | { ok: false; error: string }
  | { ok: true; facts: IndexFacts[]; aliases: AliasRow[]; already: string[]; plan: MutationPlan | null; snapshotsRead: boolean };

/** The newest snapshot holding each index, over every repository (none readable: not known, said). */
async function snapshotLookup(es: IndexApi): Promise<{ newest: (index: string) => string | null; read: boolean }> {
  try {
    const all: SnapshotInfo[] = (await Promise.all((await es.repositories()).map((r) => es.snapshots(r.name)))).flat();
    return {
      newest: (index) => {
        const [s] = holdingIndex(all, index);
        return s ? `${s.repository}:${s.name}` : null;
      },
      read: true,
    };
  } catch {
    return { newest: () => null, read: false };
  }
}

export async function previewIndexAction(es: IndexApi, guard: Guard, action: IndexAction, pattern: string): Promise<IndexPreview> {
  const r = await guard.resolveTarget(pattern);
  if (!r.ok) return r;
  const snaps = await snapshotLookup(es);
  const [facts, aliases] = await Promise.all([es.wholeIndexFacts(r.indices, snaps.newest), es.aliasRows()]);
  if (!facts.length) return { ok: false, error: `no index matches "${pattern}" any more: nothing was sent` };
  const no = refusal(action, facts, aliases);
  if (no) return { ok: false, error: no };
  const already = alreadyThere(action, facts);
  const todo = facts.filter((f) => !already.includes(f.index));
  return {
    ok: true,
    facts,
    aliases,
    already,
    plan: todo.length ? indexActionPlan(action, todo, pattern) : null,
    snapshotsRead: snaps.read,
  };
}
