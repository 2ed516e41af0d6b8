// Reads for everyday administration (issue 43): the cluster settings with their defaults and each
// node's own settings, the indices a pattern matches with what the preview shows of them, aliases.
import { parseClusterSettings, type ClusterSettingsFacts } from '../domain/cluster-settings';
import { getJson, type EsTransport } from './connection';

export function adminApi(es: EsTransport) {
  return {
    /** Every cluster setting set (persistent, transient), the defaults, and what each node's file sets. */
    async clusterSettingsFacts(): Promise<ClusterSettingsFacts> {
      const [settings, nodes] = await Promise.all([
        getJson(es, '/_cluster/settings', { include_defaults: 'true', flat_settings: 'true' }),
        getJson(es, '/_nodes/settings', { filter_path: 'nodes.*.name,nodes.*.settings' }),
      ]);
      return parseClusterSettings(settings, nodes);
    },
  };
}
