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

describe('node facts and locality, plain values', () => {
  it('every fact a node reports, and none it does not', () => {
    expect(
      parseNodeFacts({
        nodes: {
          ID1: {
            name: 'es-a',
            host: '10.0.0.5',
            settings: { path: { data: ['/d1', '/d2'], home: '/usr/share/es', logs: '/var/log/es' } },
            process: { id: 4242 },
            jvm: { using_bundled_jdk: false },
          },
          ID2: { settings: { path: { data: '/only' } }, process: { id: '77' }, jvm: { using_bundled_jdk: 'yes' } },
          ID3: {},
        },
      }),
    ).toStrictEqual([
      {
        id: 'ID1',
        name: 'es-a',
        dataPaths: ['/d1', '/d2'],
        home: '/usr/share/es',
        logs: '/var/log/es',
        pid: 4242,
        bundledJdk: false,
        host: '10.0.0.5',
      },
      { id: 'ID2', name: 'ID2', dataPaths: ['/only'] },
      { id: 'ID3', name: 'ID3', dataPaths: [] },
    ]);
    expect(parseNodeFacts({})).toEqual([]);
  });

  it('the shard folder: one trailing slash or several are dropped, nothing else', () => {
    expect(shardFolder('/data//', 'U', 3)).toBe('/data/indices/U/3');
    expect(shardFolder('/data', 'U', 0)).toBe('/data/indices/U/0');
  });

  const holder = { id: 'HOLDERxxxxxxxxxxxxxxxx', name: 'es-a', dataPaths: ['/var/lib/elasticsearch'], pid: 4242, host: 'storage-a' };
  const here = { path: '/var/lib/elasticsearch', nodeId: holder.id, shardFolderExists: true, lockedByPid: true };
  const reason = (...a: Parameters<typeof judgeLocality>) => {
    const l = judgeLocality(...a);
    return l.ok ? 'ok' : l.reason;
  };

  it('each refusal in its words', () => {
    const view = { pidIsElasticsearch: true, dataPaths: [here] };
    expect(reason(null, view)).toBe('the cluster did not say which node holds the copy');
    expect(reason(holder, null)).toBe('the cluster did not say which node holds the copy');
    expect(reason({ ...holder, dataPaths: [] }, view)).toBe(
      'node es-a (id HOLDERxxxxxxxxxxxxxxxx, pid 4242) did not report its path.data and pid',
    );
    expect(reason({ ...holder, pid: undefined }, view)).toBe('node es-a (id HOLDERxxxxxxxxxxxxxxxx) did not report its path.data and pid');
    expect(reason(holder, { pidIsElasticsearch: true, dataPaths: [{ ...here, shardFolderExists: false }] })).toBe(
      "the shard folder under node es-a (id HOLDERxxxxxxxxxxxxxxxx, pid 4242)'s path.data /var/lib/elasticsearch does not exist on this host",
    );
    expect(reason({ ...holder, dataPaths: ['/a', '/b'] }, { pidIsElasticsearch: true, dataPaths: [] })).toMatch(
      /path\.data \/a, \/b does not/,
    );
    // The first data path that holds the folder is the one judged.
    expect(
      judgeLocality(holder, {
        pidIsElasticsearch: true,
        dataPaths: [
          { ...here, path: '/x', shardFolderExists: false },
          { ...here, path: '/y' },
        ],
      }),
    ).toEqual({ ok: true, dataPath: '/y' });
  });

  it('where to run it when the holder is unknown or names no host', () => {
    expect(elsewhereRefusal('i', 1, null, 'why')).toBe(
      "the corrupt copy of i shard 1 is on another node, not on this host's Elasticsearch: why; run shardeck recover-corrupt on the host of node ?, as root; nothing was run",
    );
    expect(elsewhereRefusal('i', 1, { ...holder, host: undefined }, 'why')).toBe(
      "the corrupt copy of i shard 1 is on node es-a, not on this host's Elasticsearch: why; run shardeck recover-corrupt on the host of node es-a, as root; nothing was run",
    );
  });

  it('segments files by their whole name only; none is null', () => {
    expect(newestSegmentsFile(['segments_2', 'pending_segments_z', 'segments_3.bak'])).toBe('segments_2');
    expect(newestSegmentsFile(['write.lock'])).toBeNull();
  });

  it('the main class as an argument of its own, or the end of the module path', () => {
    expect(isElasticsearchCmdline(['java', 'org.elasticsearch.bootstrap.Elasticsearch'].join('\0'))).toBe(true);
    expect(isElasticsearchCmdline(['java', 'xorg.elasticsearch.bootstrap.Elasticsearch'].join('\0'))).toBe(false);
  });
});
