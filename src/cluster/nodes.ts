// The nodes' own facts (paths, JVM, process id) that the corruption checklist is planned from, and
// the node statistics of the Nodes pane and `shardeck nodes`.
import { parseNodeFacts, type NodeFacts } from '../domain/corruption/node';
import type { NodeJvmArgs, NodeStats } from '../domain/node-stats';
import { getJson, read, type EsTransport } from './connection';
import { RESOURCES } from './resources';

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
    /** Heap, GC, fielddata, RAM, load, CPU and data paths of every node (the Nodes pane's read). */
    async nodeStats(): Promise<NodeStats[]> {
      return RESOURCES.nodeStats.parse((await read(es, RESOURCES.nodeStats.request)).body);
    },
    /** -Xms / -Xmx of every node, from its JVM input arguments. */
    async nodeJvmArgs(): Promise<NodeJvmArgs[]> {
      return RESOURCES.nodeJvm.parse((await read(es, RESOURCES.nodeJvm.request)).body);
    },
  };
}
