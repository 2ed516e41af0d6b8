// shardeck status [--json]: the Health and Disk panes' facts, once, with a monitoring-check exit code.
import { createEsApi } from '../cluster/api';
import { closeClient, type ConnError } from '../cluster/connection';
import { paint } from './paint';
import { diskLevelTone, formatBytes, formatPercent } from '../domain/format';
import {
  buildStatusReport,
  explainNotGreen,
  statusExitCode,
  STATUS_SCHEMA,
  type StatusReport,
  type UnreachableReport,
} from '../domain/status';
import { EXIT, openConnection, type CommandModule, type CommandConnection } from './common';

async function collect({ client, conn }: CommandConnection): Promise<StatusReport | UnreachableReport> {
  const r = createEsApi(client, conn.url).data;
  try {
    // Health first: if it fails, the node is unreachable or refuses us, and nothing else will work.
    let health;
    try {
      health = await r('health');
    } catch (e) {
      const err = e as ConnError;
      return { schema: STATUS_SCHEMA, reachable: false, status: 'unknown', error: { kind: err.kind ?? 'unknown', message: err.message } };
    }
    const [healthReport, allocation, settings, blocks, nodes] = await Promise.all([
      r('healthReport').catch(() => undefined), // 8.7+ only; its absence is not an outage
      r('allocation'),
      r('settings'),
      r('blocks'),
      r('nodes'),
    ]);
    // The shard list grows with the cluster; only fetch it when there is something to explain.
    const shards = health.status === 'green' ? undefined : await r('shards');
    return buildStatusReport({ health, healthReport, allocation, settings, blocks, nodes, shards });
  } finally {
    await closeClient(client);
  }
}

function renderText(r: StatusReport | UnreachableReport): string {
  if (!r.reachable) return `${paint('red', 'UNREACHABLE')} ${r.error.message}\n`;
  const out: string[] = [];
  out.push(
    `${paint(r.status, r.status.toUpperCase())}  cluster ${r.cluster.name}  Elasticsearch ${r.cluster.version ?? '?'}  nodes ${r.cluster.nodes} (data ${r.cluster.dataNodes})`,
  );
  const s = r.shards;
  out.push(
    `shards: ${s.active} active (${s.activePrimary} primary), ${s.initializing} initializing, ${s.relocating} relocating, ${s.unassigned} unassigned` +
      `${s.unassignedPrimary ? ` (${s.unassignedPrimary} primary)` : ''}; pending tasks ${r.pendingTasks}`,
  );
  const why = explainNotGreen(r);
  if (why) out.push(`why: ${why}`);
  for (const u of r.unassigned.slice(0, 10)) {
    out.push(`  ${u.index} shard ${u.shard} ${u.primary ? 'primary' : 'replica'}: ${u.reason ?? '?'}${u.details ? ` (${u.details})` : ''}`);
  }
  if (r.unassigned.length > 10) out.push(`  ... and ${r.unassigned.length - 10} more (shardeck explain, or the Shards pane)`);
  for (const ind of r.indicators.filter((i) => i.status !== 'green')) {
    out.push(`${paint(ind.status, ind.status)} ${ind.name}: ${ind.symptom}`);
    for (const imp of ind.impacts) out.push(`  impact: ${imp}`);
  }
  const w = r.disk.watermarks;
  out.push(`disk watermarks: low ${w.low}, high ${w.high}, flood stage ${w.flood}${w.enabled ? '' : ' (disk threshold decider OFF)'}`);
  for (const d of r.disk.nodes) {
    out.push(
      `  ${d.node}: ${paint(diskLevelTone(d.level), d.level.padEnd(5))} ${formatPercent(d.usedPercent, 1)} used, ${formatBytes(d.availBytes)} free of ${formatBytes(d.totalBytes)}` +
        ` (marks ${formatPercent(d.marks.low)}/${formatPercent(d.marks.high)}/${formatPercent(d.marks.flood)})`,
    );
  }
  if (r.readOnlyIndices.length) out.push(`read-only (blocked) indices: ${r.readOnlyIndices.join(', ')}`);
  return out.join('\n') + '\n';
}

const status: CommandModule = {
  summary: 'Cluster health, unassigned shards and disk against the watermarks; exit 0 green, 1 yellow, 2 red, 3 unreachable.',
  usage: 'usage: shardeck status [--json] [connection flags]',
  group: 'watch',
  flagHelp: {},
  examples: ["shardeck status", "shardeck status --json | jq .status", "shardeck status --profile prod || echo \"not green: $?\""],
  async run({ values }) {
    // Flag and profile mistakes are usage errors (exit 64), before anything is sent.
    const connection = await openConnection(values);
    let report;
    try {
      report = await collect(connection);
    } catch (e) {
      // The node answered health but failed a later read: say which, exit as "unknown".
      process.stderr.write(`shardeck status: ${(e as Error).message}\n`);
      return EXIT.unreachable;
    }
    process.stdout.write(values.json ? JSON.stringify(report, null, 2) + '\n' : renderText(report));
    return statusExitCode(report);
  },
};

export default status;
