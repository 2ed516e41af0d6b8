// The one map of version -> capability, with plain values.
import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  lacks,
  missingFeatures,
  missingText,
  oldestVersion,
  parseEsVersion,
  refusal,
} from '../../src/domain/capabilities';

const v = (t: string) => parseEsVersion(t)!;

describe('capabilities', () => {
  it('parses the version a node says, snapshots and pre-releases included', () => {
    expect(parseEsVersion('8.6.2')).toEqual({ major: 8, minor: 6, patch: 2, text: '8.6.2' });
    expect(parseEsVersion('8.19.0-SNAPSHOT')).toMatchObject({ minor: 19, text: '8.19.0' });
    expect(parseEsVersion('banana')).toBeUndefined();
    expect(parseEsVersion(undefined)).toBeUndefined();
  });

  it('orders minors as numbers, not text (8.19 is newer than 8.7)', () => {
    expect(compareVersions(v('8.19.0'), v('8.7.0'))).toBeGreaterThan(0);
    expect(oldestVersion(['8.19.21', '8.7.1', '8.10.4'])?.text).toBe('8.7.1');
  });

  it('the health report is missing before 8.7 only', () => {
    expect(lacks(v('8.0.0'), 'healthReport')).toBe(true);
    expect(lacks(v('8.6.2'), 'healthReport')).toBe(true);
    expect(lacks(v('8.7.0'), 'healthReport')).toBe(false);
    expect(lacks(v('8.19.21'), 'healthReport')).toBe(false);
    // A node that does not say its version is asked (it answers or fails on its own).
    expect(lacks(undefined, 'healthReport')).toBe(false);
    expect(missingFeatures(v('8.6.2'))).toEqual(['healthReport']);
    expect(missingFeatures(v('8.19.21'))).toEqual([]);
  });

  it('says what is missing, from which version, and what is shown instead', () => {
    expect(missingText(v('8.6.2'), 'healthReport')).toBe(
      "the health report (GET _health_report) needs Elasticsearch 8.7 or newer (this node runs 8.6.2); shown instead: shardeck's own diagnosis: cluster health, unassigned shards by reason (allocation explain on demand), disk watermarks",
    );
  });

  it('refuses a major it does not know with one sentence, and only those', () => {
    expect(refusal(v('8.0.0'))).toBeUndefined();
    expect(refusal(v('8.19.21'))).toBeUndefined();
    expect(refusal(v('9.1.0'))).toMatch(
      /^this node runs Elasticsearch 9\.1\.0: shardeck is built and tested for Elasticsearch 8\.x.*docs\/ES9\.md/,
    );
    expect(refusal(v('7.17.29'))).toMatch(/needs Elasticsearch 8\.0 or newer/);
  });
});

describe('what a pre-8.16 node leaves out (recorded from 8.6.2: test/fixtures/red-8.6.2)', () => {
  it('cluster health has no unassigned_primary_shards: unknown, not 0; the status report counts them from the shards', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const { parseCatShards, parseClusterHealth } = await import('../../src/domain/parse');
    const { unassignedPrimaries } = await import('../../src/domain/inspect/status');
    const { summaryLines } = await import('../../src/domain/panes/health');
    const dir = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures', 'red-8.6.2');
    const read = (f: string) => JSON.parse(fs.readFileSync(path.join(dir, `${f}.json`), 'utf8'));
    const health = parseClusterHealth(read('health'));
    expect(health.status).toBe('red');
    expect(health.unassignedPrimaryShards).toBeNull();
    expect(unassignedPrimaries(health, parseCatShards(read('shards')))).toBe(1);
    // The summary does not claim "(pri 0)" on a red cluster, and is red.
    const shardsLine = summaryLines(health, '8.6.2', null).at(-1)!;
    expect(shardsLine.text).toMatch(/unassigned 7$/);
    expect(shardsLine.tone).toBe('red');
  });
});

describe('force merge on 8.0 (no wait_for_completion: not a task)', () => {
  it('the capability is missing on 8.0 only, and the review then plans the merge in the request', async () => {
    const { buildMergeReview } = await import('../../src/domain/wizards/forcemerge');
    expect(lacks(v('8.0.0'), 'forcemergeTask')).toBe(true);
    expect(lacks(v('8.1.1'), 'forcemergeTask')).toBe(false);
    const facts = { indices: [{ name: 'a', docsDeleted: 0, storeBytes: 10 }], disks: [] } as never;
    expect(buildMergeReview('a', ['a'], facts, 0).plan.querystring).toMatchObject({ wait_for_completion: 'false' });
    expect(buildMergeReview('a', ['a'], facts, 0, false).plan.querystring).toEqual({ only_expunge_deletes: 'true' });
  });
});
