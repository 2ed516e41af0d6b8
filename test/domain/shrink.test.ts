// Right-sizing shards (issue 42) on plain values: the counts an index can go to and the one
// proposed, the disk the copy needs against the watermarks, the steps and their time, what is
// refused, the value action.auto_create_index takes while a name is free, and where an unfinished
// run goes on (or rolls back).
import { describe, expect, it } from 'vitest';
import { parseWatermark } from '../../src/domain/nodes/disk';
import {
  allowsAutoCreate,
  autoCreationOn,
  holdNamePlan,
  holdOf,
  holdState,
  releaseNamePlan,
  valueExcluding,
} from '../../src/domain/shrink/auto-create';
import { differences } from '../../src/domain/shrink/compare';
import {
  capacity,
  chooseNode,
  copiesOnNode,
  defaultRoutingShards,
  diskNeed,
  estimate,
  openShardsAfter,
  parseTargetShards,
  proposeShards,
  refusalOf,
  shrinkTargets,
  splitTargets,
  stepsOf,
  tempName,
  WRITES_REFUSED,
  type ClusterFacts,
  type IndexFacts,
} from '../../src/domain/shrink/plan';
import {
  isRunsClone,
  nextStep,
  parseShrinkProgress,
  recordStep,
  resumeDecision,
  rollbackSteps,
  unfinishedLine,
  type IndexRun,
  type ShrinkProgress,
} from '../../src/domain/shrink/progress';
import { buildReview } from '../../src/domain/shrink/review';
import {
  PLATFORM_REMINDER,
  platformTemplateJson,
  shardsSetter,
  templateShardsPlan,
  withShards,
  type TemplateFacts,
} from '../../src/domain/shrink/template';
import { blockPlan, clonePlan, copyPlan, deleteIndexPlan, unblockPlan } from '../../src/domain/shrink/steps';
import { checkPlanPath } from '../../src/domain/mutation/targets';
import { confirmationSatisfies } from '../../src/domain/mutation/confirmation';
import { shrinkMachine, type ShrinkState } from '../../src/domain/wizards/shrink';
import type { Watermarks } from '../../src/domain/types';

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const pct = (p: string) => parseWatermark(p, undefined);
const W: Watermarks = { low: pct('85%'), high: pct('90%'), flood: pct('95%'), thresholdEnabled: true };

function index(over: Partial<IndexFacts> = {}): IndexFacts {
  return {
    name: 'service_v9_alpha',
    uuid: 'u-alpha',
    status: 'open',
    health: 'green',
    shards: 6,
    replicas: 0,
    docs: 10_000,
    docsDeleted: 0,
    primaryBytes: 60 * MB,
    hidden: false,
    settings: { 'index.number_of_shards': '6', 'index.refresh_interval': '7s' },
    aliases: { alpha: {} },
    primaries: [{ node: 'n1', bytes: 60 * MB }],
    notStarted: 0,
    ...over,
  };
}

function cluster(over: Partial<ClusterFacts> = {}): ClusterFacts {
  return {
    dataNodes: ['n1'],
    disks: [
      { node: 'n1', host: null, ip: null, shards: 6, indicesBytes: 60 * MB, usedBytes: 20 * GB, availBytes: 80 * GB, totalBytes: 100 * GB },
    ],
    watermarks: W,
    existing: new Set(['service_v9_alpha']),
    repositories: [],
    maxShardsPerNode: 1000,
    openShards: 996,
    template: { name: 'service_v9', shards: 6, replicas: 0 },
    allowAutoCreate: [],
    ...over,
  };
}

const NOW = Date.parse('2026-11-26T04:30:00Z');
const AUTO = { persistent: null, transient: null, defaults: 'true' };

describe('shard counts', () => {
  it('a shrink goes to a divisor below the count', () => {
    expect(shrinkTargets(6)).toEqual([1, 2, 3]);
    expect(shrinkTargets(12)).toEqual([1, 2, 3, 4, 6]);
    expect(shrinkTargets(7)).toEqual([1]);
    expect(shrinkTargets(1)).toEqual([]);
  });

  it('proposes the smallest divisor that keeps every shard under ~30 GB', () => {
    expect(proposeShards('shrink', 6, 60 * MB)).toBe(1);
    expect(proposeShards('shrink', 6, 50 * GB)).toBe(2);
    expect(proposeShards('shrink', 6, 70 * GB)).toBe(3);
    // Every divisor would pass 30 GB: none proposed (the index keeps its shards).
    expect(proposeShards('shrink', 6, 100 * GB)).toBeNull();
    expect(proposeShards('shrink', 1, MB)).toBeNull();
  });

  it('a count that does not divide is refused with the divisors offered', () => {
    expect(parseTargetShards('2', 'shrink', 6)).toEqual({ ok: true, value: 2 });
    const four = parseTargetShards('4', 'shrink', 6);
    expect(four).toEqual({ ok: false, error: "4 does not divide the index's 6 shards: give one of 1, 2, 3" });
    expect(parseTargetShards('6', 'shrink', 6)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not fewer than the 6.*give one of 1, 2, 3/),
    });
    expect(parseTargetShards('two', 'shrink', 6)).toMatchObject({ ok: false, error: expect.stringMatching(/not a whole number/) });
    expect(parseTargetShards('1', 'shrink', 1)).toMatchObject({ ok: false, error: expect.stringMatching(/one shard already/) });
  });

  it('a split goes to a multiple dividing the routing shards (Elasticsearch 7+ default); one shard to any count', () => {
    expect(defaultRoutingShards(6)).toBe(768);
    expect(defaultRoutingShards(1)).toBe(1024);
    expect(defaultRoutingShards(5)).toBe(640);
    expect(splitTargets(6, 768, 4)).toEqual([12, 24, 48, 96]);
    expect(splitTargets(1, 1024, 4)).toEqual([2, 3, 4, 5]);
    expect(parseTargetShards('18', 'split', 6)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not a multiple of 6 that divides.*768.*give one of 12, 24/),
    });
    expect(parseTargetShards('12', 'split', 6)).toEqual({ ok: true, value: 12 });
    // Split is proposed only for shards over 50 GB: into the smallest count under 30 GB each.
    expect(proposeShards('split', 1, 40 * GB)).toBeNull();
    expect(proposeShards('split', 1, 120 * GB)).toBe(4);
    expect(proposeShards('split', 2, 200 * GB)).toBe(8);
  });

  it('the temporary name carries the index and the UTC time', () => {
    expect(tempName('service_v9_alpha', 'shrink', NOW)).toBe('service_v9_alpha-shrink-20261126043000');
  });
});

