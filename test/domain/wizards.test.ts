// The wizard machines, driven event by event without rendering or a cluster.
import { describe, expect, it } from 'vitest';
import { commonStep, watchLostMessage } from '../../src/domain/wizards/machine';
import type { DiskRow } from '../../src/domain/nodes/disk';
import type { ShardRow } from '../../src/domain/types';
import {
  allocationMachine,
  diffShards,
  explainAllocation,
  explainCommand,
  explanationLines,
  explanationRows,
} from '../../src/domain/wizards/allocation';
import { drive } from '../helpers/machines';
import {
  parseReplicaCount,
  replicasMachine,
  replicaWarnings,
  templateWithReplicas,
  type ReplicasFacts,
} from '../../src/domain/wizards/replicas';
import { scrollLimitPlan, scrollMachine, scrollRows } from '../../src/domain/wizards/scroll';
import { buildUnblockReview, unblockMachine, unblockPlans } from '../../src/domain/wizards/unblock';
import { checkPlanPath, MAX_REQUEST_LINE } from '../../src/domain/mutation/targets';

const facts: ReplicasFacts = {
  indices: ['service_v9_a'],
  before: { service_v9_a: 1 },
  dataNodes: 1,
  healthBefore: 'yellow',
  template: {
    index_patterns: ['service_v9_*'],
    template: { settings: { index: { number_of_shards: '6', number_of_replicas: '1' } } },
    priority: 100,
  },
};

