// Force merge after a delete: its plan and the room it needs.
import { describe, expect, it } from 'vitest';
import { forcemergePlan, judgeMergeSpace } from '../../src/domain/maintenance/merge';

describe('merge plan', () => {
  it('the merge only expunges deletes, as a task', () => {
    expect(forcemergePlan('service_v9_*')).toMatchObject({
      path: '/service_v9_*/_forcemerge',
      querystring: { only_expunge_deletes: 'true', wait_for_completion: 'false' },
    });
  });
});

describe('merge space', () => {
  it('refuses past the high watermark, warns when the largest index exceeds the headroom', () => {
    const t = [{ index: 'a', docsDeleted: 5, storeBytes: 1000 }];
    expect(judgeMergeSpace(t, [{ node: 'n1', level: 'high', headroomToHighBytes: 0 }]).refuse).toMatch(
      /n1 is past the high disk watermark/,
    );
    expect(judgeMergeSpace(t, [{ node: 'n1', level: 'low', headroomToHighBytes: 500 }])).toEqual({
      warnings: [expect.stringMatching(/n1 has less room/)],
    });
    expect(judgeMergeSpace(t, [{ node: 'n1', level: 'ok', headroomToHighBytes: 5000 }])).toEqual({ warnings: [] });
  });
});