describe('what is refused (nothing is sent)', () => {
  const c = cluster();
  const tmp = tempName('service_v9_alpha', 'shrink', NOW);
  it('an index that is not green, closed, hidden, the write index of an alias, or whose temporary name is taken', () => {
    expect(refusalOf(index(), 'shrink', 1, tmp, c)).toBeNull();
    expect(refusalOf(index({ health: 'yellow' }), 'shrink', 1, tmp, c)).toMatch(/is yellow, not green/);
    expect(refusalOf(index({ status: 'close' }), 'shrink', 1, tmp, c)).toMatch(/is closed: open it first/);
    expect(refusalOf(index({ hidden: true }), 'shrink', 1, tmp, c)).toMatch(/hidden or system/);
    expect(refusalOf(index({ settings: { 'index.blocks.read_only_allow_delete': 'true' } }), 'shrink', 1, tmp, c)).toMatch(
      /flood-stage watermark.*shardeck unblock/,
    );
    expect(refusalOf(index({ settings: { 'index.blocks.read_only': 'true' } }), 'shrink', 1, tmp, c)).toMatch(/is read-only/);
    expect(refusalOf(index({ name: '.kibana_1' }), 'shrink', 1, tmp, c)).toMatch(/hidden or system/);
    expect(refusalOf(index({ aliases: { alpha: { is_write_index: true } } }), 'shrink', 1, tmp, c)).toMatch(
      /write index of the alias alpha/,
    );
    expect(refusalOf(index(), 'shrink', 1, tmp, cluster({ existing: new Set([tmp]) }))).toMatch(/is taken by an index already/);
    expect(refusalOf(index(), 'shrink', 4, tmp, c)).toMatch(/4 does not divide the index's 6 shards: give one of 1, 2, 3/);
    expect(refusalOf(index({ docs: 3_000_000_000 }), 'shrink', 1, tmp, c)).toMatch(/more than Lucene's/);
    expect(refusalOf(index({ name: 'x'.repeat(240) }), 'shrink', 1, tempName('x'.repeat(240), 'shrink', NOW), c)).toMatch(/longer than/);
  });

  it('a pattern matching hundreds: each listed with a total, nothing planned', () => {
    const many = Array.from({ length: 150 }, (_, i) => index({ name: `service_v9_p${i}`, uuid: `u${i}` }));
    const r = buildReview({ mode: 'shrink', to: 1, snapshot: null, repository: null, now: NOW }, many, cluster(), AUTO);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatch(/matches 150 indices, more than the 100 one run takes/);
    expect(r.listing).toHaveLength(151);
    expect(r.listing!.at(-1)).toBe('total: 150 indices, 1,500,000 documents, 8.79gb');
  });

  it('one refused index refuses the run, each with its reason', () => {
    const r = buildReview(
      { mode: 'shrink', to: 1, snapshot: null, repository: null, now: NOW },
      [index(), index({ name: 'service_v9_beta', uuid: 'u-b', status: 'close' })],
      cluster(),
      AUTO,
    );
    expect(r).toMatchObject({
      ok: false,
      error: 'service_v9_beta is closed: open it first (a closed index cannot be copied); nothing was sent',
    });
    expect(!r.ok && r.refusals).toEqual([{ index: 'service_v9_beta', reason: expect.stringMatching(/closed/) }]);
    const two = buildReview(
      { mode: 'shrink', to: 1, snapshot: null, repository: null, now: NOW },
      [
        index({ health: 'red' }),
        index({ name: 'service_v9_beta', uuid: 'u-b', status: 'close' }),
        index({ name: 'service_v9_c', uuid: 'u-c' }),
      ],
      cluster(),
      AUTO,
    );
    expect(two).toMatchObject({ ok: false, error: '2 of the 3 indices cannot be right-sized now; nothing was sent' });
  });
});

describe('the disk the copy needs', () => {
  it('one node: a full copy, against the low and high watermarks (refused past the high one)', () => {
    const disks = (avail: number) => [
      {
        node: 'n1',
        host: null,
        ip: null,
        shards: 6,
        indicesBytes: 0,
        usedBytes: 100 * GB - avail,
        availBytes: avail,
        totalBytes: 100 * GB,
      },
    ];
    const f = { primaries: [{ node: 'n1', bytes: 5 * GB }], primaryBytes: 5 * GB };
    expect(diskNeed(f, 'n1', disks(30 * GB), W)).toMatchObject({ verdict: 'ok', moveBytes: 0, copyBytes: 5 * GB, freeAfterBytes: 25 * GB });
    // 19 GB free after: past low (15 GB asked) -> no; 14 GB after: past low (15), not high (10).
    expect(diskNeed(f, 'n1', disks(19 * GB), W).verdict).toBe('low');
    const refused = diskNeed(f, 'n1', disks(14 * GB), W);
    expect(refused.verdict).toBe('refused');
    expect(refused.message).toBe(
      'needs 5.00gb (a full copy 5.00gb); n1 has 14.0gb free of 100gb: 9.00gb would be left, past the high watermark (it asks for 10.0gb free; flood stage 5.00gb): free disk or choose fewer indices; nothing is sent',
    );
    // Exactly at the high watermark is not past it.
    expect(diskNeed(f, 'n1', disks(15 * GB), W).verdict).toBe('low');
    expect(diskNeed(f, 'n1', disks(15 * GB - 1), W).verdict).toBe('refused');
  });

  it('several nodes: the node holding most of the index is chosen; what moves there is counted too', () => {
    const f = {
      primaries: [
        { node: 'n1', bytes: 1 * GB },
        { node: 'n2', bytes: 2 * GB },
        { node: 'n2', bytes: 2 * GB },
      ],
      primaryBytes: 5 * GB,
    };
    const disks = ['n1', 'n2'].map((node) => ({
      node,
      host: null,
      ip: null,
      shards: 3,
      indicesBytes: 0,
      usedBytes: 50 * GB,
      availBytes: 50 * GB,
      totalBytes: 100 * GB,
    }));
    expect(chooseNode(f, ['n1', 'n2'], disks)).toBe('n2');
    expect(diskNeed(f, 'n2', disks, W)).toMatchObject({ moveBytes: 1 * GB, copyBytes: 5 * GB, freeAfterBytes: 44 * GB, verdict: 'ok' });
    // Equal holdings: the node with more free disk.
    const even = {
      primaries: [
        { node: 'n1', bytes: GB },
        { node: 'n2', bytes: GB },
      ],
      primaryBytes: 2 * GB,
    };
    expect(chooseNode(even, ['n1', 'n2'], [{ ...disks[0], availBytes: 10 * GB }, disks[1]])).toBe('n2');
  });
});

describe('a copy of every shard on one node (several nodes)', () => {
  const c = (shard: number, primary: boolean, node: string, state = 'STARTED') => ({ shard, primary, node, state });
  it('primaries or replicas: a started copy of each shard there, nothing moving', () => {
    expect(copiesOnNode([c(0, true, 'a'), c(1, true, 'a')], 'a')).toEqual({ ready: true, there: 2, shards: 2 });
    // A primary cannot join its replica on the node: the replica there is the copy.
    expect(copiesOnNode([c(0, true, 'b'), c(0, false, 'a'), c(1, true, 'a'), c(1, false, 'b')], 'a').ready).toBe(true);
    expect(copiesOnNode([c(0, true, 'b'), c(1, true, 'a')], 'a')).toEqual({ ready: false, there: 1, shards: 2 });
    expect(copiesOnNode([c(0, true, 'a', 'RELOCATING'), c(0, true, 'a', 'INITIALIZING'), c(1, true, 'a')], 'a').ready).toBe(false);
    expect(copiesOnNode([], 'a').ready).toBe(false);
  });
});

describe('the steps', () => {
  it('one node: no move; a snapshot only when asked; the name held unless auto-creation is off', () => {
    expect(stepsOf({ snapshot: false, route: false, holdName: true })).toEqual([
      'block',
      'record',
      'copy',
      'copy-green',
      'check-copy',
      'hold-name',
      'delete-original',
      'clone',
      'release-name',
      'result-green',
      'check-result',
      'unblock',
      'drop-copy',
    ]);
    expect(stepsOf({ snapshot: true, route: true, holdName: false })).toEqual([
      'snapshot',
      'block',
      'record',
      'route',
      'copy',
      'copy-green',
      'check-copy',
      'delete-original',
      'clone',
      'result-green',
      'check-result',
      'unblock',
      'drop-copy',
    ]);
  });

  it('time from the bytes; writes refused from the block to its lift', () => {
    const steps = stepsOf({ snapshot: true, route: true, holdName: true });
    const e = estimate(steps, { move: 400 * MB, copy: 1000 * MB });
    // 15 steps x 1 s, 400mb at 40mb/s, 1000mb copied twice at 1gb/s (hard links), a snapshot at 50mb/s.
    expect(e.totalMs).toBeCloseTo(15 * 1000 + 10_000 + 2 * (1000 / 1024) * 1000 + 20_000, 5);
    expect(e.writesRefusedMs).toBeCloseTo(e.totalMs - 1000 - 20_000 - 1000, 5);
    expect(WRITES_REFUSED[0]).toBe('block');
    expect(WRITES_REFUSED.at(-1)).toBe('unblock');
  });

  it('requests name one index each; the deletes need the typed names, also with --yes', () => {
    for (const p of [
      blockPlan('service_v9_a'),
      copyPlan('shrink', 'service_v9_a', 'service_v9_a-shrink-1', 1, 0),
      unblockPlan('service_v9_a', { blocksWrite: null, routing: null }),
    ])
      expect(checkPlanPath(p)).toBeNull();
    expect(copyPlan('shrink', 'a', 'a-shrink-1', 1, 0)).toMatchObject({
      method: 'POST',
      path: '/a/_shrink/a-shrink-1',
      body: {
        settings: {
          'index.number_of_shards': 1,
          'index.number_of_replicas': 0,
          'index.routing.allocation.require._name': null,
          'index.blocks.write': true,
        },
      },
    });
    // The copy takes no alias (they would point at both); the clone takes them all.
    expect(copyPlan('shrink', 'a', 'a-shrink-1', 1, 0).body).not.toHaveProperty('aliases');
    expect(clonePlan('a-shrink-1', 'a', 1, 1, { alpha: {}, f: { filter: { term: { x: 1 } } } }).body).toEqual({
      settings: { 'index.number_of_replicas': 1, 'index.blocks.write': true },
      aliases: { alpha: {}, f: { filter: { term: { x: 1 } } } },
    });
    const del = deleteIndexPlan('a', 'u-a', 'a,b', 'its copy holds every document');
    expect(confirmationSatisfies(del, { by: 'yes-flag' })).toBe(false);
    expect(confirmationSatisfies(del, { by: 'yes-flag', text: 'a' })).toBe(false);
    expect(confirmationSatisfies(del, { by: 'yes-flag', text: 'a,b' })).toBe(true);
    expect(confirmationSatisfies(del, { by: 'key' })).toBe(false);
    // Gone means: the name no longer holds THAT index (another under the name is not the original).
    expect(del.verify!.check({}).ok).toBe(true);
    expect(del.verify!.check({ a: { settings: { 'index.uuid': 'u-a' } } }).ok).toBe(false);
    expect(del.verify!.check({ a: { settings: { 'index.uuid': 'u-new' } } }).ok).toBe(true);
    // A setting that is unset is left out of the answer, and so is an index with none of the keys
    // asked: its uuid is always asked too, so "unset" reads as unset, not as "not there".
    const lift = unblockPlan('a', { blocksWrite: null, routing: null });
    expect(lift.verify!.path).toBe('/a/_settings/index.uuid,index.blocks.write,index.routing.allocation.require._name');
    expect(lift.verify!.check({ a: { settings: { 'index.uuid': 'u' } } })).toEqual({ ok: true, message: 'a takes writes as before' });
    expect(lift.verify!.check({}).ok).toBe(false);
    expect(lift.verify!.check({ a: { settings: { 'index.uuid': 'u', 'index.blocks.write': 'true' } } }).ok).toBe(false);
    // The lift puts back what the original had.
    expect(unblockPlan('a', { blocksWrite: null, routing: 'n7' }).body).toEqual({
      'index.blocks.write': null,
      'index.routing.allocation.require._name': 'n7',
    });
  });
});

describe('action.auto_create_index while the name is free', () => {
  it('computed from the value there now: exactly the names forbidden first, the rest as it decided', () => {
    expect(valueExcluding('true', ['service_v9_a'])).toBe('-service_v9_a,*');
    expect(valueExcluding('TRUE', ['service_v9_a', 'alpha'])).toBe('-service_v9_a,-alpha,*');
    expect(valueExcluding('+logs-*,-tmp-*', ['service_v9_a'])).toBe('-service_v9_a,+logs-*,-tmp-*');
    // Already forbidden there: not repeated.
    expect(valueExcluding('-service_v9_a,*', ['service_v9_a'])).toBe('-service_v9_a,*');
    // Auto-creation off: nothing to hold.
    expect(valueExcluding('false', ['service_v9_a'])).toBeNull();
    expect(autoCreationOn('false')).toBe(false);
    expect(autoCreationOn('-x,-y')).toBe(false);
    expect(autoCreationOn('+logs-*')).toBe(true);
  });

  it('reads as Elasticsearch reads it: the name refused, every other name as before', () => {
    for (const before of ['true', '+service_v9_*,-other', 'service_*,logs-*']) {
      const held = valueExcluding(before, ['service_v9_a'])!;
      expect(allowsAutoCreate(held, 'service_v9_a')).toBe(false);
      for (const other of ['service_v9_b', 'service_v9_a2', 'logs-1', 'other', 'service_v9_'])
        expect(allowsAutoCreate(held, other)).toBe(allowsAutoCreate(before, other));
    }
  });

  it('the level that takes effect, its value before recorded, put back exactly; changed by someone else: left', () => {
    const h = holdOf({ persistent: null, transient: '+service_*', defaults: 'true' }, ['service_v9_a'])!;
    expect(h).toEqual({
      level: 'transient',
      before: { persistent: null, transient: '+service_*', defaults: 'true' },
      value: '-service_v9_a,+service_*',
      names: ['service_v9_a'],
    });
    expect(holdNamePlan(h).body).toEqual({ transient: { 'action.auto_create_index': '-service_v9_a,+service_*' } });
    expect(releaseNamePlan(h).body).toEqual({ transient: { 'action.auto_create_index': '+service_*' } });
    const p = holdOf({ persistent: null, transient: null, defaults: 'true' }, ['a'])!;
    expect(p.level).toBe('persistent');
    expect(releaseNamePlan(p).body).toEqual({ persistent: { 'action.auto_create_index': null } });
    expect(releaseNamePlan(p).verify!.check({ persistent: {} }).ok).toBe(true);
    expect(holdState(p, { persistent: '-a,*', transient: null, defaults: 'true' })).toBe('held');
    expect(holdState(p, { persistent: null, transient: null, defaults: 'true' })).toBe('released');
    expect(holdState(p, { persistent: 'false', transient: null, defaults: 'true' })).toBe('changed');
    expect(holdOf({ persistent: 'false', transient: null, defaults: 'true' }, ['a'])).toBeNull();
  });
});

describe('the comparison of a copy with the original', () => {
  const original = {
    docs: 10,
    shards: 6,
    settings: {
      'index.number_of_shards': '6',
      'index.uuid': 'a',
      'index.refresh_interval': '7s',
      'index.blocks.write': 'true',
      'index.number_of_replicas': '0',
    },
    mapping: '{"properties":{"t":{"type":"text"}}}',
    aliases: { alpha: {} },
  };
  it('the same index: shards, uuid, name, blocks, routing and the partition default aside', () => {
    const copy = {
      docs: 10,
      shards: 1,
      settings: {
        'index.number_of_shards': '1',
        'index.uuid': 'b',
        'index.refresh_interval': '7s',
        'index.number_of_replicas': '0',
        'index.routing.allocation.require._name': null,
        'index.routing_partition_size': '1',
      },
      mapping: '{"properties":{"t":{"type":"text"}}}',
      aliases: { alpha: {} },
    };
    expect(differences(original, copy, 1, true)).toEqual([]);
  });
  it('each difference named', () => {
    const copy = {
      docs: 9,
      shards: 2,
      settings: { 'index.refresh_interval': '1s', 'index.number_of_replicas': '0', 'index.max_result_window': '5' },
      mapping: '{"properties":{"t":{"type":"keyword"}}}',
      aliases: {},
    };
    expect(differences(original, copy, 1, true).map((d) => d.text)).toEqual([
      'holds 9 documents, the original held 10',
      'has 2 shards, not 1',
      'its mapping differs: field t',
      'index.max_result_window is 5, the original had unset',
      'index.refresh_interval is 1s, the original had 7s',
      'the alias alpha is missing',
    ]);
    expect(differences(original, copy, 1, false).map((d) => d.what)).not.toContain('alias');
  });
});

function run(over: Partial<IndexRun> = {}): IndexRun {
  return {
    index: 'service_v9_a',
    uuid: 'u-a',
    tmp: 'service_v9_a-shrink-1',
    from: 6,
    to: 1,
    node: 'n1',
    steps: stepsOf({ snapshot: false, route: false, holdName: true }),
    before: { blocksWrite: null, routing: null },
    original: { docs: 10, replicas: 0, settings: {}, mapping: '{}', aliases: {} },
    done: {},
    ...over,
  };
}
const doneUpTo = (r: IndexRun, last: string) => {
  const done: IndexRun['done'] = {};
  for (const s of r.steps) {
    done[s] = { status: 'done', at: 't', ms: 1, message: '' };
    if (s === last) break;
  }
  return done;
};

describe('resume and roll back', () => {
  const here = { original: true, tmp: true, underName: null };
  it('while the original is there: it goes on at the first step not done, or rolls back', () => {
    const r = run({ done: doneUpTo(run(), 'check-copy') });
    expect(nextStep(r)).toBe('hold-name');
    expect(resumeDecision(r, here)).toMatchObject({ kind: 'continue', step: 'hold-name', canRollBack: true });
    expect(rollbackSteps(r, here, false)).toEqual(['drop-copy', 'unblock']);
    expect(rollbackSteps(r, here, true)).toEqual(['drop-copy', 'release-name', 'unblock']);
    // Killed during the delete, which was not applied (read back: still the original): go on or roll back.
    const mid = run({ done: { ...doneUpTo(run(), 'hold-name'), 'delete-original': { status: 'started', at: 't', ms: 0, message: '' } } });
    expect(resumeDecision(mid, here)).toMatchObject({ kind: 'continue', step: 'delete-original', canRollBack: true });
    // The cluster decides, not the journal: the delete never reached the original, so it can still be put back.
    expect(rollbackSteps(mid, here, true)).toEqual(['drop-copy', 'release-name', 'unblock']);
    expect(rollbackSteps(mid, { ...here, original: false }, true)).toMatch(/cannot bring it back/);
  });

  it('once the original is gone: only forward, at the first step not done', () => {
    const r = run({ done: { ...doneUpTo(run(), 'hold-name'), 'delete-original': { status: 'started', at: 't', ms: 0, message: '' } } });
    expect(resumeDecision(r, { original: false, tmp: true, underName: null })).toMatchObject({
      kind: 'continue',
      step: 'delete-original',
      canRollBack: false,
    });
    const cloned = run({ done: doneUpTo(run(), 'clone'), resultUuid: 'u-r' });
    expect(
      resumeDecision(cloned, { original: false, tmp: true, underName: { uuid: 'u-r', shards: 1, docs: 10, writeBlocked: true } }),
    ).toMatchObject({
      kind: 'continue',
      step: 'release-name',
    });
    // Killed before the clone's answer was saved: the index under the name is the clone by what only it can be.
    const sent = run({ done: { ...doneUpTo(run(), 'delete-original'), clone: { status: 'started', at: 't', ms: 0, message: '' } } });
    expect(
      resumeDecision(sent, { original: false, tmp: true, underName: { uuid: 'u-x', shards: 1, docs: 10, writeBlocked: true } }).kind,
    ).toBe('continue');
    // Its shards not started yet (not countable, for however long the node takes): still the clone, no wait decides it.
    expect(
      resumeDecision(sent, { original: false, tmp: true, underName: { uuid: 'u-x', shards: 1, docs: null, writeBlocked: true } }).kind,
    ).toBe('continue');
  });

  it('the clone is known by what only it can be: any other count, writes taken, other documents or no clone sent is not it', () => {
    const sent = run({ done: { ...doneUpTo(run(), 'delete-original'), clone: { status: 'started', at: 't', ms: 0, message: '' } } });
    const clone = { uuid: 'u-x', shards: 1, docs: null, writeBlocked: true };
    expect(isRunsClone(sent, clone)).toBe(true);
    expect(isRunsClone(sent, { ...clone, docs: 10 })).toBe(true);
    expect(isRunsClone(sent, { ...clone, shards: 2 })).toBe(false);
    expect(isRunsClone(sent, { ...clone, writeBlocked: false })).toBe(false);
    expect(isRunsClone(sent, { ...clone, docs: 9 })).toBe(false);
    expect(isRunsClone(run({ done: doneUpTo(run(), 'delete-original') }), clone)).toBe(false);
    expect(isRunsClone(run({ done: doneUpTo(run(), 'delete-original'), resultUuid: 'u-x' }), { ...clone, shards: 6 })).toBe(true);
  });

  it('an index under the name that is not the clone stops it (the copy is kept); both gone is said, with the snapshot', () => {
    const r = run({ done: { ...doneUpTo(run(), 'delete-original'), clone: { status: 'failed', at: 't', ms: 0, message: '' } } });
    const d = resumeDecision(r, { original: false, tmp: true, underName: { uuid: 'u-auto', shards: 6, docs: 1, writeBlocked: false } });
    expect(d).toMatchObject({
      kind: 'stop',
      why: expect.stringMatching(
        /not shardeck's clone now holds the name service_v9_a .*6 shards, 1 documents.*safe in service_v9_a-shrink-1/,
      ),
    });
    const gone = resumeDecision(run({ done: doneUpTo(run(), 'delete-original'), snapshot: { repository: 'b', name: 's1' } }), {
      original: false,
      tmp: false,
      underName: null,
    });
    expect(gone).toMatchObject({ kind: 'stop', why: expect.stringMatching(/neither service_v9_a nor its copy .* b\/s1 holds the index/) });
    // The original replaced behind shardeck's back (not deleted by it): nothing is sent.
    expect(
      resumeDecision(run({ done: doneUpTo(run(), 'record') }), {
        original: false,
        tmp: false,
        underName: { uuid: 'x', shards: 6, docs: 0, writeBlocked: false },
      }).kind,
    ).toBe('stop');
  });

  it('a complete run, a rolled back one', () => {
    expect(resumeDecision(run({ done: doneUpTo(run(), 'drop-copy') }), here).kind).toBe('complete');
    expect(resumeDecision(run({ rolledBack: { at: 't', message: '' } }), here).kind).toBe('rolled-back');
  });

  it('the progress file: written and read back the same; anything else is not ours', () => {
    const p: ShrinkProgress = {
      version: 1,
      mode: 'shrink',
      clusterUuid: 'c',
      url: 'http://x',
      startedAt: 't',
      user: 'root',
      pid: 1,
      confirmText: 'service_v9_a',
      runs: [run({ hold: holdOf(AUTO, ['service_v9_a'])! })],
    };
    const next = recordStep(p, 'service_v9_a', 'block', { status: 'started', at: 't', ms: 0, message: '' });
    expect(parseShrinkProgress(JSON.stringify(next))).toEqual(next);
    expect(parseShrinkProgress('{"version":1}')).toBeNull();
    expect(parseShrinkProgress('not json')).toBeNull();
    expect(parseShrinkProgress(JSON.stringify({ ...next, runs: [{ ...next.runs[0], steps: ['rm -rf'] }] }))).toBeNull();
    expect(unfinishedLine(next)).toBe(
      'a shrink of service_v9_a (1 of 1, started t by root) stopped at step block: writes to it are refused (index.blocks.write); shardeck shrink --resume goes on (or --rollback puts the original back)',
    );
    const all = run().steps.reduce((q, s) => recordStep(q, 'service_v9_a', s, { status: 'done', at: 't', ms: 1, message: '' }), p);
    expect(all.finished).toBe(true);
    expect(unfinishedLine(all)).toBeNull();
  });
});

describe('the plan and the capacity', () => {
  it('one index on one node: the plan in numbers', () => {
    const r = buildReview({ mode: 'shrink', to: 1, snapshot: null, repository: null, now: NOW }, [index()], cluster(), AUTO);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [p] = r.review.plans;
    expect(p).toMatchObject({
      index: 'service_v9_alpha',
      from: 6,
      to: 1,
      node: 'n1',
      route: false,
      tmp: 'service_v9_alpha-shrink-20261126043000',
    });
    expect(p.steps).not.toContain('snapshot'); // no repository
    expect(r.review.warnings.join(' ')).toMatch(/no snapshot repository is registered/);
    expect(r.review.autoCreate).toMatchObject({ now: 'true', held: '-service_v9_alpha,-alpha,*' });
    expect(r.review.confirmText).toBe('service_v9_alpha');
    // 996 of 1,000 open: 0 project indices of 6 fit; after, 5 shards fewer: 1.
    expect(r.review.capacity.before).toEqual({ limit: 1000, open: 996, free: 4, projectIndices: 0 });
    expect(r.review.capacity.after).toEqual({ limit: 1000, open: 991, free: 9, projectIndices: 1 });
  });

  it('a snapshot first by default where a repository exists; no count given: each index its proposal', () => {
    const r = buildReview(
      { mode: 'shrink', to: null, snapshot: null, repository: null, now: NOW },
      [index(), index({ name: 'service_v9_big', uuid: 'u-b', primaryBytes: 50 * GB, primaries: [{ node: 'n1', bytes: 50 * GB }] })],
      cluster({ repositories: ['backups'] }),
      AUTO,
    );
    expect(r.ok && r.review.plans.map((p) => [p.index, p.to, p.steps[0], p.snapshot?.name])).toEqual([
      ['service_v9_alpha', 1, 'snapshot', 'before-shrink-service_v9_alpha-20261126-043000'],
      ['service_v9_big', 2, 'snapshot', 'before-shrink-service_v9_big-20261126-043000'],
    ]);
    const off = buildReview(
      { mode: 'shrink', to: 1, snapshot: false, repository: null, now: NOW },
      [index()],
      cluster({ repositories: ['backups'] }),
      AUTO,
    );
    expect(off.ok && off.review.plans[0].steps[0]).toBe('block');
    expect(buildReview({ mode: 'shrink', to: 1, snapshot: null, repository: 'nope', now: NOW }, [index()], cluster(), AUTO)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no snapshot repository nope/),
    });
  });

  it('indices already at the count are left out and said; allow_auto_create in a template is warned about', () => {
    const r = buildReview(
      { mode: 'shrink', to: 1, snapshot: false, repository: null, now: NOW },
      [index(), index({ name: 'service_v9_one', uuid: 'u1', shards: 1 })],
      cluster({ allowAutoCreate: [{ template: 'service_v9', indexPatterns: ['service_v9_*'] }] }),
      AUTO,
    );
    expect(r.ok && r.review.skipped).toEqual([{ index: 'service_v9_one', reason: 'has 1 shard already' }]);
    expect(r.ok && r.review.warnings.join(' ')).toMatch(
      /service_v9 sets allow_auto_create: true, which overrides action.auto_create_index/,
    );
  });

  it('split: no move to one node; each node needs the bytes of the primaries it holds (the fullest judged)', () => {
    const big = index({
      name: 'service_v9_big',
      shards: 2,
      primaryBytes: 120 * GB,
      primaries: [
        { node: 'n1', bytes: 60 * GB },
        { node: 'n2', bytes: 60 * GB },
      ],
    });
    const disks = [
      { node: 'n1', host: null, ip: null, shards: 1, indicesBytes: 0, usedBytes: 100 * GB, availBytes: 900 * GB, totalBytes: 1000 * GB },
      { node: 'n2', host: null, ip: null, shards: 1, indicesBytes: 0, usedBytes: 880 * GB, availBytes: 120 * GB, totalBytes: 1000 * GB },
    ];
    const ok = buildReview(
      { mode: 'split', to: null, snapshot: false, repository: null, now: NOW },
      [big],
      cluster({ dataNodes: ['n1', 'n2'], disks: [disks[0], { ...disks[1], availBytes: 300 * GB, usedBytes: 700 * GB }] }),
      AUTO,
    );
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    const [p] = ok.review.plans;
    // 60 GB a shard: split into the smallest count keeping them under 30 GB.
    expect(p).toMatchObject({ from: 2, to: 4, route: false, tmp: 'service_v9_big-split-20261126043000' });
    expect(p.steps).not.toContain('route');
    expect(p.disk).toMatchObject({ node: 'n2', moveBytes: 0, copyBytes: 60 * GB, verdict: 'ok' });
    // n2 would keep 60 GB free after its 60 GB: past the high watermark (100 GB asked): refused, with the numbers.
    const full = buildReview(
      { mode: 'split', to: null, snapshot: false, repository: null, now: NOW },
      [big],
      cluster({ dataNodes: ['n1', 'n2'], disks }),
      AUTO,
    );
    expect(full).toMatchObject({
      ok: false,
      error: expect.stringMatching(
        /needs 60.0gb \(a full copy 60.0gb\); n2 has 120gb free of 1000gb: 60.0gb would be left, past the high watermark/,
      ),
    });
  });

  it("capacity: the limit per data node against the open copies; per project index the template's copies", () => {
    expect(capacity(1000, 1, 1000, 6)).toEqual({ limit: 1000, open: 1000, free: 0, projectIndices: 0 });
    expect(capacity(400, 2, 1000, 12)).toEqual({ limit: 2000, open: 400, free: 1600, projectIndices: 133 });
    expect(
      openShardsAfter(1000, [
        { from: 6, to: 1, replicas: 1 },
        { from: 6, to: 2, replicas: 0 },
      ]),
    ).toBe(1000 - 10 - 4);
  });
});