describe('replicas', () => {
  it.each([
    ['0', 0],
    [' 2 ', 2],
  ])('accepts %j', (t, n) => expect(parseReplicaCount(t)).toEqual({ ok: true, value: n }));
  it.each([
    ['-1', /cannot be negative/],
    ['1.5', /whole number/],
    ['abc', /not a number/],
    ['', /not a number/],
  ])('rejects %j', (t, msg) => expect(parseReplicaCount(t)).toMatchObject({ ok: false, error: expect.stringMatching(msg) }));

  it('warns on one node with replicas, and on several nodes without', () => {
    expect(replicaWarnings(1, 1)[0]).toMatch(/single-node cluster .* yellow/);
    expect(replicaWarnings(0, 1)).toEqual([]);
    expect(replicaWarnings(0, 3)[0]).toMatch(/at least one replica is recommended/);
    expect(replicaWarnings(2, 2)[0]).toMatch(/need 3 data nodes/);
    expect(replicaWarnings(1, 2)).toEqual([]);
  });

  it('changes only number_of_replicas of the template', () => {
    const t = {
      index_patterns: ['x*'],
      composed_of: ['c'],
      template: { settings: { number_of_replicas: 2, index: { number_of_shards: '6' } }, mappings: { a: 1 } },
    };
    expect(templateWithReplicas(t, 0)).toEqual({
      index_patterns: ['x*'],
      composed_of: ['c'],
      template: { settings: { index: { number_of_shards: '6', number_of_replicas: 0 } }, mappings: { a: 1 } },
    });
    expect(t.template.settings.number_of_replicas).toBe(2); // the original is untouched
  });

  it('bad input stays in the form with the error and asks for nothing', () => {
    const { state, effects } = drive(replicasMachine({ target: 'service_v9_a' }), [
      { type: 'edit', field: 'replicas', value: '1.5' },
      { type: 'submit' },
    ]);
    expect(state).toMatchObject({ phase: 'input', error: expect.stringMatching(/whole number/) });
    expect(effects).toEqual([]);
  });

  it("an unknown target comes back to the form with the resolver's sentence", () => {
    const { state } = drive(replicasMachine({ target: 'nope', replicas: '0' }), [
      { type: 'submit' },
      { type: 'rejected', message: 'no index matches "nope"' },
    ]);
    expect(state).toMatchObject({ phase: 'input', error: 'no index matches "nope"' });
  });

  it('goes input -> inspect -> review -> mutate (index, then template) -> watch -> done with before and after', () => {
    const m = replicasMachine({ target: 'service_v9_*', replicas: '0', withTemplate: true });
    const { state, effects } = drive(m, [
      { type: 'submit' },
      { type: 'inspected', facts },
      { type: 'confirm', confirmation: { by: 'key' } },
      {
        type: 'applied',
        results: [
          { summary: 'a', ok: true, message: 'done' },
          { summary: 'b', ok: true, message: 'done' },
        ],
      },
      { type: 'watched', health: 'green', replicas: { service_v9_a: 0 }, timedOut: false },
    ]);
    expect(effects.map((f) => f.type)).toEqual(['inspect', 'mutate', 'watch']);
    const mutate = effects[1] as Extract<(typeof effects)[number], { type: 'mutate' }>;
    // The pattern's previewed indices, not the pattern: an index created after the review is not changed.
    expect(mutate.plans.map((p) => `${p.method} ${p.path}`)).toEqual([
      `PUT /${facts.indices.join(',')}/_settings`,
      'PUT /_index_template/service_v9',
    ]);
    expect(mutate.plans[0].resolved).toEqual({ expression: 'service_v9_*', indices: facts.indices });
    expect(mutate.plans[0].verify?.path).toBe(`/${facts.indices.join(',')}/_settings/index.number_of_replicas`);
    expect(effects[2]).toMatchObject({ expected: 'green', replicas: 0 });
    expect(state).toMatchObject({
      phase: 'done',
      report: { before: { health: 'yellow' }, after: { health: 'green', reachedExpected: true } },
    });
  });

  it('the node stops answering while health is watched (a restart): what was applied stays, and the sentence says it is not resent', () => {
    const { state, effects } = drive(replicasMachine({ target: 'a', replicas: '0' }), [
      { type: 'submit' },
      { type: 'inspected', facts },
      { type: 'confirm', confirmation: { by: 'key' } },
      { type: 'applied', results: [{ summary: 'a', ok: true, applied: 'yes', message: 'every matched index now has 0 replicas' }] },
      { type: 'error', message: 'nothing listens at http://n1:9200 (connection refused)' },
    ]);
    expect(effects.map((f) => f.type)).toEqual(['inspect', 'mutate', 'watch']);
    expect(state).toMatchObject({
      phase: 'failed',
      message: expect.stringMatching(
        /^the change was applied \(above\) and is not resent; then the cluster stopped answering while it was watched \(nothing listens at .*\): the node may be restarting/,
      ),
      report: { results: [{ ok: true, message: 'every matched index now has 0 replicas' }] },
    });
    // Any machine: an error while watching says the same; before sending it is the error alone.
    expect(commonStep({ phase: 'watching' }, { type: 'error', message: 'x' })?.state).toEqual({
      phase: 'failed',
      message: watchLostMessage('x'),
    });
    expect(commonStep({ phase: 'review' }, { type: 'error', message: 'x' })?.state).toEqual({ phase: 'failed', message: 'x' });
  });

  it('a failed request stops before watching; cancel is ignored while a request is out', () => {
    const m = replicasMachine({ target: 'a', replicas: '0' });
    const mid = drive(m, [
      { type: 'submit' },
      { type: 'inspected', facts },
      { type: 'confirm', confirmation: { by: 'key' } },
      { type: 'cancel' },
    ]);
    expect(mid.state.phase).toBe('applying');
    const end = m.step(mid.state, { type: 'applied', results: [{ summary: 'a', ok: false, message: 'boom' }] });
    expect(end.state).toMatchObject({ phase: 'failed', message: 'boom' });
    expect(end.effects).toEqual([]);
  });
});

const disk = (level: DiskRow['level']): DiskRow => ({
  node: 'n1',
  usedPercent: 97,
  usedBytes: 97,
  totalBytes: 100,
  availBytes: 3,
  level,
  marks: { low: 85, high: 90, flood: 95 },
  headroomToHighBytes: 0,
});

