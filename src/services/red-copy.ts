// The copy of a red index's shard folders before anything deletes it, and what Lucene counts in
// it (issue 48). Planned from the cluster's reads and this host's folders before anything is
// sent; taken with the checklist's own backup and verify steps (recovery-runner's carryOutHostStep,
// through the guard: audited, refused in read-only mode); counted by CheckIndex without -exorcise
// on an unpacked copy in root's backup folder (the node keeps running); kept with a record beside
// the archive until the operator removes it.
import path from 'node:path';
import type { EsApi } from '../cluster/api';
import { copyMissing, copyOf, type CopyFolder, type CopyRecord, type IndexCopyPlan } from '../domain/corruption/copy';
import { shardFolder } from '../domain/corruption/node';
import { archivePath, archiveStamp, recoveryPlan, type PlanFacts } from '../domain/corruption/plan';
import { newProgress } from '../domain/corruption/progress';
import { combinedCheck, parseCheckIndex, type CheckIndexResult } from '../domain/corruption/tool-output';
import { countsFromTimeline, exorciseLoss, replicaLoss, restoreLoss, type DocCount, type RouteLoss } from '../domain/corruption/loss';
import { restoreRoute } from '../domain/wizards/recovery';
import type { RestoreForm } from '../domain/wizards/restore';
import { readTimeline } from './timeline';
import type { HostSecrets } from '../domain/host/host-env';
import type { Confirmation } from '../domain/mutation/confirmation';
import { folderNames } from '../boundary/host-reads';
import {
  folderUsage,
  freeBytes,
  removeArchive,
  removeUnpacked,
  runRootCheckIndex,
  unpackCopy,
  writeCopyRecordFile,
} from '../boundary/shard-copy';
import { defaultBackupDir, keptCopies } from './kept-copies';
import { javaOfPid, localNodeOf, processUser, type CorruptShardReport } from './corruption';
import type { Guard } from './guard';
import { carryOutHostStep } from './recovery-runner';

/**
 * Which nodes hold a copy of each shard of `index`: the assigned copies from _cat/shards, and for
 * an unassigned primary the nodes allocation explain found a copy on (a corrupt one too).
 */
async function holdersOf(es: EsApi, index: string): Promise<Map<number, string[]>> {
  const rows = (await es.data('shards')).filter((s) => s.index === index);
  const out = new Map<number, string[]>();
  for (const r of rows) {
    const list = out.get(r.shard) ?? [];
    if (r.node && !list.includes(r.node)) list.push(r.node);
    out.set(r.shard, list);
  }
  for (const [shard, nodes] of out) {
    if (nodes.length) continue;
    const body = await es.allocationExplain({ index, shard, primary: true }).catch(() => null);
    const decisions = ((body?.node_allocation_decisions as Record<string, any>[] | undefined) ?? []).filter((d) => d.store);
    out.set(
      shard,
      decisions.map((d) => String(d.node_name)),
    );
  }
  return out;
}

/**
 * What copying the shard folders of the red index `index` takes, read before anything is sent:
 * the folders under this host's node's data paths (their bytes, or why they cannot be read),
 * the shards held on other hosts (not copied), an earlier verified copy of a folder (reused),
 * and the free space in `backupDir`.
 */
