// The corruption checklist's restore route, as plain values: the newest finished snapshot holding
// the corrupt index, restored in place (typed name), offered before the lossy offline repair; none
// when no finished snapshot holds it. The restore of a corrupted index on a real node:
// test/integration/restore-corrupt.test.ts.
import { describe, expect, it } from 'vitest';
import { confirmationNeeded } from '../../src/domain/mutation/confirmation';
import { restoreRoute } from '../../src/domain/wizards/recovery';
import { restorePlans } from '../../src/domain/wizards/restore';

const held = [
  { repository: 'backups', snapshot: 'nightly-1', state: 'SUCCESS', endTime: '2026-11-24T01:00:03.120Z' },
  { repository: 'offsite', snapshot: 'weekly-9', state: 'SUCCESS', endTime: '2026-11-25T02:10:00.000Z' },
  { repository: 'backups', snapshot: 'nightly-0', state: 'PARTIAL', endTime: '2026-11-23T01:00:00.000Z' },
  { repository: 'backups', snapshot: 'running', state: 'IN_PROGRESS' },
];

describe('restoreRoute', () => {
  it('the newest finished snapshot holding the index, in place', () => {
    expect(restoreRoute('corrupt-exp', held)).toEqual({
      form: { repository: 'offsite', snapshot: 'weekly-9', indices: 'corrupt-exp', mode: 'replace', suffix: '-restored' },
      line: 'restore in place from offsite/weekly-9 of 2026-11-25 02:10 UTC (writes since are lost)',
    });
  });

  it('no finished snapshot holds it: no route (the lossy repair stays the only one offered)', () => {
    expect(restoreRoute('corrupt-exp', [])).toBeUndefined();
    expect(restoreRoute('corrupt-exp', [held[3]])).toBeUndefined();
  });

  it('its plans: delete the red index (closed, it keeps its shard locked), then restore it; both need the index name typed', () => {
    const route = restoreRoute('corrupt-exp', held)!;
    const snapshot = {
      repository: 'offsite',
      name: 'weekly-9',
      uuid: 'u',
      state: 'SUCCESS',
      indices: ['corrupt-exp'],
      dataStreams: [],
      includeGlobalState: false,
      shards: { total: 1, ok: 1, failed: 0 },
      failures: [],
    };
    const plans = restorePlans(route.form, {
      snapshot,
      indices: [{ index: 'corrupt-exp', target: 'corrupt-exp', existing: { status: 'open', health: 'red' } }],
    });
    expect(plans.map((p) => `${p.method} ${p.path}`)).toEqual(['DELETE /corrupt-exp', 'POST /_snapshot/offsite/weekly-9/_restore']);
    expect(plans[1].body).toEqual({ indices: 'corrupt-exp', include_global_state: false, include_aliases: true });
    for (const p of plans) expect(confirmationNeeded(p)).toEqual({ kind: 'type', expected: 'corrupt-exp' });
  });
});
