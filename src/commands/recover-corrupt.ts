// shardeck recover-corrupt [--detect] [--json]: which primaries are unassigned because every copy
//   is corrupt, where their folders are, and what recovers them without loss.
// shardeck recover-corrupt INDEX SHARD --plan: the offline repair checklist as the exact commands
//   for this node, run by no one (the operator runs them where shardeck may not).
// Reads only.
import path from 'node:path';
import { planLines, recoveryPlan, type PlanFacts } from '../domain/corruption';
import { buildPreview, previewLines } from '../domain/mutation';
import { detectCorruption, type CorruptShardReport } from '../services/corruption';
import { EXIT, type CommandModule } from './common';
import { JSON_SCHEMA, openGuard, printJson, reportFailure, usageError } from './guarded';
import { paint } from './paint';

const NAME = 'recover-corrupt';

function findingLines(c: CorruptShardReport): string[] {
  return [
    paint('red', `${c.index} shard ${c.shard} primary${c.node ? ` on node ${c.node.name}` : ''}: ${c.canAllocate}${c.corrupt ? ' (corrupt)' : ''}`),
    `  reason: ${c.reason}`,
    ...(c.file ? [`  file:   ${c.file}`] : []),
    `  folder: ${c.folder ?? 'unknown (the node did not report path.data or the index UUID)'}${c.folder ? (c.folderOnThisHost ? '' : ' (not seen from this host)') : ''}`,
    `  documents last seen: ${c.docs ?? 'unknown (an unassigned shard reports none; the read-only CheckIndex step of --plan counts them)'}`,
    'first, what loses nothing:',
    ...c.options.map((o) => `  - ${o}`),
    `then, only by choice, the offline repair (loses the broken segments): shardeck recover-corrupt ${c.index} ${c.shard} --plan`,
  ];
}

/** The facts of the plan from what detection found, the profile and the flags; a string says what is missing. */
function planFacts(c: CorruptShardReport, values: Record<string, unknown>, profile: { serviceStop?: string; serviceStart?: string } | undefined, conn: PlanFacts['conn']): PlanFacts | string {
  const home = c.nodeFacts?.home;
  if (!c.folder || !c.node) return `the node did not report where ${c.index} shard ${c.shard} lives (path.data, index UUID): run on the node holding it`;
  if (!home) return 'the node did not report its path.home (bin/, lib/): run on the node holding the shard';
  const dataPath = c.folder.slice(0, c.folder.lastIndexOf('/indices/'));
  return {
    index: c.index,
    shard: c.shard,
    node: c.node,
    folder: c.folder,
    home,
    java: c.java ?? (c.nodeFacts?.bundledJdk ? `${home}/jdk/bin/java` : null),
    esUser: (values['es-user'] as string | undefined) ?? 'elasticsearch',
    confDir: (values['conf-dir'] as string | undefined) ?? '/etc/elasticsearch',
    serviceStop: profile?.serviceStop,
    serviceStart: profile?.serviceStart,
    backupDir: (values['backup-dir'] as string | undefined) ?? path.posix.join(path.posix.dirname(dataPath), 'shardeck-backups'),
    stamp: new Date().toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z',
    conn,
    hasShardTool: c.hasShardTool,
  };
}

const recoverCorrupt: CommandModule = {
  summary: 'Corrupt primaries: detect them (index, shard, node, folder, what loses nothing) and print the offline repair plan.',
  usage: [
    'usage: shardeck recover-corrupt [--detect] [--json] [connection flags]',
    '       shardeck recover-corrupt INDEX SHARD --plan [--backup-dir DIR] [--es-user NAME] [--conf-dir DIR] [--json] [connection flags]',
    'exit 0: nothing corrupt; 2: a corrupt primary was found (detect) ; --plan prints commands and runs none.',
    "the profile's serviceStop/serviceStart replace systemctl stop/start elasticsearch.",
  ].join('\n'),
  options: {
    detect: { type: 'boolean' },
    plan: { type: 'boolean' },
    'backup-dir': { type: 'string' },
    'es-user': { type: 'string' },
    'conf-dir': { type: 'string' },
  },
  async run({ values, positionals }) {
    const json = Boolean(values.json);
    const planning = positionals.length > 0 || Boolean(values.plan);
    if (planning && (positionals.length !== 2 || !/^\d+$/.test(positionals[1]) || !values.plan))
      return usageError(
        NAME,
        values.plan
          ? 'give INDEX and SHARD (a number) with --plan, e.g. shardeck recover-corrupt service_v9_abc 0 --plan'
          : 'running the checklist is not available yet: add --plan to print its commands (shardeck recover-corrupt INDEX SHARD --plan)',
        json,
      );
    if (planning && values.detect) return usageError(NAME, 'use either --detect or INDEX SHARD --plan, not both', json);
    const { guard, profile, close } = await openGuard(values);
    try {
      if (!planning) {
        const report = await detectCorruption(guard);
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, ...report });
        else {
          const head = `cluster is ${report.status}: ${report.unassignedPrimaries} unassigned primar${report.unassignedPrimaries === 1 ? 'y' : 'ies'}, ${report.corrupt.length} with corrupt copies`;
          process.stdout.write([head, ...report.corrupt.flatMap(findingLines)].join('\n') + '\n');
        }
        return report.corrupt.length ? EXIT.red : EXIT.ok;
      }
      const target = { index: positionals[0], shard: Number(positionals[1]) };
      const report = await detectCorruption(guard, target);
      const c = report.corrupt[0];
      if (!c) {
        const message = `${target.index} shard ${target.shard} has no unassigned primary with corrupt copies: nothing to repair (see shardeck recover-corrupt --detect)`;
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: message });
        process.stderr.write(`shardeck ${NAME}: ${message}\n`);
        return EXIT.failed;
      }
      const facts = planFacts(c, values, profile, guard.previewConnection);
      if (typeof facts === 'string') {
        if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: false, error: facts });
        process.stderr.write(`shardeck ${NAME}: ${facts}\n`);
        return EXIT.failed;
      }
      const plan = recoveryPlan(facts);
      if (json) printJson({ schema: JSON_SCHEMA, command: NAME, ok: true, finding: c, plan });
      else
        process.stdout.write(
          [...findingLines(c), '', ...planLines(plan, (p) => previewLines(buildPreview(p, facts.conn)))].join('\n') + '\n',
        );
      return EXIT.ok;
    } catch (e) {
      return reportFailure(NAME, e, json);
    } finally {
      await close();
    }
  },
};

export default recoverCorrupt;