describe('unblock', () => {
  it('refuses past flood stage, offers the seed request below it, and has nothing to do without blocks', () => {
    const flood = buildUnblockReview({ blocked: ['a'], disks: [disk('flood')] });
    expect(flood.refusal).toMatch(/past flood stage \(97\.0% used, flood stage at 95\.0%\)/);
    expect(flood.plans).toBeUndefined();
    const high = buildUnblockReview({ blocked: ['b', 'a'], disks: [disk('high')] });
    expect(high.plans).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: '/a,b/_settings',
        body: { 'index.blocks.read_only_allow_delete': null },
        target: '2 blocked indices',
      }),
    ]);
    expect(high.plans![0].verify!.path).toBe('/a,b/_settings/index.blocks.read_only_allow_delete');
    expect(high.notes.join(' ')).toMatch(/will not lift the block by itself yet/);
    const none = buildUnblockReview({ blocked: [], disks: [disk('ok')] });
    expect([none.plans, none.refusal]).toEqual([undefined, undefined]);
    expect(none.notes[0]).toMatch(/no index is blocked/);
  });

  it("after a real flood stage Elasticsearch blocks its own dot indices too: the operator's are lifted, the system ones left and named with how to lift them", () => {
    const review = buildUnblockReview({ blocked: ['flood_idx', '.tasks', '.kibana_1'], disks: [disk('high')] });
    expect(review.refusal).toBeUndefined();
    expect(review.plans!.map((p) => p.path)).toEqual(['/flood_idx/_settings']);
    expect(review.leftSystem).toEqual(['.kibana_1', '.tasks']);
    expect(review.notes.join(' ')).toMatch(
      /left blocked: 2 system \(dot\) indices \(\.kibana_1, \.tasks\).*below the high watermark.*shardeck unblock --include-system/,
    );
    // Asked for (--include-system): every blocked index, by name.
    expect(buildUnblockReview({ blocked: ['flood_idx', '.tasks'], disks: [disk('high')] }, { includeSystem: true }).plans![0].path).toBe(
      '/.tasks,flood_idx/_settings',
    );
    // Only system indices blocked: nothing sent, said why.
    const onlySystem = buildUnblockReview({ blocked: ['.tasks'], disks: [disk('ok')] });
    expect(onlySystem.plans).toBeUndefined();
    expect(onlySystem.notes.join(' ')).toMatch(/left blocked: 1 system \(dot\) index \(\.tasks\)/);
  });

  it('confirm does nothing while refused; sends the plan when allowed', () => {
    const refused = drive(unblockMachine(), [
      { type: 'loaded', facts: { blocked: ['a'], disks: [disk('flood')] } },
      { type: 'confirm', confirmation: { by: 'key' } },
    ]);
    expect(refused.state.phase).toBe('review');
    expect(refused.effects.map((f) => f.type)).toEqual(['load']);
    const ok = drive(unblockMachine(), [
      { type: 'loaded', facts: { blocked: ['a'], disks: [disk('ok')] } },
      { type: 'confirm', confirmation: { by: 'key' } },
    ]);
    expect(ok.effects.map((f) => f.type)).toEqual(['load', 'mutate']);
  });

  it('after sending: a part that failed is named, a part never sent fails the whole, several parts read as one result', () => {
    const blocked = Array.from({ length: 300 }, (_, i) => `logs-2026.11.${String(i).padStart(3, '0')}-with-a-long-suffix`);
    const applying = drive(unblockMachine(), [
      { type: 'loaded', facts: { blocked, disks: [disk('ok')] } },
      { type: 'confirm', confirmation: { by: 'key' } },
    ]);
    expect(applying.state.phase).toBe('applying');
    const parts = (applying.state as { review: { plans: unknown[] } }).review.plans.length;
    expect(parts).toBeGreaterThan(1);
    const m = unblockMachine();
    const part = (i: number, verified = true) => ({
      summary: `part ${i}`,
      ok: true,
      applied: 'yes' as const,
      message: 'ok',
      verified: { ok: verified, message: verified ? 'no block left' : `part ${i} still blocked` },
    });
    const all = Array.from({ length: parts }, (_, i) => part(i + 1));
    expect(m.step(applying.state, { type: 'applied', results: all.slice(0, parts - 1) }).state).toEqual({
      phase: 'failed',
      message: 'not every part was sent',
    });
    expect(
      m.step(applying.state, { type: 'applied', results: [part(1), { summary: 'part 2', ok: false, message: 'boom' }] }).state,
    ).toEqual({
      phase: 'failed',
      message: 'part 2: boom',
    });
    const done = m.step(applying.state, { type: 'applied', results: all }).state as {
      phase: string;
      result: { summary: string; verified: unknown };
    };
    expect(done.phase).toBe('done');
    expect(done.result.summary).toBe(`remove the flood-stage read-only block from 300 indices in ${parts} requests`);
    expect(done.result.verified).toEqual({ ok: true, message: 'no block left' });
    const halfVerified = m.step(applying.state, { type: 'applied', results: [part(1, false), ...all.slice(1)] }).state as typeof done;
    expect(halfVerified.result.verified).toEqual({ ok: false, message: 'part 1 still blocked' });
  });

  it('names exactly the blocked indices, never * or _all, in as many requests as the request line needs', () => {
    const names = Array.from({ length: 300 }, (_, i) => `logs-2026.11.${String(i).padStart(3, '0')}-with-a-long-suffix`);
    const plans = unblockPlans([...names].reverse());
    expect(plans.length).toBeGreaterThan(1);
    for (const p of plans) {
      expect(`PUT ${p.path} HTTP/1.1`.length).toBeLessThanOrEqual(MAX_REQUEST_LINE);
      expect(checkPlanPath(p)).toBeNull();
      expect(p.path).not.toMatch(/[*]|_all/);
    }
    expect(plans.flatMap((p) => p.path.slice(1, -'/_settings'.length).split(','))).toEqual(names);
    expect(plans[0].summary).toMatch(new RegExp(`part 1 of ${plans.length}`));
    // Odd but legal names are encoded, not cut: one name is one index.
    expect(unblockPlans(['a+b', 'c%d'])[0].path).toBe('/a%2Bb,c%25d/_settings');
  });
});

