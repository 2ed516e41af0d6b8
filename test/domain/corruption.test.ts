// The pure half of corruption recovery, on what a real 8.19 node and its tools printed
// (test/fixtures/corrupt/, recorded from a node whose segment _0 had one byte changed).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SHARD_WAIT_S,
  elsewhereRefusal,
  failureAdvice,
  findCorruption,
  healthWaitQuery,
  HEALTH_WAIT_STEP_S,
  isElasticsearchCmdline,
  judgeLocality,
  newestSegmentsFile,
  parseStateNodeId,
  losslessOptions,
  lossReport,
  newProgress,
  nextStep,
  parseCheckIndex,
  parseNodeFacts,
  parseShardToolReroute,
  progressSteps,
  recordStep,
  recoveryPlan,
  shardFolder,
  type PlanFacts,
} from '../../src/domain/corruption';
import { recoveryClosable, recoveryMachine } from '../../src/domain/wizards/recovery';

const fixture = (name: string) => fs.readFileSync(new URL(`../fixtures/corrupt/${name}`, import.meta.url), 'utf8');
const binaryFixture = (name: string) => fs.readFileSync(new URL(`../fixtures/corrupt/${name}`, import.meta.url), 'latin1');

const facts: PlanFacts = {
  index: 'service_v9_abc',
  shard: 0,
  node: { name: 'n1', id: 'ID1' },
  folder: '/data/indices/UUID/0',
  home: '/usr/share/elasticsearch',
  java: '/usr/share/elasticsearch/jdk/bin/java',
  esUser: 'elasticsearch',
  confDir: '/etc/elasticsearch',
  backupDir: '/backups',
  stamp: '20261123T1200Z',
  conn: { url: 'https://127.0.0.1:9200', user: 'elastic' },
  hasShardTool: true,
};

describe('detection', () => {
  it('recognises no_valid_shard_copy with a corrupt copy and names the node and the file', () => {
    const f = findCorruption(JSON.parse(fixture('explain-primary.json')))!;
    expect(f).toMatchObject({ index: 'corrupt-exp', shard: 0, canAllocate: 'no_valid_shard_copy', corrupt: true, node: { name: 'corrupt-exp' } });
    expect(f.reason).toMatch(/CorruptIndexException|corrupt/i);
  });

  it('while allocation is still retried (max_retry, the store reads fine), the failure details name the corrupt copy', () => {
    const f = findCorruption(JSON.parse(fixture('explain-primary-retrying.json')))!;
    expect(f).toMatchObject({ index: 'service_v9_broken', canAllocate: 'no', corrupt: true, node: { name: 'corrupt' } });
    expect(f.copies).toEqual([expect.objectContaining({ node: 'corrupt', inSync: true, corrupt: true })]);
    expect(f.reason).toMatch(/^codec mismatch/);
    expect(f.file).toMatch(/\/index\/_1\.cfs$/);
    // Its only copy is the corrupt one: a snapshot or a backup is what loses nothing, not "bring the node back".
    expect(losslessOptions(f, []).join('\n')).not.toMatch(/in-sync copy that is not corrupt/);
  });

  it('finds the shard folder from path.data and the index UUID', () => {
    const [n] = parseNodeFacts(JSON.parse(fixture('nodes.json')));
    expect(n.dataPaths).toEqual(['/var/cache/shardeck-dev/nodes/corrupt-exp-9RSQQv/data']);
    expect(shardFolder(n.dataPaths[0] + '/', 'Et2mmERuQl-Ypp0baJN6pA', 0)).toBe('/var/cache/shardeck-dev/nodes/corrupt-exp-9RSQQv/data/indices/Et2mmERuQl-Ypp0baJN6pA/0');
  });

  it('is not fooled by a primary that is merely unassigned (allocation filter)', () => {
    expect(findCorruption({ index: 'x', shard: 0, primary: true, current_state: 'unassigned', can_allocate: 'no', node_allocation_decisions: [] })).toBeNull();
  });
});