export async function planIndexCopy(
  es: EsApi,
  index: string,
  backupDir = defaultBackupDir(),
  stamp = archiveStamp(),
): Promise<IndexCopyPlan> {
  const [uuids, nodes, holders] = await Promise.all([es.indexUuids([index]), es.nodeFacts(), holdersOf(es, index)]);
  const uuid = uuids.get(index) ?? '';
  const local = localNodeOf(nodes);
  const esUser = local?.pid !== undefined ? processUser(local.pid) : null;
  const engine =
    local && local.home && esUser
      ? {
          node: { name: local.name, id: local.id },
          ...(local.pid !== undefined ? { pid: local.pid } : {}),
          home: local.home,
          java: javaOfPid(local.pid) ?? (local.bundledJdk ? `${local.home}/jdk/bin/java` : null),
          esUser,
        }
      : null;
  const records = keptCopies(backupDir);
  const here: CopyFolder[] = [];
  const unreadable: IndexCopyPlan['unreadable'] = [];
  const heldHere = local ? [...holders].filter(([, n]) => n.includes(local.name)).map(([s]) => s) : [];
  if (local && uuid) {
    for (const dp of local.dataPaths) {
      const indexDir = path.dirname(shardFolder(dp, uuid, 0));
      const names = folderNames(indexDir);
      if (names === null) continue;
      for (const n of names.filter((x) => /^\d+$/.test(x)).sort((a, b) => Number(a) - Number(b))) {
        const shard = Number(n);
        const folder = shardFolder(dp, uuid, shard);
        const usage = folderUsage(folder);
        if (!usage.ok) {
          unreadable.push({ folder, error: usage.error });
          continue;
        }
        const earlier = copyOf(records, uuid, shard, folder);
        const archive = earlier?.archive ?? archivePath(backupDir, index, shard, stamp);
        here.push({
          shard,
          folder,
          bytes: usage.bytes,
          files: usage.files,
          dirs: usage.dirs,
          archive,
          ...(earlier ? { reuse: earlier.archive } : {}),
        });
      }
    }
    // The copy steps run as the engine's user read from its process: without it, nothing is copied.
    if (!engine && here.length)
      unreadable.push({
        folder: path.dirname(here[0].folder),
        error: `the user node ${local.name} runs as cannot be read from its process (run shardeck as root)`,
      });
    // The cluster says this node holds a shard whose folder is not seen here: refused, not skipped.
    for (const shard of heldHere)
      if (!here.some((f) => f.shard === shard) && !unreadable.some((u) => u.folder.endsWith(`/${uuid}/${shard}`)))
        unreadable.push({
          folder: shardFolder(local.dataPaths[0] ?? '?', uuid, shard),
          error: `node ${local.name} holds shard ${shard} but its folder cannot be seen from here (missing, or run shardeck as root)`,
        });
  }
  const hostOf = new Map(nodes.map((n) => [n.name, n.host]));
  const elsewhere = [...holders]
    .filter(([shard]) => !heldHere.includes(shard) && !here.some((f) => f.shard === shard))
    .sort((a, b) => a[0] - b[0])
    .map(([shard, n]) => {
      const node = n[0] ?? 'no node reports a copy';
      const host = hostOf.get(node);
      return { shard, node, ...(host ? { host } : {}) };
    });
  return {
    index,
    uuid,
    backupDir,
    node: local?.name ?? null,
    here,
    elsewhere,
    unreadable,
    freeBytes: freeBytes(backupDir),
    engine,
    stamp,
  };
}

/** The checklist's facts for one folder's backup and verify steps. */
function stepFacts(t: IndexCopyPlan, f: CopyFolder, conn: Guard['previewConnection']): PlanFacts {
  const e = t.engine!;
  const reuse = f.reuse ? /-(\d{8}T\d{6}Z)\.tar$/.exec(f.reuse)?.[1] : undefined;
  return {
    index: t.index,
    shard: f.shard,
    node: e.node,
    folder: f.folder,
    home: e.home,
    java: e.java,
    esUser: e.esUser,
    confDir: '',
    backupDir: path.dirname(f.archive),
    stamp: reuse ?? t.stamp,
    conn,
    hasShardTool: null,
    ...(e.pid !== undefined ? { pid: e.pid } : {}),
  };
}

export interface CopyIO {
  output: (s: string) => void;
  info: (line: string) => void;
}

export type CopyTaken =
  { ok: true; records: CopyRecord[]; lines: string[] } | { ok: false; message: string; records: CopyRecord[]; lines: string[] };

/**
 * Takes the copy: for each folder of this host, the checklist's backup step (a new 0600 archive
 * in the private backup folder) and its verify step (every file in the archive with its size),
 * each through the guard; a verified copy taken before is only verified again. A record is kept
 * beside each archive. Stops at the first failure (the archive of a failed backup is removed).
 */
