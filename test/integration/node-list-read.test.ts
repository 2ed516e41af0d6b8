// The node list every pane but Indices polls (issue 45 item 3): read from the nodes' info and the
// cluster state's master instead of _cat/nodes, which works out every index statistic of every
// shard of each node to answer. Against a real node: the same id, name, address, version, roles
// and master as _cat/nodes gives, and no read of the console sends _cat/nodes any more.
import { beforeAll, describe, expect, it } from 'vitest';
import { createEsApi } from '../../src/cluster/api';
import { createClient } from '../../src/cluster/connection';
import { RESOURCES, requestsOf } from '../../src/cluster/resources';
import { esCall } from '../helpers/real-node';
import { sharedNode, type SharedNode } from '../helpers/shared-node';

let node: SharedNode;

beforeAll(async () => {
  node = await sharedNode();
}, 180_000);

describe('the node list', () => {
  it('says what _cat/nodes said of each node: id, name, ip, version, role letters, master', async () => {
    const es = createEsApi(createClient({ url: node.url }), node.url);
    const { data } = await es.resource('nodes');
    const cat = (await esCall(node.url, 'GET', '/_cat/nodes?format=json&full_id=true&h=id,name,ip,version,node.role,master'))
      .body as Record<string, string>[];
    expect(cat).toHaveLength(1);
    expect(data).toEqual(
      cat.map((r) => ({ id: r.id, name: r.name, ip: r.ip, version: r.version, roles: r['node.role'], master: r.master === '*' })),
    );
    expect(data[0]).toMatchObject({ name: node.name, master: true });
  });

  it('no polled read and not the version check asks _cat/nodes', () => {
    const paths = (Object.keys(RESOURCES) as (keyof typeof RESOURCES)[]).flatMap((name) => requestsOf(name).map((q) => q.path));
    expect(paths.filter((p) => p.startsWith('/_cat/nodes'))).toEqual([]);
  });
});
