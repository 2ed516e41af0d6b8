// shardeck projects [--json]: the tenant's platform projects and, when the storage node answers,
// the index behind each (service_<template-version>_<lowercase id>), projects without an index and
// project-like indices without a project.
import { DEFAULT_TEMPLATE_VERSION } from '../domain/naming';
import { countOf } from '../domain/text/format';
import { displayText } from '../domain/text/display-text';
import { matchProjectsToIndices, type IndexName, type PlatformProject, type ProjectIndexReport } from '../domain/projects';
import { fetchProjects } from '../platform/projects';
import { createEsApi } from '../cluster/api';
import { openConnection } from './support/common';
import type { CommandModule } from './support/common';
import { paint } from './support/paint';
import { reportPlatformError, signInOfFlags } from './support/platform-common';
import { out } from './support/output';

export type Storage = { reachable: true; url: string } | { reachable: false; error: string };

/** The node's index names, or why they could not be read (the project list stands on its own). */
async function readIndices(values: Record<string, unknown>): Promise<{ storage: Storage; indices?: IndexName[] }> {
  try {
    const { client, conn, where } = await openConnection(values as never);
    try {
      const data = await createEsApi(client, conn.url).data('indices');
      return { storage: { reachable: true, url: where }, indices: data };
    } finally {
      await client.close();
    }
  } catch (e) {
    return { storage: { reachable: false, error: (e as Error).message } };
  }
}

/** The projects as text lines: ids, names, index names and the storage error escaped where put into their line. */
export function projectsText(tenant: string, projects: PlatformProject[], storage: Storage, report?: ProjectIndexReport): string {
  const out: string[] = [];
  const t = displayText;
  if (!report) {
    out.push(`${countOf(projects.length, 'project')} of tenant ${t(tenant)}`);
    const w = Math.max(2, ...projects.map((p) => t(p.id).length));
    for (const p of projects) out.push(`  ${t(p.id).padEnd(w)}  ${t(p.name)}`);
    if (!storage.reachable) out.push(paint('yellow', `indices not checked: ${t(storage.error)}`));
    return out.join('\n') + '\n';
  }
  out.push(
    `${projects.length} project(s) of tenant ${t(tenant)}; indices service_${t(report.templateVersion)}_<id> on ${t((storage as { url: string }).url)}`,
  );
  const wId = Math.max(2, ...report.projects.map((p) => t(p.id).length));
  const wIndex = Math.max(5, ...report.projects.map((p) => t(p.index).length));
  out.push(`  ${'ID'.padEnd(wId)}  ${'INDEX'.padEnd(wIndex)}  NAME`);
  for (const p of report.projects) {
    const index = p.indexExists ? t(p.index).padEnd(wIndex) : paint('yellow', `${t(p.index)} (none)`.padEnd(wIndex));
    out.push(`  ${t(p.id).padEnd(wId)}  ${index}  ${t(p.name)}`);
  }
  if (report.projectsWithoutIndex.length)
    out.push(paint('yellow', `projects without an index: ${report.projectsWithoutIndex.map(t).join(', ')}`));
  if (report.indicesWithoutProject.length)
    out.push(paint('yellow', `indices of no known project: ${report.indicesWithoutProject.map(t).join(', ')}`));
  return out.join('\n') + '\n';
}

const projects: CommandModule = {
  summary:
    "The tenant's platform projects and the storage index behind each (flags projects without an index and indices without a project).",
  usage: 'usage: shardeck projects [--json] [--profile NAME] [connection flags]',
  group: 'platform',
  flagHelp: {},
  examples: ['shardeck projects', 'shardeck projects --json'],
  async run({ values }) {
    const { profile, platform } = signInOfFlags(values);
    let list: PlatformProject[];
    try {
      list = await fetchProjects(platform);
    } catch (e) {
      return reportPlatformError('projects', e, Boolean(values.json));
    }
    const tenant = platform.info!.tenant;
    const templateVersion = profile?.templateVersion ?? DEFAULT_TEMPLATE_VERSION;
    const { storage, indices } = await readIndices(values);
    const report = indices ? matchProjectsToIndices(list, indices, templateVersion) : undefined;
    if (values.json) {
      const body = report ? { tenant, storage, ...report } : { tenant, storage, templateVersion, projects: list };
      out(JSON.stringify(body, null, 2) + '\n');
    } else {
      out(projectsText(tenant, list, storage, report));
    }
    return 0;
  },
};

export default projects;
