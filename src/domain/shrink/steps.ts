// The requests of a right-sizing, one plan per step, each with its read-back (the guard verifies it
// after sending; the runner reads the same to know, on a resume, whether a step was applied before
// the process died). Every path names one concrete index, never a pattern. Pure.
import type { MutationPlan, VerifyCheck } from '../mutation/plan';
import { BLOCKS_WRITE, ROUTING_NAME, type AliasDefinition, type Mode } from './plan';

const seg = encodeURIComponent;

type Settings = Record<string, { settings?: Record<string, string | null> }>;

/**
 * GET /<index>/_settings/<keys>: the index is left out of the answer when it is not there
 * (ignore_unavailable), and also when none of the keys is set, so its uuid is always asked too.
 */
export function settingsRead(index: string, keys: readonly string[]): Pick<VerifyCheck, 'path' | 'querystring'> {
  return {
    path: `/${seg(index)}/_settings/${[...new Set(['index.uuid', ...keys])].map(seg).join(',')}`,
    querystring: { flat_settings: 'true', ignore_unavailable: 'true', expand_wildcards: 'all' },
  };
}

/** One index's settings out of such an answer; null when it is not there. */
export function settingsIn(body: unknown, index: string): Record<string, string | null> | null {
  const b = (body ?? {}) as Settings;
  return Object.prototype.hasOwnProperty.call(b, index) ? (b[index]?.settings ?? {}) : null;
}

function settingCheck(index: string, key: string, expected: string | null, ok: string): VerifyCheck {
  return {
    ...settingsRead(index, [key]),
    check(body) {
      const s = settingsIn(body, index);
      if (!s) return { ok: false, message: `${index} is not there` };
      const v = s[key] ?? null;
      return v === expected ? { ok: true, message: ok } : { ok: false, message: `${key} of ${index} is ${v ?? 'unset'}` };
    },
  };
}

export function blockPlan(index: string): MutationPlan {
  return {
    method: 'PUT',
    path: `/${seg(index)}/_settings`,
    querystring: {},
    body: { [BLOCKS_WRITE]: true },
    risk: 'reversible',
    target: index,
    summary: `block writes to ${index} while it is right-sized (writes are refused until the block is lifted)`,
    verify: settingCheck(index, BLOCKS_WRITE, 'true', `${index} refuses writes`),
  };
}

/** The refresh before the documents are counted: every document written before the block is then counted. */
export function refreshPlan(index: string): MutationPlan {
  return {
    method: 'POST',
    path: `/${seg(index)}/_refresh`,
    querystring: {},
    risk: 'reversible',
    target: index,
    summary: `refresh ${index} so that its count holds every document written before the block`,
  };
}

export function routePlan(index: string, node: string): MutationPlan {
  return {
    method: 'PUT',
    path: `/${seg(index)}/_settings`,
    querystring: {},
    body: { [ROUTING_NAME]: node },
    risk: 'reversible',
    target: index,
    summary: `move every shard copy of ${index} onto ${node} (${ROUTING_NAME}; a shrink needs a copy of each on one node)`,
    verify: settingCheck(index, ROUTING_NAME, node, `${index} is required on ${node}`),
  };
}

/** The temporary index exists with `to` shards. */
function hasShards(index: string, to: number, what: string): VerifyCheck {
  return {
    ...settingsRead(index, ['index.number_of_shards']),
    check(body) {
      const s = settingsIn(body, index);
      if (!s) return { ok: false, message: `${index} is not there` };
      return Number(s['index.number_of_shards']) === to
        ? { ok: true, message: what }
        : { ok: false, message: `${index} has ${s['index.number_of_shards']} shards, not ${to}` };
    },
  };
}

/**
 * _shrink (or _split) into the temporary index: its replicas as the original's (a resize gives the
 * default otherwise), writes still blocked (the clone needs it), the routing requirement cleared,
 * no aliases (they would point at both indices: they go on the clone).
 */
