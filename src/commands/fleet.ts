// shardeck fleet [--json]: every saved profile's cluster in one table, worst first, read with
// bounded concurrency and a deadline per cluster; the exit code is the worst status (like status).
import { UsageError } from '../config/connection';
import { countOf } from '../domain/text/format';
import { fleetExitCode, fleetTextLine, type FleetRow } from '../domain/inspect/fleet';
import { FLEET_DEFAULTS, FleetReader, fleetTargets, type FleetTarget } from '../services/fleet';
import { paint } from './support/paint';
import { type CommandContext, type CommandModule } from './support/common';
import { out } from './support/output';

export const FLEET_SCHEMA = 1;

/** A whole number of at least `min` from a flag, or a usage error naming the flag. */
function count(raw: CommandContext['values'][string], flag: string, min: number, fallback: number, example: string): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min)
    throw new UsageError(`--${flag} "${String(raw)}" is not a number of at least ${min}: e.g. --${flag} ${example}`);
  return n;
}

const TONE = { green: 'green', yellow: 'yellow', red: 'red', unreachable: 'red', pending: 'gray' } as const;

const fleet: CommandModule = {
  summary: "Every saved profile's cluster in one table, worst first; exit code of the worst (0 green, 1 yellow, 2 red, 3 unreachable).",
  usage: 'usage: shardeck fleet [--json] [--timeout SECONDS] [--concurrency N] [--url URL (one more cluster, besides the profiles)]',
  group: 'watch',
  options: { timeout: { type: 'string' }, concurrency: { type: 'string' } },
  flagHelp: {
    timeout: `how long one cluster may take to answer, in seconds (default ${FLEET_DEFAULTS.timeoutMs / 1000}); a slower one shows as unreachable, the others do not wait for it`,
    concurrency: `clusters read at the same time (default ${FLEET_DEFAULTS.concurrency})`,
  },
  examples: ['shardeck fleet', 'shardeck fleet --json --timeout 3', 'shardeck fleet --url https://10.0.0.7:9200 --ca ca.pem'],
  async run({ values }) {
    const timeoutMs = Math.round(count(values.timeout, 'timeout', 0.1, FLEET_DEFAULTS.timeoutMs / 1000, '5') * 1000);
    const concurrency = Math.round(count(values.concurrency, 'concurrency', 1, FLEET_DEFAULTS.concurrency, '6'));
    const targets: FleetTarget[] = fleetTargets();
    if (values.url) {
      // The --url node with the connection flags given (user, password source, CA), as one more row.
      const { url, user, ca, insecure } = values as Record<string, string | undefined> & { insecure?: boolean };
      targets.push({
        profile: '(--url)',
        profileData: {
          url: url!,
          user,
          ca,
          insecure: Boolean(insecure),
          passwordEnv: values['password-env'] as string | undefined,
          passwordFile: values['password-file'] as string | undefined,
        },
      });
    }
    if (targets.length === 0)
      throw new UsageError('no saved profiles: save one per cluster with `shardeck profiles save NAME --url URL ...`, or give --url');
    const reader = new FleetReader(targets, { concurrency, timeoutMs });
    let rows: FleetRow[];
    try {
      rows = await reader.round();
    } finally {
      await reader.close();
    }
    const code = fleetExitCode(rows);
    if (values.json) {
      out(JSON.stringify({ schema: FLEET_SCHEMA, worst: rows[0]?.status ?? 'green', clusters: rows }, null, 2) + '\n');
    } else {
      const now = Date.now();
      const lines = [`${countOf(rows.length, 'cluster')}, worst first`];
      for (const r of rows) lines.push(fleetTextLine(r, now, (s) => paint(TONE[r.status], s)));
      out(lines.join('\n') + '\n');
    }
    return code;
  },
};

export default fleet;
