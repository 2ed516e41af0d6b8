// The offline checklist's exact commands, and how long its last step waits.
import { describe, expect, it } from 'vitest';
import {
  backupPaths,
  DEFAULT_SHARD_WAIT_S,
  healthWaitQuery,
  HEALTH_WAIT_STEP_S,
  planLines,
  recoveryPlan,
  stalePrimaryPlan,
} from '../../../src/domain/corruption/plan';
import { facts } from './fixtures';

describe('the plan', () => {
  it("runs every file step as the data owner with the node's own java and lib/, and backs up before anything changes", () => {
    const p = recoveryPlan(facts);
    const ids = p.steps.map((s) => s.id);
    expect(ids).toEqual([
      'stop',
      'backup',
      'verify-backup',
      'check',
      'exorcise',
      'markers',
      'start',
      'wait',
      'allocation',
      'reroute',
      'verify',
    ]);
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
    expect(alt.map((s) => s.id)).toEqual([
      'stop',
      'backup',
      'verify-backup',
      'shard-tool',
      'start',
      'wait',
      'allocation',
      'reroute',
      'verify',
    ]);
    expect(alt.find((s) => s.id === 'shard-tool')!.command).toMatch(
      /^echo y \| runuser -u 'elasticsearch' -- env ES_PATH_CONF='\/etc\/elasticsearch' .*remove-corrupted-data --index 'service_v9_abc' --shard-id 0$/,
    );
    expect(alt.find((s) => s.id === 'reroute')!.conditional).toBe(false);
    expect(recoveryPlan({ ...facts, hasShardTool: false }).alternative).toBeNull();
  });

  it("uses the profile's service commands instead of systemctl", () => {
    const p = recoveryPlan({ ...facts, serviceStop: 'sv stop es', serviceStart: 'sv start es' });
    expect(p.steps[0].command).toBe('sv stop es');
    expect(p.steps.find((s) => s.id === 'start')!.command).toBe('sv start es');
  });
});

describe('the checklist as the operator reads it (recover-corrupt --plan)', () => {
  // Every step's title, command, note and flags: a word changed in a command that will be pasted
  // into a root shell shows here. Without java, the node's ES_JAVA_HOME; a slash-ended backup folder.
  it("with the node's java, and with its ES_JAVA_HOME", async () => {
    const conn = { url: 'https://127.0.0.1:9200', user: 'elastic' };
    await expect(planLines(recoveryPlan(facts), conn).join('\n') + '\n').toMatchFileSnapshot('__plans__/recover-plan.txt');
    await expect(
      planLines(recoveryPlan({ ...facts, java: null, backupDir: '/backups//', hasShardTool: false }), conn).join('\n') + '\n',
    ).toMatchFileSnapshot('__plans__/recover-plan-es-java-home.txt');
  });

  it('the backup paths and the stale-primary reroute', () => {
    expect(backupPaths({ ...facts, backupDir: '/backups/' })).toEqual({
      archive: '/backups/service_v9_abc-0-20261123T1200Z.tar',
      indexDir: '/data/indices/UUID',
      shardDir: '0',
    });
    expect(backupPaths({ ...facts, folder: '/0' })).toMatchObject({ indexDir: '/', shardDir: '0' });
    expect(stalePrimaryPlan('i', 2, 'n9')).toEqual({
      method: 'POST',
      path: '/_cluster/reroute',
      querystring: {},
      body: { commands: [{ allocate_stale_primary: { index: 'i', shard: 2, node: 'n9', accept_data_loss: true } }] },
      risk: 'destructive',
      target: 'i',
      summary: expect.stringMatching(/^allocate the repaired copy of i shard 2 on n9 as primary, accepting the documents/),
    });
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
