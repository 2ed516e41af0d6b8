// The project behind an index is found only for a name that STARTS with the template's prefix
// (issue 43 item 7): a name that merely contains service_v9_ (a restored copy, a backup, another
// tool's index) is no project's, so it is not reported as an orphan project index, nor asks for a
// project's name to be typed before it is deleted.
import { describe, expect, it } from 'vitest';
import { projectIdOfIndex } from '../../src/domain/naming';
import { matchProjectsToIndices } from '../../src/domain/projects';
import { deleteConfirmText, parseIndexFacts } from '../../src/domain/maintenance/index-admin';

const indexFacts = (names: string[]) =>
  parseIndexFacts(
    names.map((index) => ({ index, status: 'open' })),
    {},
    () => null,
  );

const CONTAINING = ['restored_service_v9_alpha', 'x-service_v9_alpha', 'backup.service_v9_alpha', 'service_service_v9_alpha'];

describe('the project behind an index: the template prefix at the start only', () => {
  it.each(CONTAINING)('%s is no project index', (name) => {
    expect(projectIdOfIndex(name)).toBeNull();
  });

  it('the prefix at the start: the rest is the project id (also for another template version)', () => {
    expect(projectIdOfIndex('service_v9_alpha')).toBe('alpha');
    expect(projectIdOfIndex('service_v9_service_v9_a')).toBe('service_v9_a');
    expect(projectIdOfIndex('service_v10_alpha', 'v10')).toBe('alpha');
    expect(projectIdOfIndex('service_v10_alpha')).toBeNull();
    expect(projectIdOfIndex('xservice_v10_alpha', 'v10')).toBeNull();
  });

  it('an index that only contains the prefix is not an orphan project index', () => {
    const r = matchProjectsToIndices(
      [],
      [...CONTAINING, 'service_v9_beta'].map((name) => ({ name, system: false })),
    );
    expect(r.indicesWithoutProject).toEqual(['service_v9_beta']);
  });

  it("deleting one asks for the count only, not a project's name", () => {
    expect(deleteConfirmText(indexFacts(['restored_service_v9_alpha', 'service_v9_beta']))).toBe('2 service_v9_beta');
  });
});