export function copyPlan(mode: Mode, index: string, tmp: string, to: number, replicas: number): MutationPlan {
  return {
    method: 'POST',
    path: `/${seg(index)}/_${mode}/${seg(tmp)}`,
    querystring: {},
    body: {
      settings: { 'index.number_of_shards': to, 'index.number_of_replicas': replicas, [ROUTING_NAME]: null, [BLOCKS_WRITE]: true },
    },
    risk: 'reversible',
    target: index,
    summary: `${mode} ${index} into the temporary index ${tmp} with ${to} shard${to === 1 ? '' : 's'} (the original is kept)`,
    verify: hasShards(tmp, to, `${tmp} exists with ${to} shard${to === 1 ? '' : 's'}`),
  };
}

/** Gone: the name no longer holds the index with this uuid (it may be free, or hold another one). */
function goneCheck(index: string, uuid: string): VerifyCheck {
  return {
    ...settingsRead(index, ['index.uuid']),
    check(body) {
      const s = settingsIn(body, index);
      return s?.['index.uuid'] === uuid ? { ok: false, message: `${index} is still there` } : { ok: true, message: `${index} is deleted` };
    },
  };
}

/** Deleting an index: data loss, so the names of the run are typed (confirmText), with --yes too. */
export function deleteIndexPlan(index: string, uuid: string, confirmText: string, why: string): MutationPlan {
  return {
    method: 'DELETE',
    path: `/${seg(index)}`,
    querystring: {},
    risk: 'destructive',
    target: index,
    confirmText,
    summary: `delete ${index} (${why})`,
    verify: goneCheck(index, uuid),
  };
}

/** _clone of the temporary index back under the original name, with the original's replicas and aliases, writes still blocked until compared. */
export function clonePlan(
  tmp: string,
  index: string,
  to: number,
  replicas: number,
  aliases: Record<string, AliasDefinition>,
): MutationPlan {
  const names = Object.keys(aliases);
  return {
    method: 'POST',
    path: `/${seg(tmp)}/_clone/${seg(index)}`,
    querystring: {},
    body: { settings: { 'index.number_of_replicas': replicas, [BLOCKS_WRITE]: true }, aliases },
    risk: 'reversible',
    target: tmp,
    summary: `clone ${tmp} back under the name ${index}${names.length ? ` with the alias${names.length === 1 ? '' : 'es'} ${names.join(', ')}` : ''}`,
    verify: hasShards(index, to, `${index} exists again with ${to} shard${to === 1 ? '' : 's'}`),
  };
}

/** Lifts the block and the routing requirement: each back to what the original had (null: unset). */
export function unblockPlan(index: string, before: { blocksWrite: string | null; routing: string | null }): MutationPlan {
  return {
    method: 'PUT',
    path: `/${seg(index)}/_settings`,
    querystring: {},
    body: { [BLOCKS_WRITE]: before.blocksWrite, [ROUTING_NAME]: before.routing },
    risk: 'reversible',
    target: index,
    summary: `lift the write block and the routing requirement of ${index} (${BLOCKS_WRITE} ${before.blocksWrite ?? 'unset'}, ${ROUTING_NAME} ${before.routing ?? 'unset'}, as before): writes are accepted again`,
    verify: {
      ...settingsRead(index, [BLOCKS_WRITE, ROUTING_NAME]),
      check(body) {
        const s = settingsIn(body, index);
        if (!s) return { ok: false, message: `${index} is not there` };
        const w = s[BLOCKS_WRITE] ?? null;
        const r = s[ROUTING_NAME] ?? null;
        return w === before.blocksWrite && r === before.routing
          ? { ok: true, message: `${index} takes writes as before` }
          : { ok: false, message: `${index}: ${BLOCKS_WRITE} is ${w ?? 'unset'}, ${ROUTING_NAME} is ${r ?? 'unset'}` };
      },
    },
  };
}