describe('what the tools print', () => {
  it('CheckIndex: one broken segment of two, the documents it held, nothing written yet', () => {
    expect(parseCheckIndex(fixture('checkindex-readonly.txt'))).toEqual({
      totalDocs: 2000,
      segments: [
        { name: '_0', maxDoc: 1, broken: true },
        { name: '_1', maxDoc: 1999, broken: false },
      ],
      brokenSegments: 1,
      lostDocs: 1,
      wroteNewSegments: false,
    });
  });

  it('elasticsearch-shard: its first report counts, it wrote a new commit, and its reroute is read back', () => {
    const text = fixture('elasticsearch-shard-remove-corrupted-data.txt');
    expect(parseCheckIndex(text)).toMatchObject({ totalDocs: 2000, brokenSegments: 1, lostDocs: 1, wroteNewSegments: true });
    expect(parseCheckIndex(text)!.segments).toHaveLength(2);
    expect(parseShardToolReroute(text)).toEqual({ index: 'corrupt-exp', shard: 0, node: '8vC2GUS9R5OmS5oK8c0w2Q' });
  });

  it('a clean index, and output from a tool that failed before checking', () => {
    const clean = '0.00% total deletions; 5 documents; 0 deletions\n1 of 1: name=_0 maxDoc=5\n    test: open reader.........OK\n\nNo problems were detected with this index.\n';
    expect(parseCheckIndex(clean)).toMatchObject({ totalDocs: 5, brokenSegments: 0, lostDocs: 0, segments: [{ name: '_0', broken: false }] });
    expect(parseCheckIndex('ERROR: could not read any segments file in directory\njava.nio.file.NoSuchFileException')).toBeNull();
    expect(parseShardToolReroute('no reroute here')).toBeNull();
  });
});

describe('the plan', () => {
  it('runs every file step as the data owner with the node\'s own java and lib/, and backs up before anything changes', () => {
    const p = recoveryPlan(facts);
    const ids = p.steps.map((s) => s.id);
    expect(ids).toEqual(['stop', 'backup', 'verify-backup', 'check', 'exorcise', 'markers', 'start', 'wait', 'allocation', 'reroute', 'verify']);
    expect(p.archive).toBe('/backups/service_v9_abc-0-20261123T1200Z.tar');
    const check = p.steps.find((s) => s.id === 'check')!;
    expect(check.command).toBe(
      "runuser -u 'elasticsearch' -- '/usr/share/elasticsearch/jdk/bin/java' -cp '/usr/share/elasticsearch/lib/*' org.apache.lucene.index.CheckIndex '/data/indices/UUID/0/index'",
    );
    expect(p.steps.find((s) => s.id === 'exorcise')!.command).toBe(`${check.command} -exorcise`);
    expect(p.steps.filter((s) => s.losesData).map((s) => s.id)).toEqual(['exorcise', 'reroute']);
    expect(p.steps.find((s) => s.id === 'reroute')!.request!.body).toEqual({
      commands: [{ allocate_stale_primary: { index: 'service_v9_abc', shard: 0, node: 'n1', accept_data_loss: true } }],
    });
    expect(JSON.stringify(p)).not.toMatch(/password|changeme/);
  });

  it('offers elasticsearch-shard in place of CheckIndex and the markers, with its reroute always needed', () => {
    const alt = recoveryPlan(facts).alternative!;
    expect(alt.map((s) => s.id)).toEqual(['stop', 'backup', 'verify-backup', 'shard-tool', 'start', 'wait', 'allocation', 'reroute', 'verify']);
    expect(alt.find((s) => s.id === 'shard-tool')!.command).toMatch(/^echo y \| runuser -u 'elasticsearch' -- env ES_PATH_CONF='\/etc\/elasticsearch' .*remove-corrupted-data --index 'service_v9_abc' --shard-id 0$/);
    expect(alt.find((s) => s.id === 'reroute')!.conditional).toBe(false);
    expect(recoveryPlan({ ...facts, hasShardTool: false }).alternative).toBeNull();
  });

  it('uses the profile\'s service commands instead of systemctl', () => {
    const p = recoveryPlan({ ...facts, serviceStop: 'sv stop es', serviceStart: 'sv start es' });
    expect(p.steps[0].command).toBe('sv stop es');
    expect(p.steps.find((s) => s.id === 'start')!.command).toBe('sv start es');
  });
});

