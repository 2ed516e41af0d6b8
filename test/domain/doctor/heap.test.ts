// Heap rules and which options file wins, on plain values (the real jvm.options.d override and
// Xms != Xmx are in test/integration/doctor.test.ts).
import { describe, expect, it } from 'vitest';
import { heapFindings, parseJavaSize, resolveHeapOptions, type HeapInputs } from '../../../src/domain/doctor/heap';

const GB = 1024 ** 3;
const files = [
  { path: '/etc/elasticsearch/jvm.options', lines: ['## -Xms4g', '-Xms2g', '-Xmx2g', '8:-Xmx1g'] },
  { path: '/etc/elasticsearch/jvm.options.d/platform.options', lines: ['# heap of the platform', '-Xms4g', '17-:-Xmx4g'] },
];

function inputs(p: Partial<HeapInputs['heap']> = {}, over: Partial<HeapInputs> = {}): HeapInputs {
  return {
    heap: { node: 'n1', heapInitBytes: 4 * GB, heapMaxBytes: 4 * GB, compressedOops: 'true', ramBytes: 16 * GB, ...p },
    options: { files, javaMajor: 17 },
    platformOnHost: { value: false, source: 'profile' },
    ...over,
  };
}
const byId = (fs: ReturnType<typeof heapFindings>, id: string) => fs.find((f) => f.id === id)!;

describe('jvm options', () => {
  it('parses JVM sizes', () => {
    expect(parseJavaSize('512m')).toBe(512 * 1024 ** 2);
    expect(parseJavaSize('4G')).toBe(4 * GB);
    expect(parseJavaSize('1073741824')).toBe(GB);
    expect(parseJavaSize('lots')).toBeNull();
  });

  it('the jvm.options.d file wins over jvm.options, version prefixes apply, comments do not', () => {
    const o = resolveHeapOptions(files, undefined, 17);
    expect(o.xms?.where).toBe('/etc/elasticsearch/jvm.options.d/platform.options:2');
    expect(o.xmx).toMatchObject({ where: '/etc/elasticsearch/jvm.options.d/platform.options:3', bytes: 4 * GB });
    // "8:-Xmx1g" is for Java 8 only.
    expect(o.all.map((s) => s.where)).not.toContain('/etc/elasticsearch/jvm.options:4');
    expect(resolveHeapOptions(files, undefined, 8).all.map((s) => s.where)).toContain('/etc/elasticsearch/jvm.options:4');
  });

  it('ES_JAVA_OPTS comes last and wins', () => {
    const o = resolveHeapOptions(files, '-Xms1g -Xmx1g -Dfoo=1', 17);
    expect(o.xmx).toMatchObject({ where: 'ES_JAVA_OPTS', bytes: GB });
  });
});

describe('heap findings', () => {
  it('all ok on a 4 GB heap of 16 GB RAM set by the override file', () => {
    const f = heapFindings(inputs());
    expect(f.every((x) => x.severity === 'ok')).toBe(true);
    expect(byId(f, 'heap.options.n1').finding).toMatch(
      /-Xmx4g from \/etc\/elasticsearch\/jvm.options.d\/platform.options:3 \(overrides .*-Xmx2g at \/etc\/elasticsearch\/jvm.options:3/,
    );
  });

  it('Xms != Xmx is a warning with the lines that set them', () => {
    const f = byId(heapFindings(inputs({ heapInitBytes: 2 * GB })), 'heap.xms-xmx.n1');
    expect(f.severity).toBe('warn');
    expect(f.remedy).toMatch(/same value in \/etc\/elasticsearch\/jvm.options.d\/platform.options.*shardeck service restart/);
    expect(f.fix?.command).toBe('shardeck service restart');
  });

  it('30% when shared: 4 GB of 16 GB is 25% (ok), 6 GB is 37% (warn)', () => {
    const on = { platformOnHost: { value: true, source: 'profile' } };
    expect(byId(heapFindings(inputs({}, on)), 'heap.ram.n1').severity).toBe('ok');
    const f = byId(heapFindings(inputs({ heapMaxBytes: 6 * GB, heapInitBytes: 6 * GB }, on)), 'heap.ram.n1');
    expect(f.severity).toBe('warn');
    expect(f.finding).toMatch(/is 38% of 16.0gb RAM \(at most 30%: the platform's cluster node shares this machine/);
  });

  it('past the compressed-oops limit is critical', () => {
    const f = byId(
      heapFindings(inputs({ heapMaxBytes: 40 * GB, heapInitBytes: 40 * GB, ramBytes: 128 * GB, compressedOops: 'false' })),
      'heap.oops.n1',
    );
    expect(f.severity).toBe('critical');
  });

  it('options changed since the node started: restart pending', () => {
    const f = byId(heapFindings(inputs({ heapInitBytes: 2 * GB, heapMaxBytes: 2 * GB })), 'heap.options.n1');
    expect(f.severity).toBe('warn');
    expect(f.finding).toMatch(/node runs with 2.00gb\/2.00gb: changed since it started/);
  });

  it('says "not on this host" instead of guessing', () => {
    const f = byId(heapFindings(inputs({}, { options: { notHere: 'node n1 does not run on this host' } })), 'heap.options.n1');
    expect(f).toMatchObject({ severity: 'unknown', finding: 'jvm.options not on this host: node n1 does not run on this host' });
  });

  it('a range prefix applies past its lower bound, a single version only to itself', () => {
    const lines = [{ path: '/etc/elasticsearch/jvm.options', lines: ['17:-Xms1g', '17-:-Xmx3g', '11-17:-Xmx2g'] }];
    const at21 = resolveHeapOptions(lines, undefined, 21);
    expect(at21.xms).toBeUndefined();
    expect(at21.xmx).toMatchObject({ where: '/etc/elasticsearch/jvm.options:2', bytes: 3 * GB });
    expect(resolveHeapOptions(lines, undefined, 17).xms).toMatchObject({ bytes: GB });
  });

  it('a heap flag without a size it can read is not a setting, in the files or in ES_JAVA_OPTS', () => {
    const o = resolveHeapOptions([{ path: '/x/jvm.options', lines: ['-Xmxlots'] }], '-Xmsmuch -Dfoo=1', 17);
    expect(o.all).toEqual([]);
  });

  it('without an override file the remedy names the file to create', () => {
    const plain = [{ path: '/etc/elasticsearch/jvm.options', lines: ['-Xms2g', '-Xmx4g'] }];
    const f = byId(heapFindings(inputs({ heapInitBytes: 2 * GB }, { options: { files: plain, javaMajor: 17 } })), 'heap.xms-xmx.n1');
    expect(f.remedy).toMatch(/same value in a file of jvm.options.d named after the platform \(it overrides jvm.options\)/);
  });

  it('exactly half of RAM is still ok; the compressed-oops answer is in the evidence', () => {
    const half = heapFindings(inputs({ heapMaxBytes: 8 * GB, heapInitBytes: 8 * GB }));
    expect(byId(half, 'heap.ram.n1').severity).toBe('ok');
    expect(byId(half, 'heap.oops.n1').evidence).toContain('using_compressed_ordinary_object_pointers: true');
    expect(byId(heapFindings(inputs({ compressedOops: undefined })), 'heap.oops.n1').evidence).toEqual([`heap_max ${4 * GB} B`]);
  });
});
