// shardeck doctor [RULE] [--json] [--log FILE]: the seed's runbook checked on the node (heap, temp folder,
// disk and its forecast, shards, scroll contexts, versions and transport, the log's error messages),
// each finding with its evidence, remedy and the key or command that applies it. Reads only.
// Exit like a monitoring check: 0 all ok, 1 a warning, 2 a critical finding, 3 unreachable.
import { existsHere } from '../boundary/host-reads';
import { countOf } from '../domain/text/format';
import { urlForMessage } from '../domain/urls';
import { displayText } from '../domain/text/display-text';
import { createEsApi } from '../cluster/api';
import { closeClient, type ConnError } from '../cluster/connection';
import type { Finding, Severity } from '../domain/doctor/finding';
import { DOCTOR_SCHEMA, doctorReportExit, type DoctorReport, type DoctorUnreachable } from '../domain/doctor/report';
import { DOCTOR_RULES, ruleOf, type DoctorRule } from '../domain/doctor/rules';
import { didYouMean } from '../domain/text/suggest';
import { masterlessReport, platformOnHost, runDoctor } from '../services/doctor';
import { doctorSettings } from '../domain/doctor/settings';
import { EXIT, openConnection, type CommandModule } from './support/common';
import { usageError } from './support/guarded';
import { paint } from './support/paint';
import { err, out, outJson } from './support/output';

const NAME = 'doctor';

const TAG: Record<Severity, [string, string]> = {
  critical: ['CRIT', 'red'],
  warn: ['WARN', 'yellow'],
  unknown: ['----', 'gray'],
  ok: ['ok  ', 'green'],
};

const PANE_NAMES: Record<string, string> = { indices: 'Indices', disk: 'Disk', nodes: 'Nodes', shards: 'Shards', tasks: 'Tasks' };

export function fixText(f: Finding): string | null {
  if (!f.fix) return null;
  const key = f.fix.key
    ? `key ${f.fix.key} on the ${PANE_NAMES[f.fix.pane ?? ''] ?? f.fix.pane} pane (or Enter on the Doctor pane), or `
    : '';
  return `${key}${displayText(f.fix.command)}`;
}

/** The report as text lines: every name, finding, evidence and remedy escaped where it is put into its line. */
export function doctorText(r: DoctorReport): string {
  const out: string[] = [];
  const c = r.counts;
  out.push(
    `${paint(r.cluster.status, r.cluster.status.toUpperCase())}  cluster ${displayText(r.cluster.name)}, ${countOf(r.cluster.nodes, 'node')}: ` +
      `${c.critical} critical, ${c.warn} warning(s), ${c.ok} ok${c.unknown ? `, ${c.unknown} not checked here` : ''}`,
  );
  out.push(...findingLines(r.findings));
  return out.join('\n') + '\n';
}

/** Each finding's line, then (unless ok) its evidence, remedy and fix. */
function findingLines(findings: readonly Finding[]): string[] {
  const out: string[] = [];
  for (const f of findings) {
    const [tag, colour] = TAG[f.severity];
    out.push(`${paint(colour, tag)} ${displayText(f.finding)}${f.node ? `  [${displayText(f.node)}]` : ''}  (${displayText(f.id)})`);
    if (f.severity === 'ok') continue;
    for (const e of f.evidence) out.push(`       ${paint('dim', displayText(e))}`);
    if (f.remedy) out.push(`       remedy: ${displayText(f.remedy)}`);
    const fix = fixText(f);
    if (fix) out.push(`       apply: ${fix}`);
  }
  return out;
}

/** One rule explained (its row of docs/DOCTOR-RULES.md) with what it finds now. */
export function ruleText(rule: DoctorRule, findings: readonly Finding[]): string {
  const lines = [
    `${paint('bold', rule.id)} (${rule.family}): ${rule.what}`,
    `  threshold: ${rule.threshold || '-'}`,
    `  severity:  ${rule.severity}`,
    `  remedy:    ${rule.remedy}`,
    ...(rule.fix ? [`  fix:       ${rule.fix}`] : []),
    ...(rule.answers.length ? [`  answers:   ${rule.answers.join('; ')}`] : []),
    `now (${findings.length ? countOf(findings.length, 'finding') : 'nothing found'}):`,
  ];
  return [...lines, ...findingLines(findings)].join('\n') + '\n';
}

/** Why the node could not be checked (and, refused, what the user lacks), each value escaped in its line. */
export function doctorUnreachableText(r: DoctorUnreachable): string {
  const a = r.access;
  const list = (xs: string[]) => xs.map(displayText).join(', ') || 'nothing';
  const lacks = a
    ? `\n${a.user ? `user ${displayText(a.user)}` : 'this user'} lacks, to watch: ${list(a.missing.watcher)}; to change: ${list(a.missing.operator)}\n`
    : '\n';
  return `${paint('red', r.error.kind === 'forbidden' ? 'REFUSED' : 'UNREACHABLE')} ${displayText(r.error.message)}${lacks}`;
}

