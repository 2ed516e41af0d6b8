// What a right-sizing left behind, read without loading the run itself (services/shrink.ts):
// this operator's journal (<configDir>/shrinks/<cluster>.json) with where its unfinished index
// stands now, and temporary copies no run of theirs names. `status` and the console's first frame
// say it, so this module stays small: neither loads the guard, the steps or the snapshot wizard.
import path from 'node:path';
import type { EsApi } from '../cluster/api';
import type { NameHolder } from '../cluster/shrink';
import { readCapped } from '../boundary/files';
import { clusterFileKey } from '../config/cluster-lock';
import { configDir, privateFolderFiles } from '../config/files';
import type { StepId } from '../domain/shrink/plan';
import {
  parseShrinkProgress,
  resumeDecision,
  unfinishedLine,
  unfinishedRun,
  type IndexRun,
  type Presence,
  type ShrinkProgress,
} from '../domain/shrink/progress';

const MAX_PROGRESS_BYTES = 32 * 1024 * 1024;

export function shrinkProgressFile(clusterUuid: string): string {
  return path.join(configDir(), 'shrinks', `${clusterFileKey(clusterUuid)}.json`);
}

/** This operator's unfinished run on the cluster, or null (none, finished, or a file that is not ours). */
export function loadShrinkProgress(clusterUuid: string): ShrinkProgress | null {
  try {
    const r = readCapped(shrinkProgressFile(clusterUuid), MAX_PROGRESS_BYTES, { noFollow: true });
    if (r.owner !== (process.getuid?.() ?? 0) || r.truncated) return null;
    const p = parseShrinkProgress(r.text);
    return p && !p.finished && p.clusterUuid === clusterUuid ? p : null;
  } catch {
    return null;
  }
}

/** What the cluster holds now of one run: the original (by uuid), its copy, whatever holds the name. */
export async function presenceOf(es: EsApi, r: IndexRun): Promise<Presence & { holder: NameHolder | null }> {
  const [holder, tmp] = await Promise.all([es.nameHolder(r.index), es.nameHolder(r.tmp)]);
  const original = holder?.uuid === r.uuid;
  return {
    original,
    tmp: tmp !== null,
    underName:
      holder && !original ? { uuid: holder.uuid, shards: holder.shards, docs: holder.docs, writeBlocked: holder.writeBlocked } : null,
    holder,
  };
}

export interface UnfinishedShrink {
  progress: ShrinkProgress;
  run: IndexRun;
  step: StepId;
  line: string;
  canRollBack: boolean;
  /** Set when it cannot go on as it is (nothing will be sent): why. */
  stop?: string;
}

/** This operator's unfinished run on this cluster, with where it stands now; null when there is none. */
export async function unfinishedShrink(es: EsApi): Promise<UnfinishedShrink | null> {
  // No journal at all (the common case): not even the cluster's uuid is asked.
  if (!privateFolderFiles(path.join(configDir(), 'shrinks'), (n) => n.endsWith('.json')).length) return null;
  const p = loadShrinkProgress(await es.clusterUuid());
  const u = p && unfinishedRun(p);
  if (!p || !u) return null;
  const at = await presenceOf(es, u.run);
  const d = resumeDecision(u.run, at);
  return {
    progress: p,
    run: u.run,
    step: u.step,
    line: unfinishedLine(p, at) ?? '',
    canRollBack: d.kind === 'continue' && d.canRollBack,
    ...(d.kind === 'stop' ? { stop: d.why } : {}),
  };
}

/** What right-sizings left on the cluster: this operator's unfinished run, and temporary copies no run of theirs knows. */
export interface ShrinkLeft {
  own: UnfinishedShrink | null;
  /** Temporary copies (<index>-shrink-<time>) that this operator's journal does not name: another operator's run, or a journal gone. */
  strangers: string[];
  /** One line each, for status and the console. */
  lines: string[];
}

export async function shrinkLeft(es: EsApi): Promise<ShrinkLeft> {
  const [own, copies] = await Promise.all([unfinishedShrink(es), es.temporaryCopies()]);
  const mine = new Set(own?.progress.runs.map((r) => r.tmp) ?? []);
  const strangers = copies.filter((c) => !mine.has(c));
  const lines = [
    ...(own ? [own.stop ? `${own.line}. ${own.stop}` : own.line] : []),
    ...strangers.map(
      (c) =>
        `the temporary right-sizing copy ${c} exists and no unfinished run of yours names it: another operator's run (ask them), or one whose journal is gone; look at it (and at ${c.replace(/-(shrink|split)-\d{14}$/, '')}) before deleting anything`,
    ),
  ];
  return { own, strangers, lines };
}
