// The doctor's own settings (issue 41): how long a search or another task may run before it is
// long (--long-search 60s, --long-task 10m) and how recent each index's last successful snapshot
// must be (--snapshot-every 24h; off when unset). A flag wins over the profile's key
// (doctorLongSearch, doctorLongTask, doctorSnapshotEvery in the profile's entry of config.json),
// which wins over the default. Pure.
import { DEFAULT_TASK_THRESHOLDS, parseDurationMs, type TaskThresholds } from './tasks';

export interface DoctorSettings {
  thresholds: TaskThresholds;
  snapshotPeriod?: { ms: number; source: string };
}

export interface DoctorSettingFlags {
  longSearch?: string;
  longTask?: string;
  snapshotEvery?: string;
}

/** The profile's keys for the flags. */
export const PROFILE_KEYS = { longSearch: 'doctorLongSearch', longTask: 'doctorLongTask', snapshotEvery: 'doctorSnapshotEvery' } as const;
const FLAGS = { longSearch: '--long-search', longTask: '--long-task', snapshotEvery: '--snapshot-every' } as const;

/** The settings from the flags and the profile, or the first value that is not a duration (named with where it came from). */
export function doctorSettings(
  flags: DoctorSettingFlags,
  profile?: Readonly<Record<string, unknown>>,
): { ok: true; value: DoctorSettings } | { ok: false; error: string } {
  const pick = (k: keyof typeof FLAGS): { text: string; source: string } | null => {
    if (flags[k] !== undefined) return { text: flags[k], source: FLAGS[k] };
    const v = profile?.[PROFILE_KEYS[k]];
    return typeof v === 'string' ? { text: v, source: `profile ${PROFILE_KEYS[k]}` } : null;
  };
  const out: DoctorSettings = { thresholds: { ...DEFAULT_TASK_THRESHOLDS, source: { longSearch: 'default', longTask: 'default' } } };
  for (const k of ['longSearch', 'longTask', 'snapshotEvery'] as const) {
    const given = pick(k);
    if (!given) continue;
    const ms = parseDurationMs(given.text);
    if (ms === null) return { ok: false, error: `${given.source} "${given.text}" is not a duration (e.g. 90s, 10m, 24h)` };
    if (k === 'snapshotEvery') out.snapshotPeriod = { ms, source: given.source };
    else {
      out.thresholds[k === 'longSearch' ? 'longSearchMs' : 'longTaskMs'] = ms;
      out.thresholds.source![k] = given.source;
    }
  }
  return { ok: true, value: out };
}
