// shardeck deprecations [--json]: upgrade readiness. What Elasticsearch itself reports will break
// on the next major: GET _migration/deprecations (cluster, node, index, data stream, template and
// ILM levels; needs the cluster privilege manage) and the deprecation log of the node on this host
// (the deprecated settings it was started with, the deprecated APIs clients call). Grouped by
// severity, each with its message, details, doc link and the fix. Reads only.
// Exit like the doctor: 0 nothing to do, 1 warnings, 2 a critical issue, 3 unreachable.
import { displayText } from '../domain/text/display-text';
import { countOf } from '../domain/text/format';
import { createEsApi } from '../cluster/api';
import { closeClient } from '../cluster/connection';
import { deprecationsExit, issueTitle, type DeprecationsReport, type DeprecationSeverity } from '../domain/inspect/deprecations';
import { readDeprecations } from '../services/doctor';
import { openConnection, type CommandModule } from './support/common';
import { reportFailure, usageError } from './support/guarded';
import { paint } from './support/paint';
import { out, outJson } from './support/output';

const NAME = 'deprecations';

const HEAD: Record<DeprecationSeverity, [string, string]> = {
  critical: ['CRITICAL: the next major will not start, or will refuse it, until these are fixed', 'red'],
  warning: ['WARNING: deprecated, to fix before the next major', 'yellow'],
};

/** The report as text lines, every value escaped where it is put into its line. */
export function deprecationsText(r: DeprecationsReport): string {
  const lines: string[] = [];
  lines.push(
    `upgrade readiness: ${countOf(r.counts.critical, 'critical issue')}, ${countOf(r.counts.warning, 'warning')}` +
      ` (from ${r.api.read ? 'GET _migration/deprecations' : 'no API'}${r.log.read ? ` and ${displayText(r.log.file)}` : ''})`,
  );
  if (!r.api.read) lines.push(paint('dim', `  API not read: ${displayText(r.api.why)}`));
  if (!r.log.read) lines.push(paint('dim', `  log not read: ${displayText(r.log.why)}`));
  for (const sev of ['critical', 'warning'] as const) {
    const issues = r.issues.filter((i) => i.severity === sev);
    if (!issues.length) continue;
    lines.push('', paint(HEAD[sev][1], HEAD[sev][0]));
    for (const i of issues) {
      lines.push(`- ${displayText(issueTitle(i))}`);
      if (i.details && i.source === 'api') lines.push(`    details: ${displayText(i.details)}`);
      if (i.first && i.last) lines.push(paint('dim', `    seen ${displayText(i.first)} .. ${displayText(i.last)}`));
      if (i.url) lines.push(`    doc: ${displayText(i.url)}`);
      lines.push(`    fix: ${displayText(i.fix)}`);
    }
  }
  if (!r.issues.length) lines.push(paint('green', 'nothing deprecated reported'));
  lines.push(paint('dim', 'Only what Elasticsearch itself reports; shardeck keeps no list of its own of what a release removes.'));
  return lines.join('\n') + '\n';
}

const deprecations: CommandModule = {
  summary:
    "Upgrade readiness: what Elasticsearch reports will break on the next major (_migration/deprecations and the node's deprecation log), by severity, with the fix; exit 0 none, 1 warnings, 2 critical.",
  usage: 'usage: shardeck deprecations [--json] [connection flags]',
  group: 'inspect',
  flagHelp: {},
  examples: ['shardeck deprecations', 'shardeck deprecations --json | jq \'.issues[] | select(.severity == "critical")\''],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length) return usageError(NAME, 'takes no arguments: shardeck deprecations [--json]', json);
    const { client, conn } = await openConnection(values);
    try {
      const es = createEsApi(client, conn.url);
      let report: DeprecationsReport;
      try {
        await es.checkVersion();
        report = await readDeprecations(es);
      } catch (e) {
        // The one JSON error shape and exit code of every command (3: not reached, 5: refused).
        return reportFailure(NAME, e, json);
      }
      if (json) outJson(report);
      else out(deprecationsText(report));
      return deprecationsExit(report);
    } finally {
      await closeClient(client);
    }
  },
};

export default deprecations;
