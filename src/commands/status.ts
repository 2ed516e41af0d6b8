// shardeck status [--json]: the Health and Disk panes' facts, once, with a monitoring-check exit code.
import { headroomText } from '../domain/nodes/disk';
import { createEsApi } from '../cluster/api';
import { closeClient } from '../cluster/connection';
import { readStatus } from '../services/status';
import { paint } from './support/paint';
import { diskLevelTone, formatBytes, formatPercent } from '../domain/text/format';
import { explainNotGreen, statusExitCode, type StatusReport, type UnreachableReport } from '../domain/inspect/status';
import { EXIT, openConnection, type CommandModule, type CommandConnection } from './support/common';
import { err, out, outJson } from './support/output';
import { displayText } from '../domain/text/display-text';
import { copyKeptLine, type CopyRecord } from '../domain/corruption/copy';
import { keptCopies } from '../services/kept-copies';
import { shrinkLeft } from '../services/shrink-left';
import path from 'node:path';

async function collect({ client, conn }: CommandConnection): Promise<{ report: StatusReport | UnreachableReport; shrink: string[] }> {
  try {
    const es = createEsApi(client, conn.url);
    // A right-sizing left unfinished (an index blocked, routed, or only in its copy) is said like
    // allocation left off. Looked for while the status is read: one round trip less.
    const reportRead = readStatus(es);
    const shrinkRead = shrinkLeft(es).then(
      (l) => l.lines,
      () => [],
    );
    const report = await reportRead;
    return { report, shrink: report.reachable ? await shrinkRead : [] };
  } finally {
    await closeClient(client);
  }
}

function renderText(r: StatusReport | UnreachableReport): string {
  if (!r.reachable) return `${paint('red', 'UNREACHABLE')} ${r.error.message}\n`;
  const out: string[] = [];
  out.push(
    `${paint(r.status, r.status.toUpperCase())}  cluster ${displayText(r.cluster.name)}  Elasticsearch ${r.cluster.version ?? '?'}  nodes ${r.cluster.nodes} (data ${r.cluster.dataNodes})`,
  );
  const s = r.shards;
  out.push(
    `shards: ${s.active} active (${s.activePrimary} primary), ${s.initializing} initializing, ${s.relocating} relocating, ${s.unassigned} unassigned` +
      `${s.unassignedPrimary ? ` (${s.unassignedPrimary} primary)` : ''}; pending tasks ${r.pendingTasks}`,
  );
  if (r.nodeLeft) {
    const n = r.nodeLeft;
    out.push(
      `${paint('red', 'a node left')}${n.nodeIds.length ? ` (${n.nodeIds.join(', ')})` : ''}: ${n.shards} shard(s) unassigned NODE_LEFT` +
        `${n.delayed ? `, ${n.delayed} waiting for it to return (delayed allocation)` : ''}`,
    );
  }
  const why = explainNotGreen(r);
  if (why) out.push(`why: ${why}`);
  for (const c of r.critical) out.push(`${paint('red', 'CRITICAL')} ${displayText(c)}`);
  for (const l of r.allocationLimits) out.push(`${paint('yellow', 'WARNING')} ${displayText(l.text)}`);
  for (const x of r.shutdownRecords) out.push(`${paint('yellow', 'WARNING')} ${displayText(x.text)}`);
  for (const u of r.unassigned.slice(0, 10)) {
    out.push(
      `  ${displayText(u.index)} shard ${u.shard} ${u.primary ? 'primary' : 'replica'}: ${u.reason ?? '?'}${u.details ? ` (${displayText(u.details)})` : ''}`,
    );
  }
  if (r.unassigned.length > 10) out.push(`  ... and ${r.unassigned.length - 10} more (shardeck explain, or the Shards pane)`);
  for (const ind of r.indicators.filter((i) => i.status !== 'green')) {
    out.push(`${paint(ind.status, ind.status)} ${ind.name}: ${displayText(ind.symptom)}`);
    for (const imp of ind.impacts) out.push(`  impact: ${displayText(imp)}`);
  }
  const w = r.disk.watermarks;
  out.push(`disk watermarks: low ${w.low}, high ${w.high}, flood stage ${w.flood}${w.enabled ? '' : ' (disk threshold decider OFF)'}`);
  for (const d of r.disk.nodes) {
    out.push(
      `  ${displayText(d.node)}: ${paint(diskLevelTone(d.level), d.level.padEnd(5))} ${formatPercent(d.usedPercent, 1)} used, ${formatBytes(d.availBytes)} free of ${formatBytes(d.totalBytes)}, ${headroomText(d.headroomToHighBytes)}` +
        ` (marks ${formatPercent(d.marks.low)}/${formatPercent(d.marks.high)}/${formatPercent(d.marks.flood)})`,
    );
  }
  if (r.readOnlyIndices.length) out.push(`read-only (blocked) indices: ${r.readOnlyIndices.map(displayText).join(', ')}`);
  return out.join('\n') + '\n';
}

const status: CommandModule = {
  summary:
    'Cluster health, unassigned shards, limited allocation and disk against the watermarks; exit 0 green, 1 yellow or allocation limited, 2 red or writes refused (a cluster block, shard capacity exhausted), 3 unreachable.',
  usage: 'usage: shardeck status [--json] [--backup-dir DIR] [connection flags]',
  group: 'watch',
  options: { 'backup-dir': { type: 'string' } },
  flagHelp: {
    'backup-dir': 'where shardeck keeps copies of shard folders (named while they exist; default /var/backups/shardeck as root)',
  },
  examples: ['shardeck status', 'shardeck status --json | jq .status', 'shardeck status --profile prod || echo "not green: $?"'],
  async run({ values }) {
    // Flag and profile mistakes are usage errors (exit 64), before anything is sent.
    const connection = await openConnection(values);
    let report;
    let shrink: string[];
    try {
      ({ report, shrink } = await collect(connection));
    } catch (e) {
      // The node answered health but failed a later read: say which, exit as "unknown" (under --json, the one failure shape).
      err(`shardeck status: ${(e as Error).message}\n`);
      if (values.json) outJson({ ok: false, error: (e as Error).message });
      return EXIT.unreachable;
    }
    // The copies of shard folders kept on this host (taken before a red index was deleted, or to count a repair's loss).
    const copies: CopyRecord[] = (() => {
      try {
        return keptCopies(values['backup-dir'] !== undefined ? path.resolve(String(values['backup-dir'])) : undefined);
      } catch {
        return [];
      }
    })();
    if (values.json) outJson({ ...report, copiesKept: copies, shrinkUnfinished: shrink });
    else
      out(
        renderText(report) +
          copies.map((c) => `${paint('yellow', 'KEPT')} ${copyKeptLine(c)}\n`).join('') +
          shrink.map((l) => `${paint('yellow', 'WARNING')} ${displayText(l)}\n`).join(''),
      );
    const code = statusExitCode(report);
    return shrink.length && code === 0 ? 1 : code;
  },
};

export default status;
