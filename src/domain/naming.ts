// Index naming of the platform: one index per project, service_<template-version>_<lowercase-project-id>.

export const DEFAULT_TEMPLATE_VERSION = 'v9';

/** The lowercase project id behind an index name, or null when the index is not a project's. */
export function projectIdOfIndex(index: string, templateVersion = DEFAULT_TEMPLATE_VERSION): string | null {
  const prefix = `service_${templateVersion}_`;
  if (!index.startsWith(prefix)) return null;
  const id = index.slice(prefix.length);
  // service_v9_filter is a template name; an index suffix is the project id, never empty.
  return id.length > 0 ? id : null;
}

export function indexOfProject(projectId: string, templateVersion = DEFAULT_TEMPLATE_VERSION): string {
  return `service_${templateVersion}_${projectId.toLowerCase()}`;
}

/** Characters Elasticsearch refuses in an index name (a space, not every white space: a tab or a
 *  line break is accepted by the node, so an index can hold one and must stay reachable). */
export const NOT_IN_INDEX_NAMES = /[ "\\/<>|#]/;
