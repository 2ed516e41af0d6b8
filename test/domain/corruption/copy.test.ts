// Issue 48: the copy of a red index's shard folders before a delete, as plain values: what the
// preview says, the refusals answered before anything is sent (a folder that cannot be read, a
// copy that does not fit, with the numbers), what cannot be copied from this host, the record.
import { describe, expect, it } from 'vitest';
import {
  copyKeptLine,
  copyLines,
  copyMissing,
  copyNeedBytes,
  copyOf,
  copyRefusal,
  parseCopyRecord,
  tarBytes,
  type CopyRecord,
  type IndexCopyPlan,
} from '../../../src/domain/corruption/copy';

const plan: IndexCopyPlan = {
  index: 'idx',
  uuid: 'U1',
  backupDir: '/var/backups/shardeck',
  node: 'n1',
  here: [
    {
      shard: 0,
      folder: '/data/indices/U1/0',
      bytes: 151_023,
      files: 12,
      dirs: 4,
      archive: '/var/backups/shardeck/idx-0-20261128T200000Z.tar',
    },
  ],
  elsewhere: [],
  unreadable: [],
  freeBytes: 10_000_000,
  stamp: '20261128T200000Z',
  engine: null,
};

describe('the copy before a delete', () => {
  it('what GNU tar writes: a header per entry, 512-byte blocks, padded to its 10 KB record', () => {
    expect(tarBytes(0, 0, 0)).toBe(10240);
    expect(tarBytes(1, 1, 1) % 512).toBe(0);
    expect(tarBytes(151_023, 12, 4)).toBeGreaterThan(151_023 + 16 * 512);
  });

  it('the preview names each folder, its archive, the room it needs and that it is kept', () => {
    expect(copyLines(plan)).toEqual([
      'copy of idx shard 0: /data/indices/U1/0 (147kb, 12 files) -> /var/backups/shardeck/idx-0-20261128T200000Z.tar (0600 in a 0700 folder, checked after copying)',
      '  needs 166kb; 9.54mb free in /var/backups/shardeck; kept until you remove it',
    ]);
    expect(copyRefusal(plan)).toBeNull();
    expect(copyMissing(plan)).toBe(false);
  });

  it('a copy that does not fit is refused with the numbers, before anything is sent', () => {
    const small = { ...plan, freeBytes: 64 * 1024 };
    expect(copyRefusal(small)).toBe(
      `the copy of idx needs 166kb (${copyNeedBytes(plan)} bytes) and /var/backups/shardeck has 64.0kb (65536 bytes) free: free space or choose another backup folder (--backup-dir); nothing was sent`,
    );
    // Room to unpack it for CheckIndex counts too.
    expect(copyRefusal({ ...plan, freeBytes: copyNeedBytes(plan) + 10 }, 151_023)).toMatch(/of them to read it with CheckIndex/);
    // A verified copy taken before needs no room.
    expect(copyRefusal({ ...small, here: [{ ...plan.here[0], reuse: '/b/old.tar' }] })).toBeNull();
  });

  it('an unreadable or missing folder is refused, naming it', () => {
    expect(
      copyRefusal({ ...plan, unreadable: [{ folder: '/data/indices/U1/1', error: '/data/indices/U1/1 does not exist on this host' }] }),
    ).toBe(
      '/data/indices/U1/1: /data/indices/U1/1 does not exist on this host: the shard folders of idx cannot be copied, so nothing was sent',
    );
  });

  it('a shard on another host is not copied: said, and the typed confirmation must accept it', () => {
    const away = { ...plan, here: [], elsewhere: [{ shard: 0, node: 'n2', host: '10.0.0.2' }] };
    expect(copyMissing(away)).toBe(true);
    expect(copyLines(away)).toEqual([
      'NOT copied: idx shard 0 is on node n2 (host 10.0.0.2), not on this host: its folder is deleted with the index',
    ]);
    expect(copyLines({ ...plan, here: [] })).toEqual(['NOT copied: no folder of idx is on this host']);
  });

  it('hostile names reach the lines escaped', () => {
    const lines = copyLines({ ...plan, index: 'x\u001b]0;pwned\u0007', elsewhere: [{ shard: 1, node: 'n\nfake row' }] }).join('\n');
    // eslint-disable-next-line no-control-regex -- control characters are what must not be there
    expect(lines).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(lines.split('\n')).toHaveLength(3);
  });
});

describe('the record kept beside the archive', () => {
  const rec: CopyRecord = {
    version: 1,
    index: 'idx',
    uuid: 'U1',
    shard: 0,
    folder: '/data/indices/U1/0',
    node: 'n1',
    archive: '/var/backups/shardeck/idx-0-20261128T200000Z.tar',
    takenAt: '2026-11-28T20:00:01Z',
    why: 'deleting the red index for a restore in place',
    bytes: 151_023,
  };

  it('parses back; anything else is not a record', () => {
    expect(parseCopyRecord(JSON.stringify(rec))).toEqual(rec);
    expect(parseCopyRecord('{"version":2}')).toBeNull();
    expect(parseCopyRecord('{torn')).toBeNull();
  });

  it('the newest copy of this very folder is the one reused', () => {
    const older = { ...rec, takenAt: '2026-11-28T19:00:00Z', archive: '/b/old.tar' };
    expect(copyOf([older, rec], 'U1', 0, rec.folder)).toBe(rec);
    expect(copyOf([rec], 'U2', 0, rec.folder)).toBeUndefined();
    expect(copyOf([rec], 'U1', 0, '/other/0')).toBeUndefined();
  });

  it('status and the console name it, with how to drop it', () => {
    expect(copyKeptLine(rec)).toBe(
      'copy kept: /var/backups/shardeck/idx-0-20261128T200000Z.tar (idx shard 0, 147kb, 2026-11-28 20:00 UTC): remove it and its .json when no longer needed',
    );
    expect(
      copyKeptLine({ ...rec, check: { totalDocs: 2337, lostDocs: 37, brokenSegments: 1, segments: [], wroteNewSegments: false } }),
    ).toMatch(/; CheckIndex: 37 of 2337 documents in broken segments\)/);
  });
});