describe('progress', () => {
  const at = '2026-11-23T12:00:00Z';
  const done = { status: 'done' as const, at, message: '' };

  it('resumes at the first step neither done nor skipped', () => {
    let p = newProgress('checkindex', facts, at);
    expect(nextStep(p)!.id).toBe('stop');
    for (const id of ['stop', 'backup', 'verify-backup']) p = recordStep(p, id, done);
    expect(nextStep(p)!.id).toBe('check');
    p = recordStep(p, 'check', { status: 'failed', at, message: 'exit 3' });
    expect(nextStep(p)!.id).toBe('check');
  });

  it('takes the backup again when its verification failed, and starts the node again when it did not answer', () => {
    let p = newProgress('checkindex', facts, at);
    for (const id of ['stop', 'backup']) p = recordStep(p, id, done);
    p = recordStep(p, 'verify-backup', { status: 'failed', at, message: 'size differs' });
    expect(nextStep(p)!.id).toBe('backup');
    for (const id of ['backup', 'verify-backup', 'check', 'exorcise', 'markers', 'start']) p = recordStep(p, id, done);
    p = recordStep(p, 'wait', { status: 'failed', at, message: 'timeout' });
    expect(nextStep(p)!.id).toBe('start');
    expect(failureAdvice('wait', p)).toMatch(/starts it again/);
    expect(failureAdvice('backup', p)).toMatch(/--backup-dir/);
  });

  it('skips the reroute when the check says so, ends when all is done, and counts the loss', () => {
    let p = newProgress('checkindex', facts, at);
    for (const s of progressSteps(p)) p = recordStep(p, s.id, s.id === 'reroute' ? { status: 'skipped', at, message: 'started' } : done);
    expect(nextStep(p)).toBeNull();
    p = { ...p, check: parseCheckIndex(fixture('checkindex-readonly.txt'))!, docsAfter: 1999 };
    expect(lossReport(p)).toEqual({ docsBefore: 2000, docsAfter: 1999, lost: 1, predictedLost: 1 });
  });

  it('uses the reroute elasticsearch-shard printed (by node id) once it printed one', () => {
    const p = { ...newProgress('shard-tool', facts, at), toolReroute: { index: 'service_v9_abc', shard: 0, node: 'ID1' } };
    const body = progressSteps(p).find((s) => s.id === 'reroute')!.request!.body as { commands: { allocate_stale_primary: { node: string; accept_data_loss: boolean } }[] };
    expect(body.commands[0].allocate_stale_primary).toMatchObject({ node: 'ID1', accept_data_loss: true });
  });
});