describe('scroll limit', () => {
  it('shows open contexts per node against the limit, validates, and plans persistent + transient', () => {
    const facts = { nodes: [{ name: 'n1', openContexts: 2, scrollCurrent: 2 }], limit: 2 };
    expect(scrollRows(facts)).toEqual([{ name: 'n1', open: 2, limit: 2, full: true }]);
    const bad = drive(scrollMachine('0'), [{ type: 'loaded', facts }, { type: 'submit' }]);
    expect(bad.state).toMatchObject({ phase: 'review', error: expect.stringMatching(/1 or more/) });
    const good = drive(scrollMachine(), [{ type: 'loaded', facts }, { type: 'edit', value: '1000' }, { type: 'submit' }]);
    expect(good.state).toMatchObject({
      phase: 'confirming',
      plan: { body: { persistent: { 'search.max_open_scroll_context': 1000 }, transient: { 'search.max_open_scroll_context': 1000 } } },
    });
  });

  it('the read-back passes only when both the persistent and the transient value read as the new limit', () => {
    const plan = scrollLimitPlan(1000, 500);
    expect(plan).toMatchObject({
      method: 'PUT',
      path: '/_cluster/settings',
      querystring: {},
      risk: 'reversible',
      target: 'search.max_open_scroll_context',
      summary: "set search.max_open_scroll_context from 500 to 1000 (persistent, and transient as the platform's document shows)",
      verify: { path: '/_cluster/settings', querystring: { filter_path: '*.search.max_open_scroll_context' } },
    });
    const check = (body: unknown) => plan.verify!.check(body);
    expect(check({ persistent: {}, transient: { search: {} } })).toMatchObject({ ok: false });
    expect(check({ persistent: { search: { max_open_scroll_context: '1000' } }, transient: {} })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/transient unset$/),
    });
    const read = (persistent?: string, transient?: string) => ({
      ...(persistent ? { persistent: { search: { max_open_scroll_context: persistent } } } : {}),
      ...(transient ? { transient: { search: { max_open_scroll_context: transient } } } : {}),
    });
    expect(check(read('1000', '1000'))).toEqual({ ok: true, message: 'search.max_open_scroll_context is 1000 on every node' });
    expect(check(read('1000'))).toEqual({
      ok: false,
      message: 'search.max_open_scroll_context reads back as persistent 1000, transient unset',
    });
    expect(check(read('1000', '500'))).toEqual({
      ok: false,
      message: 'search.max_open_scroll_context reads back as persistent 1000, transient 500',
    });
    expect(check(null)).toEqual({ ok: false, message: 'search.max_open_scroll_context reads back as persistent unset, transient unset' });
  });
});