export async function takeIndexCopy(
  guard: Guard,
  t: IndexCopyPlan,
  confirmation: Confirmation,
  io: CopyIO,
  hostSecrets: HostSecrets,
  why: string,
): Promise<CopyTaken> {
  const records: CopyRecord[] = [];
  const lines: string[] = [];
  const existing = keptCopies(t.backupDir);
  for (const f of t.here) {
    const facts = stepFacts(t, f, guard.previewConnection);
    const progress = newProgress('checkindex', facts, new Date().toISOString());
    const steps = recoveryPlan(facts).steps;
    const run = async (id: 'backup' | 'verify-backup', summary: string) => {
      const step = steps.find((s) => s.id === id)!;
      return guard.runHostCommand({ command: step.command!, risk: 'reversible', target: t.index, summary }, confirmation, async () => {
        try {
          return await carryOutHostStep(progress, step, io, hostSecrets);
        } catch (e) {
          return { ok: false, message: (e as Error).message };
        }
      });
    };
    const what = `${t.index} shard ${f.shard}`;
    if (!f.reuse) {
      const b = await run('backup', `copy the shard folder of ${what} before ${why}`);
      io.info(`${b.ok ? 'ok' : 'FAILED'}: ${b.message}`);
      if (!b.ok) return { ok: false, message: `the copy of ${what} failed: ${b.message}`, records, lines };
    }
    const v = await run('verify-backup', `check the copy of ${what} (${f.reuse ? 'taken before' : 'just taken'}) against its folder`);
    io.info(`${v.ok ? 'ok' : 'FAILED'}: ${v.message}`);
    if (!v.ok) {
      // A copy just taken that does not match is no copy: removed (the index is not deleted either).
      if (!f.reuse) removeArchive(f.archive);
      return {
        ok: false,
        message: `the copy of ${what} (${f.archive}) does not match its folder: ${v.message}${f.reuse ? ' (the folder changed since that copy: remove it and its .json to take a new one)' : '; it was removed'}`,
        records,
        lines,
      };
    }
    const before = existing.find((r) => r.archive === f.archive);
    const record: CopyRecord = before ?? {
      version: 1,
      index: t.index,
      uuid: t.uuid,
      shard: f.shard,
      folder: f.folder,
      node: t.engine!.node.name,
      archive: f.archive,
      takenAt: new Date().toISOString(),
      why,
      bytes: f.bytes,
      tools: { java: t.engine!.java, home: t.engine!.home },
    };
    if (!before) writeCopyRecordFile(f.archive, JSON.stringify(record, null, 2) + '\n');
    records.push(record);
    lines.push(`${f.reuse ? 'copy checked again' : 'copied'}: ${what} -> ${f.archive}`);
  }
  if (copyMissing(t))
    lines.push(`not copied: ${t.elsewhere.map((e) => `shard ${e.shard} (node ${e.node})`).join(', ') || 'no folder here'}`);
  return { ok: true, records, lines };
}

/**
 * What a restore from `snapshot` loses, from the counts the timeline holds (the last before red,
 * the one taken with the snapshot), and the count before red it is measured against afterwards.
 */
export function restoreLossOf(
  url: string,
  index: string,
  snapshot: { repository: string; name: string; startMs?: number },
): { loss: RouteLoss; before: DocCount | null } {
  let entries;
  try {
    entries = readTimeline(url);
  } catch (e) {
    // A timeline that cannot be read: the loss is not known, and why; nothing else is held up.
    return {
      loss: {
        route: 'restore',
        lost: null,
        label: restoreLoss(snapshot, { before: null, inSnapshot: null }).label,
        why: `the timeline cannot be read: ${(e as Error).message}`,
      },
      before: null,
    };
  }
  const counts = countsFromTimeline(entries, index, snapshot);
  return { loss: restoreLoss(snapshot, counts), before: counts.before };
}

/** What the repair loses, from the copies of these folders CheckIndex counted (all of them, or it is not known). */
export function exorciseLossOf(plan: IndexCopyPlan, shards?: readonly number[]): RouteLoss {
  const folders = plan.here.filter((f) => !shards || shards.includes(f.shard));
  const records = keptCopies(plan.backupDir);
  const checks = folders.map((f) => records.find((r) => r.archive === (f.reuse ?? f.archive))?.check);
  if (folders.length && checks.every((c) => c)) return exorciseLoss(combinedCheck(checks as CheckIndexResult[]));
  const shard = shards?.length === 1 ? String(shards[0]) : '<shard>';
  return exorciseLoss(
    null,
    folders.length
      ? `not counted: shardeck recover-corrupt ${plan.index} ${shard} --compare (or k in the checklist) copies the folder and counts it with CheckIndex`
      : 'not counted: CheckIndex reads a copy of the shard folder, and no folder of it is on this host',
  );
}

/**
 * Each way back from a corrupt primary and what it loses, before the choice: a healthy copy on
 * another node (none), a restore from the newest snapshot holding the index (from the counts on
 * record), the offline repair (from a counted copy of the shard folder, when there is one).
 */
export async function routeLosses(
  es: EsApi,
  url: string,
  c: Pick<CorruptShardReport, 'index' | 'shard' | 'copies' | 'snapshots'>,
  plan: IndexCopyPlan | null,
): Promise<{ routes: RouteLoss[]; restore?: RestoreForm }> {
  const routes: RouteLoss[] = c.copies.filter((x) => !x.corrupt && x.inSync).map((x) => replicaLoss(x.node));
  const route = restoreRoute(c.index, c.snapshots);
  if (route) {
    const info = await es.snapshotInfo(route.form.repository, route.form.snapshot).catch(() => undefined);
    const snapshot = { repository: route.form.repository, name: route.form.snapshot, ...(info?.startMs ? { startMs: info.startMs } : {}) };
    routes.push(restoreLossOf(url, c.index, snapshot).loss);
  }
  routes.push(plan ? exorciseLossOf(plan, [c.shard]) : exorciseLoss(null, 'not counted: no folder of it is on this host'));
  return { routes, ...(route ? { restore: route.form } : {}) };
}

