// Reads about planned work on the cluster: the deprecation issues of the next major
// (_migration/deprecations), and the shutdown records an orchestrator left (_nodes/shutdown). Each
// answers what is there, or why the node cannot say (a module it does not have), never a guess.
import { deprecationsApiMissing, parseDeprecationsInfo, type DeprecationIssue } from '../domain/inspect/deprecations';
import { balanceUnsupported, parseDesiredBalance, type DesiredBalance } from '../domain/nodes/balance';
import { parseShutdownRecords, type ShutdownRecord } from '../domain/maintenance/shutdown';
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
    /**
     * The whole desired balance (8.6+; the caller checks the version first). Needs the cluster
     * privilege `manage` (cluster:admin/desired_balance/get): a 403 rejects with the sentence naming it.
     * An older node's answer (400 "no handler", 404, 405) rejects as 'unsupported' with the version sentence.
     */
    async desiredBalance(version?: string): Promise<DesiredBalance> {
      try {
        return parseDesiredBalance(await getJson(es, '/_internal/desired_balance'));
      } catch (e) {
        const old = e instanceof ConnError ? balanceUnsupported(e.status, e.esReason, version) : null;
        if (old) throw new ConnError('unsupported', old, (e as ConnError).status);
        throw e;
      }
    },
    /**
     * The node shutdown records an orchestrator left (GET _nodes/shutdown). Never fails: a node
     * without the shutdown module (it reads the path as node-info of a node named "shutdown"), a
     * missing privilege or any error gives none, silently: these records are a hint, not a read
     * anything depends on.
     */
    async shutdownRecords(): Promise<ShutdownRecord[]> {
      try {
        return parseShutdownRecords(await getJson(es, '/_nodes/shutdown'));
      } catch {
        return [];
      }
    },
  };
}
