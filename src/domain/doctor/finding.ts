// What every doctor check returns: one finding per thing looked at, with the evidence it read and
// the seed's remedy in the node's own terms, and where shardeck applies that remedy (a console key
// and its CLI twin). Pure.
import { compareText } from '../text/order';

export type Severity = 'ok' | 'warn' | 'critical' | 'unknown';

export type CheckFamily =
  | 'heap'
  | 'tmp'
  | 'disk'
  | 'shards'
  | 'scroll'
  | 'versions'
  | 'access'
  | 'log'
  | 'pressure'
  | 'pending'
  | 'hotspots'
  | 'mapping'
  | 'upgrade'
  | 'capacity'
  | 'blocks'
  | 'master'
  | 'tasks'
  | 'snapshots'
  | 'host'
  | 'config'
  | 'health'
  | 'ilm'
  | 'balance';

/** Where shardeck applies the remedy: the key of the wizard (on its pane) and the same as a command. */
export interface Fix {
  /** Keymap command id of the wizard, e.g. 'wizard.replicas'. */
  commandId?: string;
  key?: string;
  pane?: string;
  /** The CLI twin, as the operator types it. */
  command: string;
  /** What the wizard should start on (an index, a shard), when the finding names one. */
  target?: { index?: string; shard?: number; primary?: boolean; node?: string; task?: string };
}

export interface Finding {
  /** Stable id: family.check[.subject], e.g. heap.xms-xmx.node-1. */
  id: string;
  family: CheckFamily;
  severity: Severity;
  /** Which node it is about, when it is about one. */
  node?: string;
  /** One line: what is wrong (or that it is fine). */
  finding: string;
  /** What it read: a setting, file:line, a log line or a number. */
  evidence: string[];
  /** The seed's remedy in the node's terms; empty when nothing is to be done. */
  remedy?: string;
  fix?: Fix;
}

const RANK: Record<Severity, number> = { critical: 3, warn: 2, unknown: 1, ok: 0 };

export function severityRank(s: Severity): number {
  return RANK[s];
}

/** Worst first; then by family and id, so the order is stable between runs. */
export function sortFindings(fs: readonly Finding[]): Finding[] {
  return [...fs].sort((a, b) => RANK[b.severity] - RANK[a.severity] || compareText(a.family, b.family) || compareText(a.id, b.id));
}

export function worstSeverity(fs: readonly Finding[]): Severity {
  return fs.reduce<Severity>((w, f) => (RANK[f.severity] > RANK[w] ? f.severity : w), 'ok');
}

/** Like a monitoring check: 0 all ok, 1 a warning, 2 a critical finding ("unknown" alone is ok: not on this host is not a fault). */
export function doctorExitCode(fs: readonly Finding[]): 0 | 1 | 2 {
  const w = worstSeverity(fs);
  return w === 'critical' ? 2 : w === 'warn' ? 1 : 0;
}

export const FIXES = {
  replicas: (index: string, n: number): Fix => ({
    commandId: 'wizard.replicas',
    key: 'R',
    pane: 'indices',
    command: `shardeck replicas set ${index} ${n}`,
    target: { index },
  }),
  unblock: (): Fix => ({ commandId: 'wizard.unblock', key: 'U', pane: 'disk', command: 'shardeck unblock' }),
  scroll: (n: number): Fix => ({ commandId: 'wizard.scroll', key: 'L', pane: 'nodes', command: `shardeck scroll-limit ${n}` }),
  allocation: (index: string, shard: number, primary: boolean): Fix => ({
    commandId: 'wizard.allocation',
    key: 'e',
    pane: 'shards',
    command: `shardeck explain ${index} ${shard} ${primary ? 'primary' : 'replica'}`,
    target: { index, shard, primary },
  }),
  retryFailed: (index: string, shard: number, primary: boolean): Fix => ({
    commandId: 'wizard.allocation',
    key: 'e',
    pane: 'shards',
    command: 'shardeck reroute --retry-failed',
    target: { index, shard, primary },
  }),
  recoverCorrupt: (index: string, shard: number): Fix => ({
    commandId: 'wizard.recoverCorrupt',
    key: 'C',
    pane: 'shards',
    command: 'shardeck recover-corrupt',
    target: { index, shard, primary: true },
  }),
  /** The Tasks pane's cancel wizard (x) on one task; its CLI twin. */
  taskCancel: (task: string): Fix => ({
    commandId: 'wizard.taskCancel',
    key: 'x',
    pane: 'tasks',
    command: `shardeck tasks cancel ${task}`,
    target: { task },
  }),
  /** The Tasks pane's rethrottle wizard (t) on a by-query task; its CLI twin. */
  taskRethrottle: (task: string, rps: number): Fix => ({
    commandId: 'wizard.taskRethrottle',
    key: 't',
    pane: 'tasks',
    command: `shardeck tasks rethrottle ${task} --rps ${rps}`,
    target: { task },
  }),
  /** No wizard yet: the engine service command (another part of shardeck) by name. */
  restart: (): Fix => ({ command: 'shardeck service restart' }),
} as const;