/** Where a copy is unpacked to be read (beside its archive, in the same private folder). */
export const unpackedOf = (archive: string, what: 'check' | 'repaired') => `${archive.replace(/\.tar$/, '')}.${what}`;

/**
 * Lucene's own count of what the offline repair of a copied shard would lose: the copy unpacked
 * in root's backup folder, CheckIndex run there without -exorcise (as root, with root's java and
 * lib/), the unpacked folder removed again; the result kept in the copy's record. Audited as a
 * read (it changes nothing of the cluster or the engine's files).
 */
export async function countCopy(
  guard: Guard,
  rec: CopyRecord,
  tools: { java: string | null; home: string },
  io: Pick<CopyIO, 'output'>,
): Promise<{ ok: true; check: CheckIndexResult; record: CopyRecord } | { ok: false; message: string }> {
  const scratch = unpackedOf(rec.archive, 'check');
  const shardDir = path.basename(rec.folder);
  const indexDir = path.join(scratch, shardDir, 'index');
  const command = `tar -C ${scratch} -xf ${rec.archive} && ${tools.java ?? 'java'} -cp '${tools.home}/lib/*' org.apache.lucene.index.CheckIndex ${indexDir}; rm -r ${scratch}`;
  let check: CheckIndexResult | null = null;
  const r = await guard.runHostRead(
    {
      command,
      target: rec.index,
      summary: `count what repairing the copy of ${rec.index} shard ${rec.shard} would lose: CheckIndex without -exorcise`,
    },
    async () => {
      const unpacked = await unpackCopy(rec.archive, scratch);
      if (!unpacked.ok) return { ok: false, error: unpacked.error };
      try {
        const c = await runRootCheckIndex(tools.java ?? '', tools.home, indexDir, { onOutput: io.output });
        check = parseCheckIndex(c.output);
        // CheckIndex exits 1 when it finds corruption: its verdict in the output is what counts.
        return check && (c.exitCode === 0 || c.exitCode === 1)
          ? { ok: true, exitCode: c.exitCode }
          : { ok: false, exitCode: c.exitCode, error: `CheckIndex gave no verdict (${c.error ?? 'no report in its output'})` };
      } finally {
        removeUnpacked(scratch);
      }
    },
  );
  if (!r.ok || !check) return { ok: false, message: r.error ?? 'CheckIndex gave no verdict' };
  const record: CopyRecord = { ...rec, check, checkedAt: new Date().toISOString() };
  writeCopyRecordFile(rec.archive, JSON.stringify(record, null, 2) + '\n');
  return { ok: true, check, record };
}

/**
 * The offline repair run from a kept copy (when the index it came from is gone, e.g. a restore
 * that failed after the delete): the copy unpacked beside its archive (`.repaired`, root's
 * private folder; the archive stays as it is) and CheckIndex -exorcise run there. Loses the broken
 * segments' documents of that unpacked copy only; the folder is left for the operator.
 */
export async function repairCopy(
  guard: Guard,
  rec: CopyRecord,
  tools: { java: string | null; home: string },
  confirmation: Confirmation,
  io: Pick<CopyIO, 'output'>,
): Promise<{ ok: true; folder: string; result: CheckIndexResult } | { ok: false; message: string }> {
  const into = unpackedOf(rec.archive, 'repaired');
  const indexDir = path.join(into, path.basename(rec.folder), 'index');
  let result: CheckIndexResult | null = null;
  const r = await guard.runHostCommand(
    {
      command: `tar -C ${into} -xf ${rec.archive} && ${tools.java ?? 'java'} -cp '${tools.home}/lib/*' org.apache.lucene.index.CheckIndex ${indexDir} -exorcise`,
      risk: 'reversible',
      target: rec.index,
      summary: `repair the copy of ${rec.index} shard ${rec.shard} (CheckIndex -exorcise on it, unpacked in ${into}; the archive stays)`,
    },
    confirmation,
    async () => {
      const unpacked = await unpackCopy(rec.archive, into);
      if (!unpacked.ok) return { ok: false, error: unpacked.error };
      const c = await runRootCheckIndex(tools.java ?? '', tools.home, indexDir, { exorcise: true, onOutput: io.output });
      result = parseCheckIndex(c.output);
      const ok = Boolean(result && (result.wroteNewSegments || result.brokenSegments === 0));
      return ok
        ? { ok, exitCode: c.exitCode }
        : { ok, exitCode: c.exitCode, error: `CheckIndex -exorcise wrote no new commit (${c.error ?? 'no report'})` };
    },
  );
  if (!r.ok || !result) return { ok: false, message: r.error ?? 'CheckIndex -exorcise gave no verdict' };
  return { ok: true, folder: into, result };
}
