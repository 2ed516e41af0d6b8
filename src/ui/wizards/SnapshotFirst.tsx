// "Snapshot first" on the review of a delete, a force merge or a corruption repair: one key takes a
// snapshot of exactly the indices the change touches, named after it, through the same session as
// `snapshot create` (services/wizards/snapshot.ts, so the Guard's audit and the timeline record it),
// followed to its end. Taken whole: the review comes back saying so, and the change waits for its
// own confirmation. Refused, failed or partial: the reason, and the operator chooses (go on to the
// review without it, or close with nothing changed). Offered only when a repository is registered.
import React, { useEffect, useState, useSyncExternalStore } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { fitText } from '../../domain/text/table';
import { snapshotPercent, type SnapshotRepository } from '../../domain/snapshots';
import {
  snapshotFirstRequest,
  snapshotFirstVerdict,
  type SnapshotFirstChange,
  type SnapshotFirstVerdict,
  type SnapshotRequest,
} from '../../domain/wizards/snapshot';
import type { WizardServices } from '../../services/wizards';
import { snapshotRepositoriesRead, snapshotWizard } from '../../services/wizards/snapshot';
import { useKeymap } from '../app/use-keymap';
import { useTerminalSize } from '../app/terminal';
import { Bar } from '../components/Bar';
import { colourOf } from '../theme';
import type { DialogKey } from './dialog-keys';
import { useHint } from './dialog-keys';
import { Hint } from './wizard-text';

type CreateRequest = Extract<SnapshotRequest, { kind: 'create' }>;
type Run = { session: ReturnType<typeof snapshotWizard>; req: CreateRequest };

const IDLE = { subscribe: () => () => {}, getState: () => undefined };

export interface SnapshotFirst {
  /** The repository a snapshot would go to; undefined: nothing is offered (none, read-only, not read yet). */
  repository?: string;
  verdict?: SnapshotFirstVerdict;
  /** The operator went on after a snapshot that was not taken whole. */
  wentOn: boolean;
  /** The snapshot-first screen replaces the wizard's (running, or stopped and waiting for a choice). */
  blocking: boolean;
  /**
   * The wizard's keys go here first: s on its review (`indices`: what the change touches) starts
   * it; while it runs every key waits; when stopped y goes on, Esc is left to close the wizard.
   */
  keys(key: DialogKey, indices: readonly string[] | undefined): boolean;
}

export function useSnapshotFirst(services: WizardServices, change: SnapshotFirstChange, partial = false): SnapshotFirst {
  const keymap = useKeymap();
  const offered = keymap.some((k) => k.id === 'dialog.snapshotFirst');
  const [repos, setRepos] = useState<SnapshotRepository[]>([]);
  const [run, setRun] = useState<Run | null>(null);
  const [wentOn, setWentOn] = useState(false);
  useEffect(() => {
    if (!offered) return;
    let live = true;
    // A repository that cannot be read is no offer: the wizard works as before.
    services
      .open(snapshotRepositoriesRead)
      .then((r) => live && setRepos(r))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [services, offered]);
  const state = useSyncExternalStore(run?.session.subscribe ?? IDLE.subscribe, run?.session.getState ?? IDLE.getState);
  const verdict = run && state ? snapshotFirstVerdict(state, run.req) : undefined;
  const repository = offered ? repos[0]?.name : undefined;
  const blocking = verdict?.kind === 'running' || (verdict?.kind === 'stopped' && !wentOn);
  return {
    repository,
    verdict,
    wentOn,
    blocking,
    keys(key, indices) {
      if (verdict?.kind === 'running') return true;
      if (verdict?.kind === 'stopped' && !wentOn) {
        if (key.is('dialog.confirm')) setWentOn(true);
        return !key.is('dialog.close');
      }
      if (run || !repository || !indices?.length || !key.is('dialog.snapshotFirst')) return false;
      const req = snapshotFirstRequest(change, indices, repos, Date.now(), partial);
      if (!req) return false;
      const session = services.open(snapshotWizard, req);
      // The key was the operator's yes to this snapshot (named on the review before it was pressed).
      const confirmOnReview = () => {
        if (session.getState().phase === 'review') session.send({ type: 'confirm', confirmation: { by: 'key' } });
      };
      session.subscribe(confirmOnReview);
      confirmOnReview();
      setRun({ session, req });
      return true;
    },
  };
}

/** The review's one line about it: the offer, the snapshot taken, or going on without a whole one. */
export function SnapshotFirstLine({ first, what }: { first: SnapshotFirst; what: string }) {
  const hint = useHint();
  const v = first.verdict;
  if (v?.kind === 'taken')
    return (
      <Text color={colourOf('green')} wrap="truncate-end">
        {v.line}
      </Text>
    );
  if (v?.kind === 'stopped') return <Text color={colourOf('yellow')} wrap="truncate-end">{`no whole snapshot: ${v.lines[0]}`}</Text>;
  if (!first.repository) return null;
  return (
    <Text dimColor wrap="truncate-end">
      {hint(['dialog.snapshotFirst', `snapshot ${what} to ${first.repository} first`])}
    </Text>
  );
}

/** While it runs, and when it stopped: the snapshot's lines, and the choice. */
export function SnapshotFirstScreen({ first, change }: { first: SnapshotFirst; change: string }) {
  const hint = useHint();
  const { columns } = useTerminalSize();
  const width = Math.max(20, columns - 6);
  const v = first.verdict;
  if (!v || v.kind === 'taken') return null;
  if (v.kind === 'running')
    return (
      <Box flexDirection="column">
        <Text wrap="truncate-end">{v.lines[0]}</Text>
        {v.progress ? (
          <Box>
            <Bar percent={snapshotPercent(v.progress)} width={10} tone="yellow" />
            <Text> {fitText(v.lines[1] ?? '', Math.max(1, width - 13))}</Text>
          </Box>
        ) : (
          <Text dimColor>{v.lines[1] ?? 'sending…'}</Text>
        )}
        <Hint>{`the ${change} waits for it: it runs on the cluster, followed here to its end`}</Hint>
      </Box>
    );
  return (
    <Box flexDirection="column">
      {v.lines.slice(0, 6).map((l, i) => (
        <Text key={i} color={colourOf(i === 0 ? 'red' : undefined)} wrap="truncate-end">
          {l}
        </Text>
      ))}
      <Text>{`nothing else was done: the ${change} waits for your choice.`}</Text>
      <Hint>{hint(['dialog.confirm', 'back to the review without a whole snapshot'], ['dialog.close', 'close (nothing changed)'])}</Hint>
    </Box>
  );
}
