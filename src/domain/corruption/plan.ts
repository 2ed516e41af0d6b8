// The offline checklist as the exact commands for this node and shard: stop, back up, repair
// (CheckIndex or elasticsearch-shard), start, reroute, verify. Nothing here runs anything.
import { displayText } from '../text/display-text';
import { DEFAULT_SERVICE_START, DEFAULT_SERVICE_STOP } from '../host/engine';
import type { MutationPlan } from '../mutation/plan';
import { buildPreview, curlLine, previewLines, shellQuote, type PreviewConnection } from '../mutation/preview';

// --- how long the last step waits ----------------------------------------------------------------

/**
 * The longest wait one health request asks of Elasticsearch. The client's request timeout (15 s
 * by default) cannot be raised for one request: the connection pool enforces the client's own
 * (undici headersTimeout), so a 120 s wait_for_status in one request is cut at 15 s. The last
 * step asks again and again, each wait well inside that timeout, until its whole wait is over.
 */
export const HEALTH_WAIT_STEP_S = 5;

/** The querystring of one health request of the last step, `remainingMs` before its deadline. */
export function healthWaitQuery(remainingMs: number): Record<string, string> {
  const s = Math.min(HEALTH_WAIT_STEP_S, Math.max(1, Math.ceil(remainingMs / 1000)));
  return { wait_for_status: 'yellow', timeout: `${s}s` };
}

/** How long the shard may take to come back after the restart, by default (s). */
export const DEFAULT_SHARD_WAIT_S = 120;

/** Everything the checklist needs to know about this node and shard. */
export interface PlanFacts {
  index: string;
  shard: number;
  node: { name: string; id: string };
  /** The shard folder (<path.data>/indices/<uuid>/<shard>). */
  folder: string;
  /** path.home of the node (bin/, lib/). */
  home: string;
  /** The java binary the node runs with; null when unknown (then $ES_JAVA_HOME/bin/java). */
  java: string | null;
  /** The system user that owns the data; the file steps run as it. */
  esUser: string;
  /** The node's config directory (ES_PATH_CONF), for elasticsearch-shard. */
  confDir: string;
  serviceStop?: string;
  serviceStart?: string;
  backupDir: string;
  /** A timestamp for the archive's name (e.g. 20261122T0805Z). */
  stamp: string;
  conn: PreviewConnection;
  /** Whether <home>/bin/elasticsearch-shard exists; null when it could not be looked at. */
  hasShardTool: boolean | null;
  /** The node's pid on this host when the checklist started: the stop step checks it is gone. */
  pid?: number;
}

/**
 * How the runner carries a step out: a shell command on this host, a request through the guarded
 * path, or a read it does itself with the profile's credentials (the command shown for those is
 * the equivalent an operator would type, credentials elided).
 */
export type StepKind = 'shell' | 'request' | 'read';

export interface PlanStep {
  id: string;
  kind: StepKind;
  title: string;
  /** A shell command for the node's host, or a request sent through the guarded path. */
  command?: string;
  request?: MutationPlan;
  /** Why, and what to look for. */
  note: string;
  /** Documents are lost by this step (confirmation asks for the shard's name). */
  losesData?: boolean;
  /** Only when the check before it says so. */
  conditional?: boolean;
}

export interface RecoveryPlan {
  archive: string;
  steps: PlanStep[];
  /** elasticsearch-shard remove-corrupted-data in place of the CheckIndex and marker steps. */
  alternative: PlanStep[] | null;
}

function parentOf(p: string): { dir: string; base: string } {
  const i = p.replace(/\/+$/, '').lastIndexOf('/');
  return { dir: p.slice(0, i) || '/', base: p.slice(i + 1) };
}

/** allocate_stale_primary with accept_data_loss: what makes Elasticsearch take the repaired copy. */
export function stalePrimaryPlan(index: string, shard: number, node: string): MutationPlan {
  return {
    method: 'POST',
    path: '/_cluster/reroute',
    querystring: {},
    body: { commands: [{ allocate_stale_primary: { index, shard, node, accept_data_loss: true } }] },
    risk: 'destructive',
    target: index,
    summary: `allocate the repaired copy of ${index} shard ${shard} on ${node} as primary, accepting the documents lost`,
  };
}

