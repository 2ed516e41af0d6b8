import { describe, expect, it } from 'vitest';
import { scrollFindings } from '../../../src/domain/doctor/scroll';
import { versionFindings } from '../../../src/domain/doctor/versions';
import { parseCertificates } from '../../../src/domain/doctor/node';

describe('scroll contexts', () => {
  it('ok below 80% of the limit, warn from 80%, critical at the limit; fix is the scroll wizard', () => {
    const f = scrollFindings(
      [
        { name: 'a', openContexts: 10, scrollCurrent: 10 },
        { name: 'b', openContexts: 400, scrollCurrent: 400 },
        { name: 'c', openContexts: 500, scrollCurrent: 500 },
      ],
      500,
    );
    expect(f.map((x) => x.severity)).toEqual(['ok', 'warn', 'critical']);
    expect(f[1]).toMatchObject({ fix: { key: 'L', command: 'shardeck scroll-limit 1000' } });
    expect(f[1].remedy).toBe(
      'raise search.max_open_scroll_context (e.g. to 1000), or lower the scroll argument of client scan calls from the default 5m to e.g. 1m',
    );
  });
});

describe('versions and transport', () => {
  const now = Date.parse('2026-11-24T00:00:00Z');
  it('a node below 8 is critical (platform 3.7.4 needs 8); mixed versions warn', () => {
    const f = versionFindings(
      [
        { name: 'a', version: '7.17.29', httpTls: false },
        { name: 'b', version: '8.19.21', httpTls: true },
      ],
      'https',
      null,
      now,
    );
    expect(f.find((x) => x.id === 'versions.engine.a')).toMatchObject({ severity: 'critical' });
    expect(f.find((x) => x.id === 'versions.engine.b')).toMatchObject({ severity: 'ok' });
    expect(f.find((x) => x.id === 'versions.mixed')?.severity).toBe('warn');
  });

  it('plain http warns; https is ok', () => {
    expect(
      versionFindings([{ name: 'a', version: '8.19.21', httpTls: false }], 'http', null, now).find((x) => x.id === 'versions.transport')
        ?.finding,
    ).toMatch(/plain http and the node serves no HTTPS/);
    expect(
      versionFindings([{ name: 'a', version: '8.19.21', httpTls: true }], 'https', null, now).find((x) => x.id === 'versions.transport')
        ?.severity,
    ).toBe('ok');
  });

  it('a certificate within 30 days warns, within 7 is critical; the _ssl/certificates answer is deduplicated', () => {
    const certs = parseCertificates([
      { path: 'tls/node.crt', format: 'PEM', serial_number: '1', subject_dn: 'CN=node', expiry: '2026-12-10T00:00:00.000Z' },
      { path: 'tls/node.crt', format: 'PEM', serial_number: '1', subject_dn: 'CN=node', expiry: '2026-12-10T00:00:00.000Z' },
      { path: 'tls/ca.crt', format: 'PEM', serial_number: '2', subject_dn: 'CN=ca', expiry: '2026-11-28T00:00:00.000Z' },
      { path: 'tls/long.crt', format: 'PEM', serial_number: '3', subject_dn: 'CN=x', expiry: '2027-11-28T00:00:00.000Z' },
    ]);
    expect(certs).toHaveLength(3);
    const f = versionFindings([{ name: 'a', version: '8.19.21', httpTls: true }], 'https', certs, now).filter((x) =>
      x.id.startsWith('versions.certificate'),
    );
    expect(f.map((x) => [x.id, x.severity])).toEqual([
      ['versions.certificate.tls/node.crt', 'warn'],
      ['versions.certificate.tls/ca.crt', 'critical'],
      ['versions.certificate.tls/long.crt', 'ok'],
    ]);
    expect(parseCertificates({ error: 'no' })).toBeNull();
  });
});