describe('the wizard machine', () => {
  const finding = { index: 'service_v9_abc', shard: 0, lines: ['service_v9_abc shard 0 primary: no_valid_shard_copy (corrupt)'], options: ['a backup'], shardTool: false };
  const step = { n: 5, total: 11, title: 'Remove the broken segments', commandLines: ['$ x -exorcise'], note: '', losesData: true };

  it('offers the offline repair only after detection, and only the methods this node has', () => {
    const m = recoveryMachine();
    const first = m.init();
    expect(first.effects).toEqual([{ type: 'detect' }]);
    let s = m.step(first.state, { type: 'choose', method: 'checkindex' }).state;
    expect(s.phase).toBe('detecting');
    s = m.step(s, { type: 'detected', finding }).state;
    expect(s.phase).toBe('options');
    expect(m.step(s, { type: 'choose', method: 'shard-tool' }).effects).toEqual([]);
    expect(m.step(s, { type: 'choose', method: 'resume' }).effects).toEqual([]);
    expect(m.step(s, { type: 'choose', method: 'checkindex' }).effects).toEqual([{ type: 'run', method: 'checkindex' }]);
  });

  it('a shard held by a node of another host is shown, its lossless options too, but the checklist is not offered', () => {
    const m = recoveryMachine();
    const s = m.step(m.init().state, { type: 'detected', finding: { ...finding, shardTool: true, elsewhere: 'the corrupt copy ... is on node es-a on host storage-a' } }).state;
    expect(s.phase).toBe('options');
    expect(m.step(s, { type: 'choose', method: 'checkindex' }).effects).toEqual([]);
    expect(m.step(s, { type: 'choose', method: 'shard-tool' }).effects).toEqual([]);
  });

  it('with a checklist under way, offers only to resume it (also when the node is down)', () => {
    const m = recoveryMachine();
    const s = m.step(m.init().state, { type: 'detected', finding: null, resumeAt: 'x shard 0: Start the engine', message: 'the node does not answer' }).state;
    expect(s.phase).toBe('options');
    expect(m.step(s, { type: 'choose', method: 'checkindex' }).effects).toEqual([]);
    expect(m.step(s, { type: 'choose', method: 'resume' }).effects).toEqual([{ type: 'run', method: 'resume' }]);
  });

  it('a step that loses documents runs only on the exact name; Esc answers no', () => {
    const m = recoveryMachine();
    let s = m.step(m.init().state, { type: 'detected', finding }).state;
    s = m.step(s, { type: 'choose', method: 'checkindex' }).state;
    s = m.step(s, { type: 'announced', step, need: { kind: 'type', expected: 'service_v9_abc' } }).state;
    s = m.step(s, { type: 'type', text: 'service_v9_ab' }).state;
    expect(m.step(s, { type: 'confirm' }).effects).toEqual([]);
    s = m.step(s, { type: 'type', text: 'service_v9_abc' }).state;
    expect(m.step(s, { type: 'confirm' }).effects).toEqual([{ type: 'answer', confirmation: { by: 'typed', text: 'service_v9_abc' } }]);
    expect(m.step(s, { type: 'cancel' }).effects).toEqual([{ type: 'answer', confirmation: null }]);
    expect(recoveryClosable(s)).toBe(false);
  });

  it('keeps the last lines of output, and ends with the runner\'s verdict', () => {
    const m = recoveryMachine();
    let s = m.init().state;
    s = m.step(s, { type: 'output', chunk: Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n' }).state;
    expect(s.output).toEqual(['line 14', 'line 15', 'line 16', 'line 17', 'line 18', 'line 19']);
    s = m.step(s, { type: 'ended', status: 'failed', lines: ['step "Stop the engine" failed: exit status 1', 'next: ...'] }).state;
    expect(s.phase).toBe('failed');
    expect(recoveryClosable(s)).toBe(true);
  });
});

describe('is the shard\'s node the Elasticsearch of this host', () => {
  // Recorded from a real 8.19.21 node whose id is z5wDUmkVS0aqSGs91RB3pQ: <path.data>/_state/segments_a and node-0.st.
  it('reads the node id Elasticsearch writes under path.data/_state (Lucene commit and node-N.st)', () => {
    expect(parseStateNodeId(binaryFixture('state-segments'))).toBe('z5wDUmkVS0aqSGs91RB3pQ');
    expect(parseStateNodeId(binaryFixture('state-node-0.st'))).toBe('z5wDUmkVS0aqSGs91RB3pQ');
    expect(parseStateNodeId('no id here')).toBeNull();
    expect(newestSegmentsFile(['_6.cfs', 'segments_9', 'segments_a', 'segments_2', 'write.lock'])).toBe('segments_a');
    expect(newestSegmentsFile(['segments_z', 'segments_10'])).toBe('segments_10');
  });

  it('knows an Elasticsearch server JVM by its main module', () => {
    const es = ['/usr/lib/jvm/java-17-openjdk-amd64/bin/java', '-Xms512m', '-m', 'org.elasticsearch.server/org.elasticsearch.bootstrap.Elasticsearch', ''].join('\0');
    expect(isElasticsearchCmdline(es)).toBe(true);
    // The CLI launcher that starts the server is not it; neither is a shell that names it in a string.
    expect(isElasticsearchCmdline(['java', '-cp', 'lib/*', 'org.elasticsearch.launcher.CliToolLauncher'].join('\0'))).toBe(false);
    expect(isElasticsearchCmdline(['bash', '-c', 'echo org.elasticsearch.bootstrap.Elasticsearch is'].join('\0'))).toBe(false);
  });

  const holder = { id: 'HOLDERxxxxxxxxxxxxxxxx', name: 'es-a', dataPaths: ['/var/lib/elasticsearch'], pid: 4242, host: 'storage-a' };
  const here = { path: '/var/lib/elasticsearch', nodeId: holder.id, shardFolderExists: true, lockedByPid: true };

  it('runs only when the folder, the node id under path.data and the running process all point at the holder', () => {
    expect(judgeLocality(holder, { pidIsElasticsearch: true, dataPaths: [here] })).toEqual({ ok: true, dataPath: '/var/lib/elasticsearch' });
    const no = (view: Parameters<typeof judgeLocality>[1]) => {
      const l = judgeLocality(holder, view);
      return l.ok ? 'ok' : l.reason;
    };
    // Another storage node with the same layout: its own data, its own node id.
    expect(no({ pidIsElasticsearch: true, dataPaths: [{ ...here, nodeId: 'OTHERyyyyyyyyyyyyyyyyy' }] })).toMatch(/belongs to node id OTHERyyyyyyyyyyyyyyyyy, not to node es-a/);
    expect(no({ pidIsElasticsearch: true, dataPaths: [{ ...here, shardFolderExists: false }] })).toMatch(/does not exist on this host/);
    expect(no({ pidIsElasticsearch: true, dataPaths: [{ ...here, nodeId: null }] })).toMatch(/names no node id/);
    // The reported pid is from another host (or pid namespace): here it is nothing, or something else.
    expect(no({ pidIsElasticsearch: null, dataPaths: [here] })).toMatch(/no process 4242 runs on this host/);
    expect(no({ pidIsElasticsearch: false, dataPaths: [here] })).toMatch(/process 4242 on this host is not Elasticsearch/);
    // An Elasticsearch with that pid here, but another one: it does not hold this data's lock.
    expect(no({ pidIsElasticsearch: true, dataPaths: [{ ...here, lockedByPid: false }] })).toMatch(/does not hold \/var\/lib\/elasticsearch\/node.lock/);
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

describe('the last step waits as long as it asked Elasticsearch to', () => {
  it('asks each request for a wait the client outlasts, for every remaining time', () => {
    for (const ms of [1, 999, 1000, 4_200, 14_000, 15_000, 60_000, DEFAULT_SHARD_WAIT_S * 1000, 600_000]) {
      const q = healthWaitQuery(ms);
      expect(q.wait_for_status).toBe('yellow');
      const asked = Number(/^(\d+)s$/.exec(q.timeout)![1]);
      expect(asked).toBeGreaterThanOrEqual(1);
      expect(asked * 1000).toBeLessThan(Math.max(ms, 1000) + 1000); // whole seconds, rounded up
      // createClient's request timeout is 15 s; a request asking for longer would be cut short.
      expect(asked * 1000).toBeLessThan(15_000);
    }
    expect(HEALTH_WAIT_STEP_S).toBe(5);
  });

  it('the plan shows the whole wait', () => {
    const verify = recoveryPlan(facts).steps.find((st) => st.id === 'verify')!;
    expect(verify.command).toContain(`timeout=${DEFAULT_SHARD_WAIT_S}s`);
  });
});