describe('the wizard', () => {
  const step = (
    m: ReturnType<typeof shrinkMachine>,
    s: ShrinkState,
    ...events: Parameters<ReturnType<typeof shrinkMachine>['step']>[1][]
  ) => events.reduce((acc, e) => m.step(acc.state, e), { state: s, effects: [] as unknown[] });

  it('an unfinished run first: the names typed, then it goes on (or rolls back while the original is there)', () => {
    const m = shrinkMachine({ target: 'service_v9_a' });
    const s0 = m.init();
    expect(s0.effects).toEqual([{ type: 'load' }]);
    const unfinished = { line: 'a shrink of service_v9_a stopped at step clone', canRollBack: false, confirmText: 'service_v9_a' };
    const s1 = step(m, s0.state, { type: 'loaded', unfinished });
    expect(s1.state.phase).toBe('unfinished');
    const refused = step(m, s1.state, { type: 'rollback' });
    expect(refused.state).toMatchObject({ phase: 'unfinished', error: expect.stringMatching(/can only go on/) });
    const wrong = step(m, s1.state, { type: 'line', edit: { type: 'insert', text: 'service_v9_b' } }, { type: 'resume' });
    expect(wrong.state).toMatchObject({
      phase: 'unfinished',
      error: 'type service_v9_a (the indices whose originals are deleted) to go on',
    });
    const typed = m.step(m.step(s1.state, { type: 'line', edit: { type: 'insert', text: 'service_v9_a' } }).state, { type: 'resume' });
    expect(typed.state.phase).toBe('running');
    expect(typed.effects).toEqual([{ type: 'resume', confirmation: { by: 'typed', text: 'service_v9_a' }, rollback: false }]);
  });

  it('the highlighted index: its counts read, the proposal filled in; a bad count is said before anything is read', () => {
    const m = shrinkMachine({ target: 'service_v9_a' });
    const s1 = m.step(m.init().state, { type: 'loaded', unfinished: null });
    expect(s1.effects).toEqual([{ type: 'peek', target: 'service_v9_a' }]);
    const s2 = m.step(s1.state, {
      type: 'peeked',
      hint: { index: 'service_v9_a', shards: 6, primaryBytes: MB, targets: [1, 2, 3], proposed: 1 },
    });
    expect(s2.state).toMatchObject({ phase: 'input', form: { shards: '1' } });
    const bad = m.step(m.step(s2.state, { type: 'edit', field: 'shards', value: 'x' }).state, { type: 'submit', now: NOW });
    expect(bad.state).toMatchObject({ phase: 'input', error: expect.stringMatching(/not a whole number/) });
    expect(bad.effects).toEqual([]);
    const ok = m.step(s2.state, { type: 'submit', now: NOW });
    expect(ok.effects).toEqual([
      { type: 'inspect', form: expect.objectContaining({ target: 'service_v9_a', shards: '1' }), to: 1, now: NOW },
    ]);
    const review = m.step(ok.state, {
      type: 'inspected',
      indices: [index({ name: 'service_v9_a' })],
      cluster: cluster(),
      autoCreate: AUTO,
      now: NOW,
    });
    expect(review.state.phase).toBe('review');
    const confirm = m.step(m.step(review.state, { type: 'line', edit: { type: 'insert', text: 'service_v9_a' } }).state, {
      type: 'submit',
      now: NOW,
    });
    expect(confirm.effects).toEqual([{ type: 'run', review: expect.anything(), confirmation: { by: 'typed', text: 'service_v9_a' } }]);
    // Esc does not stop a run half-way.
    expect(m.step(confirm.state, { type: 'cancel' }).state.phase).toBe('running');
  });
});

