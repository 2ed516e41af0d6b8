import { describe, expect, it } from 'vitest';
import { mountOf, parseMountInfo, tmpFindings, type TmpView } from '../../../src/domain/doctor/tmp';

const MOUNTINFO = [
  '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw',
  '42 22 0:39 / /tmp rw,nosuid,nodev,noexec,relatime shared:2 - tmpfs tmpfs rw,size=65536k',
  '43 22 0:40 / /var/lib/elasticsearch\\040tmp rw,relatime - ext4 /dev/sdb1 rw',
].join('\n');

const engine = { uid: 998, gid: 997, user: 'elasticsearch', group: 'elasticsearch' };
const view = (p: string, owner: Partial<NonNullable<TmpView['owner']>> = {}): TmpView => ({
  path: p,
  exists: true,
  mount: mountOf(parseMountInfo(MOUNTINFO), p),
  owner: { uid: 998, gid: 997, user: 'elasticsearch', group: 'elasticsearch', mode: 0o40700, ...owner },
  engine,
});

describe('temp folder', () => {
  it('finds the mount of a path (longest prefix, escaped spaces)', () => {
    const m = parseMountInfo(MOUNTINFO);
    expect(mountOf(m, '/tmp/elasticsearch-123')?.mountPoint).toBe('/tmp');
    expect(mountOf(m, '/tmpx')?.mountPoint).toBe('/');
    expect(mountOf(m, '/var/lib/elasticsearch tmp/x')?.options).not.toContain('noexec');
  });

  it('noexec is a warning with the seed remedy', () => {
    const [f] = tmpFindings({ node: 'n1', tmpDir: '/tmp/es', view: view('/tmp/es') });
    expect(f.severity).toBe('warn');
    expect(f.finding).toMatch(/\/tmp\/es is on a noexec mount \(\/tmp\)/);
    expect(f.remedy).toMatch(/ES_TMPDIR .* owned by elasticsearch:elasticsearch .* restart/);
  });

  it('a folder of another user the engine cannot write in is a warning', () => {
    const [f] = tmpFindings({
      node: 'n1',
      tmpDir: '/srv/t',
      view: view('/srv/t', { uid: 0, gid: 0, user: 'root', group: 'root', mode: 0o40755 }),
    });
    expect(f.finding).toMatch(/owned by root, not by the engine's user elasticsearch \(who cannot write in it\)/);
  });

  it('ok on an exec mount owned by the engine; unknown when not on this host', () => {
    expect(tmpFindings({ node: 'n1', tmpDir: '/srv/t', view: view('/srv/t') })[0].severity).toBe('ok');
    expect(tmpFindings({ node: 'n1', tmpDir: '/srv/t', view: { notHere: 'elsewhere' } })[0]).toMatchObject({
      severity: 'unknown',
      finding: 'temp folder not on this host: elsewhere',
    });
  });
});

describe('temp folder behind a symlink', () => {
  it('names both, and the mount of the target counts', () => {
    const v = { ...view('/tmp/es'), path: '/var/lib/es/tmp', realPath: '/tmp/es' };
    const [f] = tmpFindings({ node: 'n1', tmpDir: '/var/lib/es/tmp', view: v });
    expect(f.finding).toBe('/var/lib/es/tmp (-> /tmp/es) is on a noexec mount (/tmp): JNA native methods are disabled');
  });
});
