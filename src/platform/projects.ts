// The tenant's projects: GET /api/topic/v0/{tenant}/projects (seed, "Authenticated requests").
import { parseProjects, ProjectsFormatError, type PlatformProject } from '../domain/projects';
import { PlatformError, type TokenSession } from './session';

export function projectsPath(tenant: string): string {
  return `/api/topic/v0/${encodeURIComponent(tenant)}/projects`;
}

/** Signs in first when needed (the tenant comes from the session record). */
export async function fetchProjects(session: TokenSession): Promise<PlatformProject[]> {
  const tenant = (session.info ?? (await session.signIn())).tenant;
  const body = await session.getJson(projectsPath(tenant));
  try {
    return parseProjects(body);
  } catch (e) {
    if (e instanceof ProjectsFormatError) throw new PlatformError('bad-response', e.message);
    throw e;
  }
}