describe('the template: the count changed where it is set, and the platform JSON', () => {
  const facts = (own: Record<string, unknown> | undefined, comps: Record<string, Record<string, unknown> | null>): TemplateFacts => ({
    name: 'service_v9',
    template: {
      index_patterns: ['service_v9_*'],
      composed_of: Object.keys(comps),
      priority: 100,
      ...(own ? { template: { settings: own } } : {}),
    },
    components: Object.fromEntries(
      Object.entries(comps).map(([k, v]) => [k, v ? { template: { settings: v }, _meta: { owner: 'platform' } } : null]),
    ),
    replicas: 0,
  });
  it("the index template's own settings win; else the last component that sets it; else the index template", () => {
    expect(shardsSetter(facts({ index: { number_of_shards: '6' } }, { a: { number_of_shards: 3 } }))).toEqual({
      kind: 'index',
      name: 'service_v9',
      shards: 6,
    });
    expect(shardsSetter(facts(undefined, { a: { 'index.number_of_shards': 3 }, b: { index: { number_of_shards: 6 } }, c: {} }))).toEqual({
      kind: 'component',
      name: 'b',
      shards: 6,
    });
    expect(shardsSetter(facts(undefined, { a: {}, missing: null }))).toEqual({ kind: 'index', name: 'service_v9', shards: undefined });
  });

  it('only number_of_shards changes (other spellings removed), in the template that sets it; nothing when it says so already', () => {
    const f = facts(undefined, { service_v9_settings: { number_of_shards: 6, 'index.refresh_interval': '5s' }, service_v9_mappings: {} });
    const plan = templateShardsPlan(f, 1)!;
    expect(plan).toMatchObject({ method: 'PUT', path: '/_component_template/service_v9_settings', risk: 'reversible' });
    expect(plan.body).toEqual({
      template: { settings: { 'index.refresh_interval': '5s', index: { number_of_shards: 1 } } },
      _meta: { owner: 'platform' },
    });
    expect(plan.verify!.check({ component_templates: [{ name: 'service_v9_settings', component_template: plan.body }] }).ok).toBe(true);
    expect(
      plan.verify!.check({ component_templates: [{ name: 'service_v9_settings', component_template: f.components.service_v9_settings }] })
        .ok,
    ).toBe(false);
    expect(templateShardsPlan(facts({ number_of_shards: 1 }, {}), 1)).toBeNull();
    expect(withShards({ template: { settings: { number_of_shards: 6, index: { number_of_replicas: 0 } } }, priority: 9 }, 2)).toEqual({
      template: { settings: { index: { number_of_replicas: 0, number_of_shards: 2 } } },
      priority: 9,
    });
  });

  it("the platform's JSON: the seed's fields for the template", () => {
    expect(platformTemplateJson(facts(undefined, { a: {}, b: {} }), 1)).toEqual({
      service_v9: { number_of_shards: 1, number_of_replicas: 0, additional_components: ['a', 'b'] },
    });
    expect(PLATFORM_REMINDER).toMatch(/restart the platform services/);
  });

  it('with a template the count is one for all: no proposal per index; a template that is not there is said', () => {
    const f = facts({ number_of_shards: 6 }, {});
    const r = buildReview({ mode: 'shrink', to: 1, snapshot: false, repository: null, now: NOW }, [index()], cluster(), AUTO, {
      name: 'service_v9',
      facts: f,
    });
    expect(r.ok && r.review.template).toMatchObject({
      name: 'service_v9',
      setter: { kind: 'index', shards: 6 },
      plan: { path: '/_index_template/service_v9' },
    });
    expect(
      buildReview({ mode: 'shrink', to: null, snapshot: false, repository: null, now: NOW }, [index()], cluster(), AUTO, {
        name: 'service_v9',
        facts: f,
      }),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(/give --shards N with --template/),
    });
    expect(
      buildReview({ mode: 'shrink', to: 1, snapshot: false, repository: null, now: NOW }, [index()], cluster(), AUTO, {
        name: 'nope',
        facts: null,
      }),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(/index template "nope" does not exist/),
    });
  });
});
