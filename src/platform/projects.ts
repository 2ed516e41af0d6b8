// The tenant's projects: GET /api/topic/v0/{tenant}/projects (seed, "Authenticated requests").
import { parseProjects, ProjectsFormatError, type PlatformProject } from '../domain/projects';
import { PlatformError, type PlatformSignIn } from './sign-in';

export function projectsPath(tenant: string): string {
  return `/api/topic/v0/${encodeURIComponent(tenant)}/projects`;
}

/** Signs in first when needed (the tenant comes from the session record). */
export async function fetchProjects(platform: PlatformSignIn): Promise<PlatformProject[]> {
  const tenant = (platform.info ?? (await platform.signIn())).tenant;
  const body = await platform.getJson(projectsPath(tenant));
  try {
    return parseProjects(body);
  } catch (e) {
    if (e instanceof ProjectsFormatError) throw new PlatformError('bad-response', e.message);
    throw e;
  }
}
