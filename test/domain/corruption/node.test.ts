// The holder's node facts, and whether it is the Elasticsearch of this host.
import { describe, expect, it } from 'vitest';
import {
  elsewhereRefusal,
  isElasticsearchCmdline,
  judgeLocality,
  newestSegmentsFile,
  parseNodeFacts,
  parseStateNodeId,
  shardFolder,
} from '../../../src/domain/corruption/node';
import { binaryFixture, fixture } from './fixtures';

describe('node facts', () => {
  it('finds the shard folder from path.data and the index UUID', () => {
    const [n] = parseNodeFacts(JSON.parse(fixture('nodes.json')));
    expect(n.dataPaths).toEqual(['/var/cache/shardeck-dev/nodes/corrupt-exp-9RSQQv/data']);
    expect(shardFolder(n.dataPaths[0] + '/', 'Et2mmERuQl-Ypp0baJN6pA', 0)).toBe(
      '/var/cache/shardeck-dev/nodes/corrupt-exp-9RSQQv/data/indices/Et2mmERuQl-Ypp0baJN6pA/0',
    );
  });
});

describe("is the shard's node the Elasticsearch of this host", () => {
  // Recorded from a real 8.19.21 node whose id is z5wDUmkVS0aqSGs91RB3pQ: <path.data>/_state/segments_a and node-0.st.
  it('reads the node id Elasticsearch writes under path.data/_state (Lucene commit and node-N.st)', () => {
    expect(parseStateNodeId(binaryFixture('state-segments'))).toBe('z5wDUmkVS0aqSGs91RB3pQ');
    expect(parseStateNodeId(binaryFixture('state-node-0.st'))).toBe('z5wDUmkVS0aqSGs91RB3pQ');
    expect(parseStateNodeId('no id here')).toBeNull();
    expect(newestSegmentsFile(['_6.cfs', 'segments_9', 'segments_a', 'segments_2', 'write.lock'])).toBe('segments_a');
    expect(newestSegmentsFile(['segments_z', 'segments_10'])).toBe('segments_10');
  });

  it('knows an Elasticsearch server JVM by its main module', () => {
    const es = [
      '/usr/lib/jvm/java-17-openjdk-amd64/bin/java',
      '-Xms512m',
      '-m',
      'org.elasticsearch.server/org.elasticsearch.bootstrap.Elasticsearch',
      '',
    ].join('\0');
    expect(isElasticsearchCmdline(es)).toBe(true);
    // The CLI launcher that starts the server is not it; neither is a shell that names it in a string.
    expect(isElasticsearchCmdline(['java', '-cp', 'lib/*', 'org.elasticsearch.launcher.CliToolLauncher'].join('\0'))).toBe(false);
    expect(isElasticsearchCmdline(['bash', '-c', 'echo org.elasticsearch.bootstrap.Elasticsearch is'].join('\0'))).toBe(false);
  });

  const holder = { id: 'HOLDERxxxxxxxxxxxxxxxx', name: 'es-a', dataPaths: ['/var/lib/elasticsearch'], pid: 4242, host: 'storage-a' };
  const here = { path: '/var/lib/elasticsearch', nodeId: holder.id, shardFolderExists: true, lockedByPid: true };

  it('runs only when the folder, the node id under path.data and the running process all point at the holder', () => {
    expect(judgeLocality(holder, { pidIsElasticsearch: true, dataPaths: [here] })).toEqual({
      ok: true,
      dataPath: '/var/lib/elasticsearch',
    });
    const no = (view: Parameters<typeof judgeLocality>[1]) => {
      const l = judgeLocality(holder, view);
      return l.ok ? 'ok' : l.reason;
    };
    // Another storage node with the same layout: its own data, its own node id.
    expect(no({ pidIsElasticsearch: true, dataPaths: [{ ...here, nodeId: 'OTHERyyyyyyyyyyyyyyyyy' }] })).toMatch(
      /belongs to node id OTHERyyyyyyyyyyyyyyyyy, not to node es-a/,
    );
    expect(no({ pidIsElasticsearch: true, dataPaths: [{ ...here, shardFolderExists: false }] })).toMatch(/does not exist on this host/);
    expect(no({ pidIsElasticsearch: true, dataPaths: [{ ...here, nodeId: null }] })).toMatch(/names no node id/);
    // The reported pid is from another host (or pid namespace): here it is nothing, or something else.
    expect(no({ pidIsElasticsearch: null, dataPaths: [here] })).toMatch(/no process 4242 runs on this host/);
    expect(no({ pidIsElasticsearch: false, dataPaths: [here] })).toMatch(/process 4242 on this host is not Elasticsearch/);
    // An Elasticsearch with that pid here, but another one: it does not hold this data's lock.
    expect(no({ pidIsElasticsearch: true, dataPaths: [{ ...here, lockedByPid: false }] })).toMatch(
      /does not hold \/var\/lib\/elasticsearch\/node.lock/,
    );
    expect(no({ pidIsElasticsearch: true, dataPaths: [{ ...here, lockedByPid: null }] })).toMatch(/run shardeck as root/);
    expect(judgeLocality(null, null).ok).toBe(false);
    expect(judgeLocality({ ...holder, pid: undefined }, { pidIsElasticsearch: null, dataPaths: [here] }).ok).toBe(false);
  });

  it('says which node and host hold the shard and where to run shardeck instead', () => {
    const text = elsewhereRefusal('service_v9_abc', 0, holder, 'no process 4242 runs on this host', 'es-b');
    expect(text).toBe(
      "the corrupt copy of service_v9_abc shard 0 is on node es-a on host storage-a, not on this host's Elasticsearch (node es-b): no process 4242 runs on this host; run shardeck recover-corrupt on storage-a, the host of node es-a, as root; nothing was run",
    );
  });
});
