// Reads about planned work on the cluster: the deprecation issues of the next major
// (_migration/deprecations), and the shutdown records an orchestrator left (_nodes/shutdown). Each
// answers what is there, or why the node cannot say (a module it does not have), never a guess.
import { deprecationsApiMissing, parseDeprecationsInfo, type DeprecationIssue } from '../domain/deprecations';
import { ConnError, getJson, type EsTransport } from './connection';

export function upgradeApi(es: EsTransport) {
  return {
    /**
     * The issues of GET _migration/deprecations (needs the cluster privilege `manage`: a 403 rejects
     * with the sentence naming it), or `{ why }` when the node does not serve the API.
     */
    async deprecations(): Promise<DeprecationIssue[] | { why: string }> {
      try {
        return parseDeprecationsInfo(await getJson(es, '/_migration/deprecations'));
      } catch (e) {
        if (e instanceof ConnError && deprecationsApiMissing(e.status, e.esReason))
          return {
            why: `this node does not serve GET _migration/deprecations (answered ${e.status}: its x-pack deprecation module is not installed)`,
          };
        throw e;
      }
    },
  };
}
