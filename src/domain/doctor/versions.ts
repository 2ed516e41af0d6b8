// Versions and transport: a node below Elasticsearch 8 (the platform from release 3.7.4 needs 8),
// plain http where the platform expects HTTPS, a certificate close to expiry. Pure.
import type { Finding } from './finding';

export interface NodeVersionFacts {
  name: string;
  version: string;
  /** xpack.security.http.ssl.enabled as the node reports it; null when it does not say. */
  httpTls: boolean | null;
}

export interface Certificate {
  path: string;
  subject: string;
  /** ms since the epoch. */
  expiry: number;
}

/** Within this many days of expiry a certificate is a warning; within CERT_CRITICAL_DAYS critical. */
export const CERT_WARN_DAYS = 30;
export const CERT_CRITICAL_DAYS = 7;

export function versionFindings(
  nodes: readonly NodeVersionFacts[],
  scheme: 'http' | 'https',
  certs: readonly Certificate[] | null,
  now: number,
): Finding[] {
  const out: Finding[] = [];
  for (const n of nodes) {
    const major = Number(/^(\d+)/.exec(n.version)?.[1] ?? NaN);
    const old = major < 8;
    out.push({
      id: `versions.engine.${n.name}`,
      family: 'versions',
      severity: old ? 'critical' : 'ok',
      node: n.name,
      finding: old
        ? `Elasticsearch ${n.version} is below 8: the platform from release 3.7.4 needs engine version 8`
        : `Elasticsearch ${n.version}`,
      evidence: [`version ${n.version}`],
      ...(old
        ? { remedy: 'upgrade the engine to version 8 (required when upgrading the platform from 3.7.3 or earlier to 3.7.4 or later)' }
        : {}),
    });
  }
  const versions = [...new Set(nodes.map((n) => n.version))];
  if (versions.length > 1)
    out.push({
      id: 'versions.mixed',
      family: 'versions',
      severity: 'warn',
      finding: `the nodes run different versions (${versions.join(', ')}): finish the rolling upgrade`,
      evidence: nodes.map((n) => `${n.name}: ${n.version}`),
    });

  const plainNodes = nodes.filter((n) => n.httpTls === false);
  out.push(
    scheme === 'http'
      ? {
          id: 'versions.transport',
          family: 'versions',
          severity: 'warn',
          finding: `shardeck talks to the node over plain http${plainNodes.length === nodes.length ? ' and the node serves no HTTPS' : ''}: from release 3.7.4 the storage node is secured (HTTPS with credentials)`,
          evidence: [
            `connection scheme http`,
            ...nodes.map((n) => `${n.name}: xpack.security.http.ssl.enabled ${n.httpTls === null ? 'not reported' : n.httpTls}`),
          ],
          remedy: "enable TLS on the node's HTTP layer (xpack.security.http.ssl.*) and connect with https:// and --ca",
        }
      : {
          id: 'versions.transport',
          family: 'versions',
          severity: 'ok',
          finding: 'HTTPS to the node',
          evidence: ['connection scheme https'],
        },
  );
  if (certs) {
    const day = 86_400_000;
    for (const c of certs) {
      const days = (c.expiry - now) / day;
      const sev = days <= CERT_CRITICAL_DAYS ? 'critical' : days <= CERT_WARN_DAYS ? 'warn' : 'ok';
      out.push({
        id: `versions.certificate.${c.path}`,
        family: 'versions',
        severity: sev,
        finding:
          days <= 0
            ? `certificate ${c.path} expired ${Math.ceil(-days)} days ago`
            : `certificate ${c.path} expires in ${Math.floor(days)} days`,
        evidence: [`${c.subject}, not after ${new Date(c.expiry).toISOString()}`],
        ...(sev === 'ok'
          ? {}
          : {
              remedy: 'renew the certificate (same CA), put it in place of the old one and restart the engine (shardeck service restart)',
              fix: { command: 'shardeck service restart' },
            }),
      });
    }
  }
  return out;
}
