// Issue 41, the host a node runs on: memory lock off while swap is on, file descriptors below
// 65,535, vm.max_map_count below 262,144. The node's side recorded from a real 8.19 node
// (dev/record-doctor.ts: process.mlockall false, bootstrap.memory_lock not set, 20,000 file
// descriptors); the host's side as the kernel writes /proc/swaps, swappiness and max_map_count.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fileDescriptorFinding,
  hostFindings,
  maxMapCountFinding,
  memoryLockFinding,
  parseHostKernel,
  parseSwaps,
  type HostNodeFacts,
} from '../../../src/domain/doctor/host';
import { parseDoctorNodes } from '../../../src/domain/doctor/node';
import { parseSampleStats } from '../../../src/domain/doctor/sample';
import { FIXTURES } from '../../helpers/recorded';

const raw = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'doctor-ii', `${name}.json`), 'utf8'));
const [recorded] = parseDoctorNodes(raw('nodes'), {});
const [counters] = parseSampleStats(raw('sample-second').stats);
const node: HostNodeFacts = {
  name: recorded.name,
  here: true,
  ...(recorded.memoryLock !== undefined ? { memoryLock: recorded.memoryLock } : {}),
  ...(recorded.mlockall !== undefined ? { mlockall: recorded.mlockall } : {}),
  maxFileDescriptors: counters.maxFileDescriptors,
  openFileDescriptors: counters.openFileDescriptors,
};

const SWAPS = 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n/swap.img                               file\t\t4194300\t\t1024\t\t-2\n';
const NO_SWAP = 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n';
const kernel = (swaps: string, swappiness: string, maxMapCount = '262144') => parseHostKernel({ swaps, swappiness, maxMapCount });

describe('the recorded node', () => {
  it('reports its memory not locked and its roles', () => {
    expect(recorded).toMatchObject({ mlockall: false, roles: expect.arrayContaining(['master', 'data', 'data_frozen']) });
    expect(recorded.memoryLock).toBeUndefined();
  });
});

describe('host.memory-lock', () => {
  it('memory not locked while swap is on and swappiness is 60: a warning', () => {
    const f = memoryLockFinding(node, kernel(SWAPS, '60\n'));
    expect(f).toMatchObject({ id: 'host.memory-lock.doctor-rec', family: 'host', severity: 'warn' });
    expect(f.finding).toMatch(/^memory lock off while swap is on \(vm\.swappiness 60\)/);
    expect(f.evidence).toEqual([
      'bootstrap.memory_lock not set (false), process.mlockall false',
      'swap areas: /swap.img 4,194,300 kB (1,024 kB used)',
      'vm.swappiness 60',
    ]);
  });

  it('holds with no swap, with swappiness 1, with the memory locked; a node elsewhere is not judged', () => {
    expect(memoryLockFinding(node, kernel(NO_SWAP, '60')).finding).toBe('memory not locked, but this host has no swap');
    expect(memoryLockFinding(node, kernel(SWAPS, '1')).severity).toBe('ok');
    expect(memoryLockFinding({ ...node, mlockall: true }, kernel(SWAPS, '60')).severity).toBe('ok');
    expect(memoryLockFinding({ ...node, here: false, notHere: 'node x does not run on this host' }, kernel(SWAPS, '60'))).toMatchObject({
      severity: 'unknown',
      finding: 'memory not locked; whether its host swaps is not known here (node x does not run on this host)',
    });
  });

  it('bootstrap.memory_lock set but not locked: the failed lock is said', () => {
    expect(memoryLockFinding({ ...node, memoryLock: true }, kernel(SWAPS, '60')).finding).toMatch(/the lock failed/);
  });
});

describe('host.file-descriptors', () => {
  it('the recorded 20,000 is below 65,535: a warning', () => {
    expect(fileDescriptorFinding(node)).toMatchObject({
      severity: 'warn',
      finding: 'file descriptors limit 20,000, below 65,535: with many shards and segments the node fails with "Too many open files"',
    });
  });

  it('holds at 65,535; a node that does not say (-1 on Windows) is not judged', () => {
    expect(fileDescriptorFinding({ ...node, maxFileDescriptors: 65_535 }).severity).toBe('ok');
    const [w] = parseSampleStats({ nodes: { a: { name: 'w', process: { max_file_descriptors: -1 } } } });
    expect(fileDescriptorFinding({ ...node, maxFileDescriptors: w.maxFileDescriptors }).severity).toBe('unknown');
  });
});

describe('host.max-map-count', () => {
  it("65,530 (a kernel's default) is below 262,144: a warning with the sysctl", () => {
    const f = maxMapCountFinding(node, kernel(NO_SWAP, '60', '65530\n'));
    expect(f).toMatchObject({ severity: 'warn', node: 'doctor-rec' });
    expect(f.remedy).toMatch(/^sysctl -w vm\.max_map_count=262144 now/);
  });

  it('holds at 262,144; without a node on this host it is not judged', () => {
    expect(maxMapCountFinding(node, kernel(NO_SWAP, '60', '262144')).severity).toBe('ok');
    expect(maxMapCountFinding(undefined, kernel(NO_SWAP, '60', '65530')).severity).toBe('unknown');
    expect(hostFindings([{ ...node, here: false }], kernel(NO_SWAP, '60', '65530')).map((f) => f.id)).toEqual([
      'host.memory-lock.doctor-rec',
      'host.file-descriptors.doctor-rec',
      'host.max-map-count',
    ]);
  });

  it('/proc/swaps: the header alone is no swap; unreadable is null', () => {
    expect(parseSwaps(NO_SWAP)).toEqual([]);
    expect(parseSwaps(null)).toBeNull();
    expect(parseHostKernel({ swaps: null, swappiness: 'x', maxMapCount: null })).toEqual({
      swaps: null,
      swappiness: null,
      maxMapCount: null,
    });
  });
});