describe('allocation', () => {
  const row = (o: Partial<ShardRow>): ShardRow => ({
    index: 'i',
    shard: 0,
    primary: true,
    state: 'STARTED',
    node: 'n1',
    docs: 0,
    storeBytes: 0,
    unassignedReason: null,
    unassignedDetails: null,
    ...o,
  });

  it('reports what moved between two reads of the shards', () => {
    const before = [row({}), row({ primary: false, state: 'UNASSIGNED', node: null }), row({ shard: 1 })];
    const after = [row({}), row({ primary: false, state: 'STARTED', node: 'n2' }), row({ shard: 1 })];
    expect(diffShards(before, after)).toEqual([{ index: 'i', shard: 0, primary: false, from: 'UNASSIGNED', to: 'STARTED', node: 'n2' }]);
    expect(diffShards(before, before)).toEqual([]);
  });

  it('turns an explain response into plain words and advice', () => {
    const x = explainAllocation({
      index: 'i',
      shard: 0,
      primary: false,
      current_state: 'unassigned',
      unassigned_info: { reason: 'ALLOCATION_FAILED', details: 'boom', last_allocation_status: 'no_attempt' },
      can_allocate: 'no',
      allocate_explanation: "Elasticsearch isn't allowed to allocate this shard to any of the nodes in the cluster.",
      node_allocation_decisions: [
        {
          node_name: 'n1',
          node_decision: 'no',
          deciders: [{ decider: 'max_retry', decision: 'NO', explanation: 'shard has exceeded the maximum number of retries' }],
        },
      ],
    });
    expect(x.unassignedReason).toBe('ALLOCATION_FAILED (allocating it failed)');
    expect(x.nodes).toEqual([{ node: 'n1', decision: 'no', reasons: ['max_retry: shard has exceeded the maximum number of retries'] }]);
    expect(x.advice[0]).toMatch(/reroute --retry-failed/);
    // The advice before the nodes' deciders, the details (a stack trace, often) last: neither buries it.
    expect(explanationLines(x)).toEqual([
      'i shard 0 replica: unassigned',
      "why: Elasticsearch isn't allowed to allocate this shard to any of the nodes in the cluster.",
      'unassigned because ALLOCATION_FAILED (allocating it failed)',
      expect.stringMatching(/^-> allocation failed too often/),
      '  n1: no',
      '    max_retry: shard has exceeded the maximum number of retries',
      'details: boom',
    ]);
  });

  it("explanation rows: each line wrapped to the screen's width with its indent kept, a newline a row of its own", () => {
    expect(explanationRows(['why: one two three four five', '    same_shard: aaaa bbbb cccc', 'details: x\ny'], 20)).toEqual([
      'why: one two three',
      'four five',
      '    same_shard: aaaa',
      '    bbbb cccc',
      'details: x',
      'y',
    ]);
    // A Java stack trace's own lines keep the reason's indent, a tab is a space, and a control
    // character from the cluster is counted as the terminal is shown it (escaped).
    expect(explanationRows(['    max_retry: failed\n\tat org.X(X.java:1)\r\n\u001b[2J'], 40)).toEqual([
      '    max_retry: failed',
      '    at org.X(X.java:1)\\u000d',
      '    \\u001b[2J',
    ]);
    expect(explainCommand({ index: "it's", shard: 3, primary: false })).toBe("shardeck explain 'it'\\''s' 3 replica");
  });

  it('retry: explained -> review -> mutate with a shard comparison -> done', () => {
    const { state, effects } = drive(allocationMachine(), [
      { type: 'explained', explanation: null, unassigned: 3, failed: 2 },
      { type: 'retry' },
      { type: 'confirm', confirmation: { by: 'key' } },
      { type: 'applied', results: [{ summary: 's', ok: true, message: 'done' }], moves: [], stillUnassigned: 3 },
    ]);
    expect(effects.map((f) => f.type)).toEqual(['explain', 'mutate']);
    expect(effects[1]).toMatchObject({
      compareShards: true,
      plans: [{ method: 'POST', path: '/_cluster/reroute', querystring: { retry_failed: 'true' } }],
    });
    expect(state).toMatchObject({ phase: 'done', stillUnassigned: 3 });
  });

  it('issue 47 item 9: no retry when no copy has failed (it would move nothing): the key does nothing', () => {
    const { state, effects } = drive(allocationMachine(), [
      { type: 'explained', explanation: null, unassigned: 3, failed: 0 },
      { type: 'retry' },
    ]);
    expect(effects.map((f) => f.type)).toEqual(['explain']);
    expect(state).toMatchObject({ phase: 'explained', failed: 0 });
  });
});
