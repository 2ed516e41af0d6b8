// Keeping a name free between the delete of the original and the clone back: a write from the
// platform would otherwise auto-create an empty index under it (with the template's shards) and the
// clone would fail. action.auto_create_index is a list Elasticsearch reads left to right (the first
// pattern that matches decides; `-` forbids, `+` or none allows; no match forbids), or true / false.
// The value held is the one there now with the exact names forbidden first; the value before is
// recorded in the progress before it is sent and put back afterwards. Pure.
import type { MutationPlan } from '../mutation/plan';

export const AUTO_CREATE = 'action.auto_create_index';

export type SettingLevel = 'persistent' | 'transient';

/** The setting as the cluster holds it: each level's own value (null: not set there) and the default (elasticsearch.yml, else true). */
export interface AutoCreateValues {
  persistent: string | null;
  transient: string | null;
  defaults: string | null;
}

/** What Elasticsearch applies: transient over persistent over the node's default ("true" when nothing says). */
export function effectiveAutoCreate(v: AutoCreateValues): string {
  return v.transient ?? v.persistent ?? v.defaults ?? 'true';
}

/** The level a change must be made at to take effect: transient when a transient value is set (it wins), else persistent. */
export function levelToChange(v: AutoCreateValues): SettingLevel {
  return v.transient !== null ? 'transient' : 'persistent';
}

/** The names of a value: false, true, or its patterns (trimmed, empty ones dropped as Elasticsearch does). */
function patternsOf(value: string): boolean | string[] {
  const t = value.trim().toLowerCase();
  if (t === 'true') return true;
  if (t === 'false') return false;
  return value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/**
 * The value that forbids creating exactly these names and leaves everything else as `current`
 * decides it; null when nothing needs changing (auto-creation is off: no write creates an index).
 * A name cannot start with + or - (Elasticsearch refuses such index names), so "-name" is read
 * as exactly that name.
 */
export function valueExcluding(current: string, names: readonly string[]): string | null {
  const p = patternsOf(current);
  if (p === false) return null;
  const exclusions = [...new Set(names)].map((n) => `-${n}`);
  const rest = p === true ? ['*'] : p.filter((x) => !exclusions.includes(x));
  if (p !== true && rest.length === 0) return null; // an empty list allows nothing
  return [...exclusions, ...rest].join(',');
}

/** Whether a write may auto-create any index at all under this value (else there is no name to hold). */
export function autoCreationOn(value: string): boolean {
  const p = patternsOf(value);
  return p === true || (Array.isArray(p) && p.some((x) => !x.startsWith('-')));
}

/** Whether a value allows a write to auto-create `name` (Elasticsearch's reading, for the tests and the plan's note). */
export function allowsAutoCreate(value: string, name: string): boolean {
  const p = patternsOf(value);
  if (typeof p === 'boolean') return p;
  for (const raw of p) {
    const allow = !raw.startsWith('-');
    const pattern = raw.replace(/^[+-]/, '');
    if (simpleMatch(pattern, name)) return allow;
  }
  return false;
}

function simpleMatch(pattern: string, name: string): boolean {
  const re = new RegExp(`^${pattern.split('*').map(escapeRe).join('.*')}$`, 's');
  return re.test(name);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The record kept in the progress before the hold is sent: the level changed, every level's value before, the value set. */
export interface NameHold {
  level: SettingLevel;
  before: AutoCreateValues;
  value: string;
  names: string[];
}

export function holdOf(now: AutoCreateValues, names: readonly string[]): NameHold | null {
  const value = valueExcluding(effectiveAutoCreate(now), names);
  return value === null ? null : { level: levelToChange(now), before: now, value, names: [...names] };
}

function settingCheck(level: SettingLevel, expected: string | null, what: string): MutationPlan['verify'] {
  return {
    path: '/_cluster/settings',
    querystring: { flat_settings: 'true' },
    check(body) {
      const now = (body as Record<SettingLevel, Record<string, string>> | undefined)?.[level]?.[AUTO_CREATE] ?? null;
      return now === expected
        ? { ok: true, message: what }
        : {
            ok: false,
            message: `${AUTO_CREATE} (${level}) is ${now === null ? 'unset' : now}, not ${expected === null ? 'unset' : expected}`,
          };
    },
  };
}

export function holdNamePlan(h: NameHold): MutationPlan {
  return {
    method: 'PUT',
    path: '/_cluster/settings',
    querystring: { flat_settings: 'true' },
    body: { [h.level]: { [AUTO_CREATE]: h.value } },
    risk: 'reversible',
    target: 'cluster settings',
    summary: `keep ${h.names.join(', ')} from being auto-created by a write while the name is free: ${AUTO_CREATE} ${h.before[h.level] ?? 'unset'} -> ${h.value} (${h.level}; put back afterwards)`,
    verify: settingCheck(h.level, h.value, `${AUTO_CREATE} now forbids ${h.names.join(', ')}`),
  };
}

export function releaseNamePlan(h: NameHold): MutationPlan {
  const back = h.before[h.level];
  return {
    method: 'PUT',
    path: '/_cluster/settings',
    querystring: { flat_settings: 'true' },
    body: { [h.level]: { [AUTO_CREATE]: back } },
    risk: 'reversible',
    target: 'cluster settings',
    summary: `put ${AUTO_CREATE} back: ${h.value} -> ${back ?? 'unset'} (${h.level})`,
    verify: settingCheck(h.level, back, `${AUTO_CREATE} is back to ${back ?? 'unset'}`),
  };
}

/**
 * Whether the hold is still in force (the value at its level is the one set), put back already,
 * or changed by someone else since (then shardeck leaves it as it is and says so).
 */
export function holdState(h: NameHold, now: AutoCreateValues): 'held' | 'released' | 'changed' {
  const v = now[h.level];
  if (v === h.value) return 'held';
  if (v === h.before[h.level]) return 'released';
  return 'changed';
}
