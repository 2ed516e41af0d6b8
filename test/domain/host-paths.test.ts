import { expect, it } from 'vitest';
import {
  isInside,
  notPrivateFolder,
  pathPrefixes,
  processUidOf,
  untrustedFolder,
  untrustedProgram,
  type PathStat,
} from '../../src/domain/host/host-paths';

const dir = (uid: number, mode: number): PathStat => ({ isSymbolicLink: false, isDirectory: true, isFile: false, uid, mode });
const file = (uid: number, mode: number): PathStat => ({ isSymbolicLink: false, isDirectory: false, isFile: true, uid, mode });

it('a folder on the way must be a real folder of a trusted owner that others cannot write (sticky /tmp is fine)', () => {
  expect(untrustedFolder('/var', dir(0, 0o755), [0])).toBeNull();
  expect(untrustedFolder('/tmp', dir(0, 0o1777), [0])).toBeNull();
  expect(untrustedFolder('/srv/x', dir(0, 0o777), [0])).toBe('/srv/x can be written by others (mode 0777)');
  expect(untrustedFolder('/srv/x', dir(0, 0o775), [0])).toBe('/srv/x can be written by others (mode 0775)');
  expect(untrustedFolder('/es', dir(999, 0o755), [0])).toBe('/es belongs to another user (uid 999)');
  expect(untrustedFolder('/es', { ...dir(0, 0o777), isSymbolicLink: true }, [0])).toBe('/es is a symbolic link');
  expect(untrustedFolder('/f', file(0, 0o600), [0])).toBe('/f is not a folder');
});

it("the last folder of a private place is the user's own, 0700", () => {
  expect(notPrivateFolder('/b', dir(0, 0o700), 0)).toBeNull();
  expect(notPrivateFolder('/b', dir(0, 0o750), 0)).toMatch(/^\/b can be opened by others \(mode 0750/);
  expect(notPrivateFolder('/b', dir(1000, 0o700), 0)).toBe('/b belongs to another user (uid 1000)');
});

it('a program root runs is a real root-owned file no one else can change', () => {
  expect(untrustedProgram('/usr/bin/tar', file(0, 0o755))).toBeNull();
  expect(untrustedProgram('/es/jdk/bin/java', file(999, 0o755))).toBe('/es/jdk/bin/java belongs to uid 999, not root');
  expect(untrustedProgram('/opt/java', file(0, 0o775))).toBe('/opt/java can be written by others (mode 0775)');
  expect(untrustedProgram('/opt/java', { ...file(0, 0o755), isSymbolicLink: true })).toBe('/opt/java is a symbolic link');
});

it('prefixes and insideness', () => {
  expect(pathPrefixes('/var/backups/shardeck')).toEqual(['/', '/var', '/var/backups', '/var/backups/shardeck']);
  expect(pathPrefixes('/')).toEqual(['/']);
  expect(isInside('/data', '/data/indices/x')).toBe(true);
  expect(isInside('/data/', '/data')).toBe(true);
  expect(isInside('/data', '/data2/x')).toBe(false);
  expect(isInside('/', '/etc')).toBe(true);
});

it("the engine's uid comes from its process status, all four uids agreeing", () => {
  expect(processUidOf('Name:\tjava\nUid:\t999\t999\t999\t999\nGid:\t995\t995\t995\t995\n')).toBe(999);
  expect(processUidOf('Uid:\t0\t0\t0\t0\n')).toBe(0);
  expect(processUidOf('Uid:\t999\t0\t999\t0\n')).toBeNull();
  expect(processUidOf('Name:\tjava\n')).toBeNull();
});
