// Recoveries in progress and the recovery throttle (plain values shaped like 8.19's answers:
// GET _recovery?active_only with its filter_path, GET _cluster/settings?include_defaults).
import { describe, expect, it } from 'vitest';
import { parseRecovery } from '../../src/domain/snapshots';
import {
  activeRecoveries,
  isByteRate,
  parseRecoveryThrottle,
  parseThrottleRecord,
  recoveryLine,
  recoveryProgress,
  recoverySection,
  throttlePlan,
  throttleRecordBefore,
} from '../../src/domain/nodes/shard-recovery';

const answer = {
  logs: {
    shards: [
      {
        id: 0,
        type: 'PEER',
        stage: 'INDEX',
        primary: false,
        total_time_in_millis: 4000,
        source: { id: 'a', host: '127.0.0.1', transport_address: '127.0.0.1:9300', ip: '127.0.0.1', name: 'node-1' },
        target: { name: 'node-3' },
        index: {
          size: { total_in_bytes: 8_000_000, reused_in_bytes: 0, recovered_in_bytes: 4_000_000 },
          files: { total: 10, reused: 0, recovered: 5 },
        },
      },
      { id: 1, type: 'PEER', stage: 'DONE', primary: false, total_time_in_millis: 10, index: { size: {}, files: {} } },
    ],
  },
};

describe('recoveries', () => {
  it('source and target, %, rate and time left', () => {
    const [r, done] = parseRecovery(answer);
    expect(r).toMatchObject({ index: 'logs', shard: 0, sourceNode: 'node-1', targetNode: 'node-3' });
    expect(recoveryProgress(r)).toEqual({ bytesPercent: 50, filesPercent: 50, rate: 1_000_000, etaMs: 4000 });
    expect(activeRecoveries([r, done])).toEqual([r]);
    expect(recoveryLine(r)).toMatch(/^logs\[0\]r peer\/index node-1 -> node-3: 50\.0% of .*files 50\.0% \(5\/10\), .*\/s, ETA 4s$/);
    // Nothing copied yet: no rate, no ETA.
    expect(recoveryProgress({ ...r, bytesRecovered: 0 })).toMatchObject({ rate: null, etaMs: null });
  });
});

describe('recovery throttle', () => {
  it('each value and where it comes from (transient, persistent, the default)', () => {
    const t = parseRecoveryThrottle({
      persistent: { indices: { recovery: { max_bytes_per_sec: '1mb' } } },
      defaults: {
        indices: { recovery: { max_bytes_per_sec: '40mb' } },
        cluster: { routing: { allocation: { node_concurrent_recoveries: '2' } } },
      },
    });
    expect(t).toEqual({
      'indices.recovery.max_bytes_per_sec': { value: '1mb', level: 'persistent' },
      'cluster.routing.allocation.node_concurrent_recoveries': { value: '2', level: 'default' },
    });
    expect(isByteRate('100mb')).toBe(true);
    expect(isByteRate('fast')).toBe(false);
  });

  it('the value before is kept from the first change; the plan reads back what it set', () => {
    const head = { clusterUuid: 'u', at: 't', user: 'root' };
    const first = throttleRecordBefore(
      null,
      { 'indices.recovery.max_bytes_per_sec': '1mb' },
      { 'indices.recovery.max_bytes_per_sec': null },
      head,
    );
    const second = throttleRecordBefore(
      first,
      { 'indices.recovery.max_bytes_per_sec': '5mb' },
      { 'indices.recovery.max_bytes_per_sec': '1mb' },
      head,
    );
    expect(second.before).toEqual({ 'indices.recovery.max_bytes_per_sec': null });
    expect(parseThrottleRecord(JSON.stringify(second))).toEqual(second);
    expect(parseThrottleRecord(JSON.stringify({ ...second, before: { 'other.setting': 'x' } }))).toBeNull();
    const p = throttlePlan(second.before, 'put back');
    expect(p.body).toEqual({ persistent: { 'indices.recovery.max_bytes_per_sec': null } });
    expect(p.verify!.check({ persistent: {} }).ok).toBe(true);
    expect(p.verify!.check({ persistent: { 'indices.recovery.max_bytes_per_sec': '1mb' } }).ok).toBe(false);
  });
});

describe('the Shards pane recovery section', () => {
  const one = parseRecovery(answer)[0];
  const many = Array.from({ length: 5 }, (_, i) => ({ ...one, shard: i }));
  const text = (l: ReturnType<typeof recoverySection>[number]) =>
    'text' in l ? l.text : `${l.before}[${'#'.repeat(l.barWidth)}]${l.after}`;

  it('a title, then per recovery the copy and where, and a bar with %, files, rate and ETA, each line within the width', () => {
    const lines = recoverySection([one], 80, 5);
    expect(lines.map(text).map((t) => t.trimEnd())).toEqual([
      'recoveries: 1 active (details and throttle: shardeck recovery)',
      'logs[0]r peer/index node-1 -> node-3',
      `  [${'#'.repeat(28)}] 50.0% of 7.63mb · files 5/10 · 977kb/s · ETA 4s`,
    ]);
    expect(lines[2]).toMatchObject({ percent: 50 });
    for (const w of [40, 80, 120]) for (const l of recoverySection(many, w, 9)) expect(text(l).length).toBeLessThanOrEqual(w);
  });

  it('an index or node name holding a control character is escaped, and the line still fits', () => {
    const hostile = { ...one, index: 'evil\u001b[2Jidx', targetNode: 'node\u0007' };
    const [, copy] = recoverySection([hostile], 80, 5).map(text);
    expect([...copy].filter((ch) => ch.charCodeAt(0) < 0x20)).toEqual([]);
    expect(copy).toContain('evil\\u001b[2Jidx');
    expect(copy.length).toBeLessThanOrEqual(80);
  });

  it('those that do not fit are counted; nothing without recoveries or room', () => {
    const lines = recoverySection(many, 80, 5).map(text);
    expect(lines).toHaveLength(4);
    expect(lines[3].trim()).toBe('+4 more: shardeck recovery');
    expect(recoverySection(many, 80, 11)).toHaveLength(11);
    expect(recoverySection([], 80, 9)).toEqual([]);
    expect(recoverySection([one], 80, 2)).toEqual([]);
  });
});