const doctor: CommandModule = {
  summary:
    "The node's own runbook checked: heap, temp folder, disk and its forecast, shards, scroll contexts, versions, the log; exit 0 ok, 1 warning, 2 critical, 3 unreachable.",
  usage: 'usage: shardeck doctor [RULE] [--json] [--log FILE] [--platform-on-host yes|no] [connection flags]',
  group: 'inspect',
  options: {
    log: { type: 'string' },
    'platform-on-host': { type: 'string' },
    'long-search': { type: 'string' },
    'long-task': { type: 'string' },
    'snapshot-every': { type: 'string' },
  },
  flagHelp: {
    log: "read this log file instead of the node's own (<path.logs>/<cluster.name>.log, found when the node runs on this host)",
    'platform-on-host':
      "whether the platform's cluster node runs on this machine (heap at most 30% of RAM instead of 50%); default: the profile's platformOnHost, else detected from its platform URL",
    'long-search': "a search running longer than this is long (default 60s; the profile's doctorLongSearch)",
    'long-task':
      "any other task (by-query, force merge, snapshot, recovery) running longer than this is long (default 10m; the profile's doctorLongTask)",
    'snapshot-every':
      "each open index needs a successful snapshot this recent, e.g. 24h (default: not judged; the profile's doctorSnapshotEvery)",
  },
  examples: [
    'shardeck doctor',
    'shardeck doctor --json | jq \'.findings[] | select(.severity != "ok")\'',
    'shardeck doctor capacity.shards',
  ],
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    if (positionals.length > 1)
      return usageError(NAME, 'give at most one rule: shardeck doctor RULE (docs/DOCTOR-RULES.md lists them)', json);
    const ruleId = positionals[0];
    const rule = ruleId === undefined ? undefined : DOCTOR_RULES.find((r) => r.id === ruleId);
    if (ruleId !== undefined && !rule) {
      const near = didYouMean(
        ruleId,
        DOCTOR_RULES.map((r) => r.id),
      );
      return usageError(NAME, `no rule ${ruleId}${near ? `: did you mean ${near}?` : ''} (docs/DOCTOR-RULES.md lists them)`, json);
    }
    const logFile = values.log as string | undefined;
    if (logFile !== undefined && !existsHere(logFile))
      return usageError(NAME, `the log file ${logFile} does not exist: give the node's log with --log FILE`, json);
    const poh = values['platform-on-host'] as string | undefined;
    if (poh !== undefined && poh !== 'yes' && poh !== 'no')
      return usageError(NAME, `--platform-on-host takes yes or no, not "${poh}"`, json);
    const { client, conn, profile } = await openConnection(values);
    const settings = doctorSettings(
      {
        longSearch: values['long-search'] as string | undefined,
        longTask: values['long-task'] as string | undefined,
        snapshotEvery: values['snapshot-every'] as string | undefined,
      },
      profile as Readonly<Record<string, unknown>> | undefined,
    );
    if (!settings.ok) {
      await closeClient(client);
      return usageError(NAME, settings.error, json);
    }
    let report: DoctorReport | DoctorUnreachable;
    try {
      const es = createEsApi(client, conn.url);
      try {
        await es.data('health');
        await es.checkVersion(); // a major shardeck does not know: refused like an unreachable node
      } catch (e) {
        const err = e as ConnError;
        // Health waits for the master: a node that knows none is the finding (critical), not unreachable.
        const masterless = err.kind === 'timeout' || err.status === 503 ? await masterlessReport(es, urlForMessage(conn.url)) : null;
        if (masterless) {
          if (json) outJson(masterless);
          else out(doctorText(masterless));
          return doctorReportExit(masterless);
        }
        // Refused (403): what the user lacks is the finding, so ask the node which privileges those are.
        const access = err.kind === 'forbidden' ? await es.missingPrivileges() : null;
        report = {
          schema: DOCTOR_SCHEMA,
          reachable: false,
          error: { kind: err.kind ?? 'unknown', message: err.message },
          ...(access ? { access } : {}),
        };
        if (json) outJson(report);
        else out(doctorUnreachableText(report));
        return EXIT.unreachable;
      }
      report = await runDoctor(es, {
        logFile,
        scheme: conn.url.startsWith('https:') ? 'https' : 'http',
        platformOnHost: platformOnHost(profile, poh === undefined ? undefined : poh === 'yes'),
        taskThresholds: settings.value.thresholds,
        snapshotPeriod: settings.value.snapshotPeriod,
      });
    } catch (e) {
      // Health answered but a later read failed: say which, exit as "unknown".
      err(`shardeck doctor: ${displayText((e as Error).message)}\n`);
      return EXIT.unreachable;
    } finally {
      await closeClient(client);
    }
    if (rule) {
      const mine = report.findings.filter((f) => ruleOf(f.id)?.id === rule.id);
      if (json) outJson({ schema: DOCTOR_SCHEMA, rule, findings: mine });
      else out(ruleText(rule, mine));
      return doctorReportExit({ ...report, findings: mine });
    }
    if (json) outJson(report);
    else out(doctorText(report));
    return doctorReportExit(report);
  },
};

export default doctor;