/** The time in an archive's name: 20261122T080512Z. */
export function archiveStamp(d = new Date()): string {
  return d.toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';
}

/** Where the backup of one shard goes: <backupDir>/<index>-<shard>-<stamp>.tar (the checklist's, and the copy before a delete). */
export function archivePath(backupDir: string, index: string, shard: number, stamp: string): string {
  return `${backupDir.replace(/\/+$/, '')}/${index}-${shard}-${stamp}.tar`;
}

/** The archive of the backup step and what goes in it (tar -C indexDir shardDir). */
export function backupPaths(f: PlanFacts): { archive: string; indexDir: string; shardDir: string } {
  const { dir: indexDir, base: shardDir } = parentOf(f.folder);
  return { archive: archivePath(f.backupDir, f.index, f.shard, f.stamp), indexDir, shardDir };
}

export function recoveryPlan(f: PlanFacts): RecoveryPlan {
  const q = shellQuote;
  const as = `runuser -u ${q(f.esUser)} --`;
  const java = f.java ? q(f.java) : '"$ES_JAVA_HOME/bin/java"';
  const { archive, indexDir, shardDir } = backupPaths(f);
  const checkIndex = `${as} ${java} -cp ${q(`${f.home}/lib/*`)} org.apache.lucene.index.CheckIndex ${q(`${f.folder}/index`)}`;
  const get = (path: string, querystring: Record<string, string> = {}) => curlLine({ method: 'GET', path, querystring }, f.conn);
  const stale = stalePrimaryPlan(f.index, f.shard, f.node.name);
  const start: PlanStep[] = [
    {
      id: 'stop',
      kind: 'shell',
      title: 'Stop the engine',
      command: f.serviceStop ?? DEFAULT_SERVICE_STOP,
      note: 'nothing may write to the shard folder while it is repaired',
    },
    {
      id: 'backup',
      kind: 'shell',
      title: 'Back up the shard folder',
      // What an operator would type; shardeck itself checks every folder of the path with lstat and opens the archive O_EXCL|O_NOFOLLOW.
      command: `mkdir -p -m 700 ${q(f.backupDir)} && umask 077 && set -o noclobber && tar -C ${q(indexDir)} -cf - ${q(shardDir)} > ${q(archive)}`,
      note: 'the repair removes segments for good: this archive is the way back (a new 0600 file in a folder only its owner can open; never written over)',
    },
    {
      id: 'verify-backup',
      kind: 'shell',
      title: 'Verify the archive lists every file with the right size',
      command: `diff <(cd ${q(indexDir)} && find ${q(shardDir)} -type f -printf '%p %s\\n' | sort) <(tar -tvf ${q(archive)} | awk '$1 !~ /^d/ {print $6, $3}' | sort) && echo 'archive complete'`,
      note: 'no output but "archive complete" means every file is in the archive with its size; anything else: stop here',
    },
  ];
  const restart: PlanStep[] = [
    {
      id: 'start',
      kind: 'shell',
      title: 'Start the engine',
      command: f.serviceStart ?? DEFAULT_SERVICE_START,
      note: 'the node reads the repaired folder',
    },
    {
      id: 'wait',
      kind: 'read',
      title: 'Wait for the node to answer',
      command: `until ${get('/_cluster/health', { timeout: '5s' })} -sf -o /dev/null; do sleep 2; done`,
      note: 'loops until the node answers HTTP',
    },
    {
      id: 'allocation',
      kind: 'read',
      title: "Check the shard's allocation",
      command: `shardeck explain ${q(f.index)} ${f.shard} primary`,
      note: 'started: go to the last step; still no_valid_shard_copy: allocate it as a stale primary (next step)',
    },
    {
      id: 'reroute',
      kind: 'request',
      title: 'Allocate the repaired copy as primary (accept_data_loss)',
      request: stale,
      note: 'Elasticsearch does not trust a copy it saw fail; this tells it to, accepting that the documents of the removed segments are gone',
      losesData: true,
      conditional: true,
    },
    {
      id: 'verify',
      kind: 'read',
      title: 'Health and document count afterwards',
      command: `${get('/_cluster/health/' + f.index, { wait_for_status: 'yellow', timeout: `${DEFAULT_SHARD_WAIT_S}s` })} && ${get('/_cat/shards/' + f.index, { v: 'true', h: 'index,shard,prirep,state,docs,node' })}`,
      note: 'documents lost = the count CheckIndex reported before minus the count now',
    },
  ];
  const steps: PlanStep[] = [
    ...start,
    {
      id: 'check',
      kind: 'shell',
      title: 'Check the index with Lucene CheckIndex (read-only)',
      command: checkIndex,
      note: 'changes nothing; names the broken segments and the documents they hold (exit 1 when it finds corruption)',
    },
    {
      id: 'exorcise',
      kind: 'shell',
      title: 'Remove the broken segments (CheckIndex -exorcise)',
      command: `${checkIndex} -exorcise`,
      note: 'the documents of the broken segments are lost, unidentified',
      losesData: true,
    },
    {
      id: 'markers',
      kind: 'shell',
      title: 'Remove the corruption markers',
      command: `${as} find ${q(`${f.folder}/index`)} -maxdepth 1 -name 'corrupted_*' -print -delete`,
      note: 'Elasticsearch refuses a folder that holds a corrupted_* marker',
    },
    ...restart,
  ];
  const javaHome = f.java ? q(f.java.replace(/\/bin\/java$/, '')) : '"$ES_JAVA_HOME"';
  const alternative: PlanStep[] | null =
    f.hasShardTool === false
      ? null
      : [
          ...start,
          {
            id: 'shard-tool',
            kind: 'shell',
            title: 'Remove the corrupted data with elasticsearch-shard',
            // The echo answers the tool's own "Confirm [y/N]": this step runs only once confirmed here.
            command: `echo y | ${as} env ES_PATH_CONF=${q(f.confDir)} ES_JAVA_HOME=${javaHome} ${q(`${f.home}/bin/elasticsearch-shard`)} remove-corrupted-data --index ${q(f.index)} --shard-id ${f.shard}`,
            note: 'removes the broken segments and the markers and gives the copy a new allocation id, so the reroute it prints is always needed (typing it by hand, leave out the echo to answer its question yourself)',
            losesData: true,
          },
          ...restart.map((s) => (s.id === 'reroute' ? { ...s, conditional: false } : s)),
        ];
  return { archive, steps, alternative };
}

/** A step's exact command ("$ ..."), or its request as every preview shows one (method, path, body, curl). */
export function stepCommandLines(step: PlanStep, conn: PreviewConnection): string[] {
  return step.request ? previewLines(buildPreview(step.request, conn)) : [`$ ${displayText(String(step.command))}`];
}

/** The plan as the operator reads it: numbered steps, each with its exact command. */
export function planLines(p: RecoveryPlan, conn: PreviewConnection): string[] {
  const render = (steps: PlanStep[]) =>
    steps.flatMap((s, i) => [
      `${i + 1}. ${displayText(s.title)}${s.conditional ? ' (only if the check before says so)' : ''}${s.losesData ? ' [LOSES DATA]' : ''}`,
      ...stepCommandLines(s, conn).map((l) => `   ${l}`),
      `   ${displayText(s.note)}`,
    ]);
  const out = ['Offline repair with Lucene CheckIndex (nothing below has been run):', ...render(p.steps)];
  if (p.alternative)
    out.push(
      '',
      'Alternative: elasticsearch-shard remove-corrupted-data in place of CheckIndex and the markers:',
      ...render(p.alternative),
    );
  return out;
}
