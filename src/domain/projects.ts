// Platform projects and the indices behind them: one index per project, named
// service_<template-version>_<lowercase project id> (seed, "Index"). Pure: no network, no fs.
import { DEFAULT_TEMPLATE_VERSION, indexOfProject, projectIdOfIndex } from './naming';

export interface PlatformProject {
  id: string;
  name: string;
}

export class ProjectsFormatError extends Error {
  constructor(what: string) {
    super(`the platform's project list is not in the expected shape (${what}): expected a JSON array of {"id", "name"}`);
    this.name = 'ProjectsFormatError';
  }
}

/**
 * Reads GET /api/topic/v0/{tenant}/projects. The seed does not show the body; the reference server
 * (dev/platform-server.mjs) answers [{"id","name"}]: that is our assumption, written down there.
 * A project without a name is shown by its id.
 */
export function parseProjects(body: unknown): PlatformProject[] {
  if (!Array.isArray(body)) throw new ProjectsFormatError(body === null ? 'null' : typeof body);
  return body.map((p, i) => {
    const id = (p as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || id === '') throw new ProjectsFormatError(`entry ${i} has no string "id"`);
    const name = (p as { name?: unknown }).name;
    return { id, name: typeof name === 'string' && name !== '' ? name : id };
  });
}

/** Project names by lowercase project id (the index name suffix), for the Indices pane. */
export function projectNamesById(projects: PlatformProject[]): Record<string, string> {
  return Object.fromEntries(projects.map((p) => [p.id.toLowerCase(), p.name]));
}

export interface IndexName {
  name: string;
  /** Hidden or system indices never belong to a project. */
  system?: boolean;
}

export interface ProjectIndexReport {
  templateVersion: string;
  /** Every project with the index that should hold its data and whether that index exists. */
  projects: (PlatformProject & { index: string; indexExists: boolean })[];
  /** Projects whose index does not exist on the storage node. */
  projectsWithoutIndex: string[];
  /** Indices named like a project's (service_<version>_<id>) whose project the platform does not know. */
  indicesWithoutProject: string[];
}

/**
 * Matches the tenant's projects to the node's indices, both ways. Indices with other names
 * (system indices, another template version, anything not service_<version>_*) are not the
 * platform's project indices and are left out of both lists.
 */
export function matchProjectsToIndices(
  projects: PlatformProject[],
  indices: IndexName[],
  templateVersion = DEFAULT_TEMPLATE_VERSION,
): ProjectIndexReport {
  const existing = new Set(indices.filter((i) => !i.system).map((i) => i.name));
  const known = new Set(projects.map((p) => p.id.toLowerCase()));
  const rows = projects.map((p) => {
    const index = indexOfProject(p.id, templateVersion);
    return { ...p, index, indexExists: existing.has(index) };
  });
  const indicesWithoutProject = [...existing]
    .filter((name) => {
      const id = projectIdOfIndex(name, templateVersion);
      return id !== null && !known.has(id);
    })
    .sort();
  return {
    templateVersion,
    projects: rows,
    projectsWithoutIndex: rows.filter((r) => !r.indexExists).map((r) => r.id),
    indicesWithoutProject,
  };
}
