// The nodes' own facts (paths, JVM, process id) that the corruption checklist is planned from, and
// the JVM arguments, thread-pool sizes and hot threads of the Nodes pane and `shardeck nodes`.
import { hasPrivilegesBody, missingPrivileges, ROLES } from '../domain/privileges';
import { parseNodeFacts, type NodeFacts } from '../domain/corruption/node';
import type { NodeJvmArgs } from '../domain/nodes/node-stats';
import { parseQueueSizes, THREAD_POOL_QUEUE_FILTER } from '../domain/doctor/pressure';
import { DOCTOR_NODE_FILTER, parseCertificates, parseDoctorNodes, type DoctorNode } from '../domain/doctor/node';
import type { Certificate } from '../domain/doctor/versions';
import { parseHotThreads, type HotNode, type HotThreadsOptions } from '../domain/nodes/hot-threads';
import { getJson, postJson, read, type EsTransport } from './connection';
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
    /** Each node's configured write/search/get queue sizes (the doctor's "queue full" rule; they change only with a restart). */
    async threadPoolQueueSizes(): Promise<Record<string, Record<string, number>>> {
      return parseQueueSizes(await getJson(es, '/_nodes/thread_pool', { filter_path: THREAD_POOL_QUEUE_FILTER }));
    },
    /** -Xms / -Xmx of every node, from its JVM input arguments. */
    async nodeJvmArgs(): Promise<NodeJvmArgs[]> {
      return RESOURCES.nodeJvm.parse((await read(es, RESOURCES.nodeJvm.request)).body);
    },
    /**
     * GET _nodes/<id>/hot_threads (every node when `node` is null): plain text, parsed. The node
     * samples for the interval before it answers; asked only when the operator asks for it.
     */
    async hotThreads(node: string | null, o: HotThreadsOptions): Promise<HotNode[]> {
      const path = node === null ? '/_nodes/hot_threads' : `/_nodes/${encodeURIComponent(node)}/hot_threads`;
      const querystring = { threads: String(o.threads), interval: o.interval, type: o.type };
      return parseHotThreads(String((await read<string>(es, { method: 'GET', path, querystring })).body ?? ''), o.type);
    },
    /** What the doctor checks of each node: version, paths, heap, JVM arguments, HTTP TLS, and RAM. */
    async doctorNodes(): Promise<DoctorNode[]> {
      const [info, os] = await Promise.all([
        getJson(es, '/_nodes/settings,jvm,process', { filter_path: DOCTOR_NODE_FILTER }),
        getJson(es, '/_nodes/stats/os', { filter_path: 'nodes.*.os.mem.total_in_bytes' }),
      ]);
      return parseDoctorNodes(info, os);
    },
    /**
     * Which privileges of the watcher and operator roles (domain/privileges.ts) the current user
     * lacks, from _security/user/_has_privileges; null when the node has no security (every user
     * may do everything) or does not answer it.
     */
    async missingPrivileges(): Promise<{ user: string; missing: Record<keyof typeof ROLES, string[]> } | null> {
      const out = {} as Record<keyof typeof ROLES, string[]>;
      let user = '';
      try {
        for (const role of Object.keys(ROLES) as (keyof typeof ROLES)[]) {
          const answer = await postJson(es, '/_security/user/_has_privileges', hasPrivilegesBody(ROLES[role]));
          user = String(answer.username ?? '');
          out[role] = missingPrivileges(answer);
        }
      } catch {
        return null;
      }
      return { user, missing: out };
    },
    /** The node's TLS certificates and their expiry; null when it has no such API (security off). */
    async sslCertificates(): Promise<Certificate[] | null> {
      try {
        return parseCertificates(await getJson(es, '/_ssl/certificates'));
      } catch {
        return null;
      }
    },
  };
}
