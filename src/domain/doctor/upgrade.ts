// The doctor's upgrade-readiness section: each deprecation issue Elasticsearch reports (its
// _migration/deprecations API and the node's deprecation log) as a finding, critical ones critical.
import { issueTitle, type DeprecationsReport } from '../inspect/deprecations';
import type { Finding } from './finding';

export function upgradeFindings(r: DeprecationsReport): Finding[] {
  const out: Finding[] = r.issues.map((i, n) => ({
    id: `upgrade.${i.source}.${i.level}${i.target ? `.${i.target}` : ''}.${n + 1}`,
    family: 'upgrade',
    severity: i.severity === 'critical' ? 'critical' : 'warn',
    finding: `deprecated: ${issueTitle(i)}`,
    evidence: [
      i.source === 'api' ? 'GET _migration/deprecations' : `${r.log.file ?? 'the deprecation log'}${i.last ? `, last ${i.last}` : ''}`,
      ...(i.details ? [i.details] : []),
      ...(i.url ? [i.url] : []),
    ],
    remedy: i.fix,
    fix: { command: 'shardeck deprecations' },
  }));
  if (out.length) return out;
  const unread = [...(r.api.read ? [] : [`API: ${r.api.why}`]), ...(r.log.read ? [] : [`log: ${r.log.why}`])];
  const read = [...(r.api.read ? ['GET _migration/deprecations'] : []), ...(r.log.read ? [r.log.file] : [])];
  return [
    read.length
      ? {
          id: 'upgrade.none',
          family: 'upgrade',
          severity: 'ok',
          finding: `no deprecation reported by ${read.join(' or ')}`,
          evidence: unread,
        }
      : {
          id: 'upgrade.none',
          family: 'upgrade',
          severity: 'unknown',
          finding: 'upgrade readiness not checked: neither the deprecation API nor the deprecation log could be read here',
          evidence: unread,
        },
  ];
}
