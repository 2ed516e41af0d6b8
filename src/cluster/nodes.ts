// The nodes' own facts (paths, JVM, process id) that the corruption checklist is planned from.
import { parseNodeFacts, type NodeFacts } from '../domain/corruption/node';
import { getJson, type EsTransport } from './connection';

export function nodesApi(es: EsTransport) {
  return {
    async nodeFacts(): Promise<NodeFacts[]> {
      return parseNodeFacts(
        await getJson(es, '/_nodes/settings,jvm,process', {
          filter_path:
            'nodes.*.name,nodes.*.host,nodes.*.settings.path.data,nodes.*.settings.path.home,nodes.*.settings.path.logs,nodes.*.jvm.using_bundled_jdk,nodes.*.process.id',
        }),
      );
    },
  };
}
