// The facade asks the cluster's version once (the nodes' info, the oldest node), refuses a major it does
// not know, and never sends a read the version lacks. A fake transport stands in for the node.
import { describe, expect, it } from 'vitest';
import { createEsApi } from '../../src/cluster/api';
import { readStatus } from '../../src/services/status';

function fakeNode(versions: string[]) {
  const paths: string[] = [];
  const client = {
    transport: {
      request(req: { path: string }, opts?: { meta?: boolean }) {
        paths.push(req.path);
        const body =
          req.path === '/_nodes/_all/_none'
            ? { nodes: Object.fromEntries(versions.map((version, i) => [`n${i}`, { version }])) }
            : req.path === '/_cluster/health'
              ? { cluster_name: 'c', status: 'green', number_of_nodes: versions.length, number_of_data_nodes: 1 }
              : {};
        return Promise.resolve(opts?.meta ? { body, headers: {}, statusCode: 200 } : body);
      },
    },
  };
  return { es: createEsApi(client as never, 'http://x:9200'), paths };
}

describe('version at connect', () => {
  it('is the oldest node of a fleet mid-upgrade, asked once', async () => {
    const { es, paths } = fakeNode(['8.19.21', '8.6.2']);
    expect((await es.checkVersion())?.text).toBe('8.6.2');
    await es.version();
    expect(paths.filter((p) => p === '/_nodes/_all/_none')).toHaveLength(1);
    // Never _cat/nodes: it works out every index statistic of every shard to answer.
    expect(paths).not.toContain('/_cat/nodes');
  });

  it('a read the version lacks is refused without a request: health report on 8.6', async () => {
    const { es, paths } = fakeNode(['8.6.2']);
    await expect(es.resource('healthReport')).rejects.toMatchObject({
      kind: 'unsupported',
      message: expect.stringContaining('needs Elasticsearch 8.7 or newer'),
    });
    await expect(es.healthDiagnoses('disk')).rejects.toMatchObject({ kind: 'unsupported' });
    expect(paths).not.toContain('/_health_report');
  });

  it('a 9.x node is refused with one sentence: status says so as its one error', async () => {
    const { es } = fakeNode(['9.1.0']);
    await expect(es.checkVersion()).rejects.toMatchObject({
      kind: 'unsupported',
      message: expect.stringMatching(/^this node runs Elasticsearch 9\.1\.0: shardeck is built and tested for Elasticsearch 8\.x/),
    });
    const report = await readStatus(es);
    expect(report).toMatchObject({ reachable: false, status: 'unknown', error: { kind: 'unsupported' } });
  });
});
