// Finds the node's search_curl wrapper: named in the profile (a path or a name on PATH), else
// `search_curl` on PATH. Only looked up, never run here.
import fs from 'node:fs';
import path from 'node:path';
import { SEARCH_CURL_FORMS, type SearchCurl, type SearchCurlForm } from '../domain/mutation/preview';
import { UsageError } from './files';

export const SEARCH_CURL = 'search_curl';

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A command name on PATH as its full path, or a path as given; undefined when not runnable. */
function locate(command: string): string | undefined {
  if (command.includes('/')) return executable(command) ? path.resolve(command) : undefined;
  for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean)) {
    const file = path.join(dir, command);
    if (executable(file)) return file;
  }
  return undefined;
}

export function parseSearchCurlForm(raw: string | undefined, where: string): SearchCurlForm {
  if (raw === undefined) return 'curl';
  if ((SEARCH_CURL_FORMS as readonly string[]).includes(raw)) return raw as SearchCurlForm;
  throw new UsageError(`${where} "${raw}" is not a search_curl argument form: use ${SEARCH_CURL_FORMS.join(' or ')}`);
}

/** The wrapper this connection can use, if any. A profile's wrapper that is missing is an error, not a silent fallback. */
export function findSearchCurl(profile: { searchCurl?: string; searchCurlForm?: string } | undefined): SearchCurl | undefined {
  const form = parseSearchCurlForm(profile?.searchCurlForm, "the profile's searchCurlForm");
  if (profile?.searchCurl) {
    const command = locate(profile.searchCurl);
    if (!command)
      throw new UsageError(
        `the profile's search_curl "${profile.searchCurl}" is not an executable file: fix it with shardeck profiles save NAME --search-curl PATH`,
      );
    return { command, form };
  }
  const onPath = locate(SEARCH_CURL);
  // Shown by name when it is the one on PATH: the line then runs as printed on this node.
  return onPath ? { command: SEARCH_CURL, form } : undefined;
}
