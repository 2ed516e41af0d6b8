// The Snapshots pane's lines, on the answers of its polled reads recorded from a real 8.19 node
// (test/fixtures/snapshots/pane-*.json: repository "backups", nightly-1 SUCCESS of logs-a and logs-b,
// nightly-2 PARTIAL of logs-a and logs-c whose primary could not be allocated).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../../src/cluster/resources';
import {
  emptySnapshotsText,
  holdingLine,
  repositoriesLine,
  runningLines,
  snapshotDetails,
  snapshotsInfo,
} from '../../../src/domain/panes/snapshots';

const read = (file: string) => JSON.parse(fs.readFileSync(path.join(__dirname, '../../fixtures/snapshots', `${file}.json`), 'utf8'));
const repos = RESOURCES.snapshotRepositories.parse(read('pane-repositories'));
const snaps = RESOURCES.snapshots.parse(read('pane-snapshots'));

describe('the snapshots read, every repository in one request', () => {
  it('keeps each snapshot its repository and lists them newest first', () => {
    expect(snaps.map((s) => `${s.repository}/${s.name} ${s.state}`)).toEqual(['backups/nightly-2 PARTIAL', 'backups/nightly-1 SUCCESS']);
  });
  it('reads the empty answers of a node without a repository as empty lists', () => {
    expect(RESOURCES.snapshotRepositories.parse({})).toEqual([]);
    expect(RESOURCES.snapshots.parse({})).toEqual([]);
    expect(RESOURCES.runningSnapshots.parse({ snapshots: [] })).toEqual([]);
    expect(RESOURCES.restores.parse({})).toEqual([]);
  });
  it('keeps only the restores among the recoveries', () => {
    const all = read('recovery-after-restore');
    expect(RESOURCES.restores.parse(all).map((r) => r.index)).toEqual(['logs-a-restored']);
  });
});

describe('Snapshots pane lines', () => {
  it('says how to add a repository when there is none', () => {
    expect(repositoriesLine([]).text).toMatch(/^no repository: shardeck snapshot repo add NAME --location PATH/);
    expect(emptySnapshotsText([])).toBe('no repository, so no snapshot');
    expect(repositoriesLine(repos).text).toMatch(/^repository: backups \(fs \/.*\/backups\)$/);
  });
  it('counts in the title', () => {
    expect(snapshotsInfo(2, 1)).toBe('2 snapshots · 1 repository');
    expect(snapshotsInfo(1, 0)).toBe('1 snapshot · 0 repositories');
  });
  it('names the snapshots holding the highlighted index, not a PARTIAL that failed its shard', () => {
    expect(holdingLine('logs-a', snaps)?.text).toBe('logs-a (Indices pane) is held by backups/nightly-2, backups/nightly-1');
    expect(holdingLine('logs-c', snaps)).toEqual({ text: 'logs-c (Indices pane) is in no snapshot', tone: 'yellow' });
    expect(holdingLine(undefined, snaps)).toBeUndefined();
  });
  it('details a PARTIAL snapshot with the reason of its failed shard', () => {
    const lines = snapshotDetails(snaps[0]).map((l) => l.text);
    expect(lines[1]).toBe('indices: logs-a, logs-c');
    expect(lines[2]).toBe('logs-c[0]: primary shard is not allocated (INTERNAL_SERVER_ERROR)');
  });
  it('gives each running snapshot and restoring shard its percentage for the bar', () => {
    const status = RESOURCES.runningSnapshots.parse(read('status-s1'));
    const restores = RESOURCES.restores.parse(read('recovery-after-restore'));
    expect(runningLines(status, restores).map((l) => [l.text.split(':')[0], l.percent])).toEqual([
      ['snapshot r1/s1 SUCCESS', 100],
      ['restore s1', 100],
    ]);
    const half = { ...restores[0], stage: 'INDEX', bytesRecovered: restores[0].bytesTotal / 2 };
    expect(runningLines([], [half])[0].percent).toBe(50);
  });
});
