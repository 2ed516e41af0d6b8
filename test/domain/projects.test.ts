import { describe, expect, it } from 'vitest';
import { matchProjectsToIndices, parseProjects, projectNamesById, ProjectsFormatError } from '../../src/domain/projects';

describe('parseProjects', () => {
  it('reads the list of {id, name}, falling back to the id for a missing name', () => {
    expect(parseProjects([{ id: 'Alpha', name: 'Alpha storefront' }, { id: 'KB' }])).toEqual([
      { id: 'Alpha', name: 'Alpha storefront' },
      { id: 'KB', name: 'KB' },
    ]);
  });

  it('refuses bodies of another shape with one sentence', () => {
    expect(() => parseProjects({ projects: [] })).toThrow(ProjectsFormatError);
    expect(() => parseProjects(null)).toThrow(/expected a JSON array of \{"id", "name"\}/);
    expect(() => parseProjects([{ name: 'no id' }])).toThrow(/entry 0 has no string "id"/);
    expect(() => parseProjects(null)).toThrow(
      `the platform's project list is not in the expected shape (null): expected a JSON array of {"id", "name"}`,
    );
    expect(() => parseProjects({})).toThrow('(object)');
    expect(() => parseProjects('x')).toThrow('(string)');
    expect(() => parseProjects([{ id: 'a' }, { id: '' }])).toThrow('entry 1 has no string "id"');
    expect(() => parseProjects([null])).toThrow('entry 0 has no string "id"');
    try {
      parseProjects(7);
    } catch (e) {
      expect((e as Error).name).toBe('ProjectsFormatError');
    }
    expect.assertions(9);
  });

  it('an empty or non-string name falls back to the id', () => {
    expect(
      parseProjects([
        { id: 'A', name: '' },
        { id: 'B', name: 5 },
      ]),
    ).toEqual([
      { id: 'A', name: 'A' },
      { id: 'B', name: 'B' },
    ]);
  });
});

describe('projectNamesById', () => {
  it('keys names by the lowercase id the index name ends with', () => {
    expect(projectNamesById([{ id: 'KB', name: 'Knowledge base' }])).toEqual({ kb: 'Knowledge base' });
  });
});

describe('matchProjectsToIndices', () => {
  const projects = [
    { id: 'Alpha', name: 'Alpha storefront' },
    { id: 'KB', name: 'Knowledge base' },
    { id: 'Zulu', name: 'Zulu pilot' },
  ];
  const indices = [
    { name: 'service_v9_alpha' },
    { name: 'service_v9_kb' },
    { name: 'service_v9_legacy' },
    { name: 'service_v8_old' },
    { name: 'logs-2026' },
    { name: '.security-7', system: true },
  ];

  it('finds the index behind each project and flags orphans both ways', () => {
    const r = matchProjectsToIndices(projects, indices);
    expect(r.templateVersion).toBe('v9');
    expect(r.projects).toEqual([
      { id: 'Alpha', name: 'Alpha storefront', index: 'service_v9_alpha', indexExists: true },
      { id: 'KB', name: 'Knowledge base', index: 'service_v9_kb', indexExists: true },
      { id: 'Zulu', name: 'Zulu pilot', index: 'service_v9_zulu', indexExists: false },
    ]);
    expect(r.projectsWithoutIndex).toEqual(['Zulu']);
    // Only project-shaped names of this template version count as orphans.
    expect(r.indicesWithoutProject).toEqual(['service_v9_legacy']);
  });

  it('uses the configured template version', () => {
    const r = matchProjectsToIndices(projects, indices, 'v8');
    expect(r.projectsWithoutIndex).toEqual(['Alpha', 'KB', 'Zulu']);
    expect(r.indicesWithoutProject).toEqual(['service_v8_old']);
  });

  it('lists the orphan indices sorted, whatever order the node gave', () => {
    const r = matchProjectsToIndices([], [{ name: 'service_v9_zz' }, { name: 'service_v9_aa' }, { name: 'service_v9_mm' }]);
    expect(r.indicesWithoutProject).toEqual(['service_v9_aa', 'service_v9_mm', 'service_v9_zz']);
  });

  it('never matches a system index', () => {
    const r = matchProjectsToIndices([{ id: 'x', name: 'X' }], [{ name: 'service_v9_x', system: true }]);
    expect(r.projectsWithoutIndex).toEqual(['x']);
  });
});
