// Corruption recovery wizard: renders domain/wizards/recovery.ts. Detection and the lossless
// options first; the offline checklist only on c (CheckIndex), t (elasticsearch-shard) or r
// (resume one under way). Each step shows its exact command and runs on y, or on the index's
// name typed where documents are lost; n or Esc stops before it (resumable, also from the CLI).
// Laid out for 80x24: long lines are truncated, output and findings keep their last lines.
import React, { useEffect, useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { recoveryClosable, type RecoveryWizardState } from '../../domain/wizards/recovery';
import type { WizardServices } from '../../services/wizards';
import { recoveryWizard } from '../../services/wizards/recovery';
import type { RestoreForm } from '../../domain/wizards/restore';
import { RestoreFormView, RestoreRun } from './RestoreWizard';
import { useConsoleContext, useUi } from '../app/context';
import { Bar } from '../components/Bar';
import { TypedConfirm } from '../components/TypedConfirm';
import { colourOf } from '../theme';
import { useTerminalSize } from '../app/terminal';
import { askKeys, useDialogKeys, useHint, useKeyLabel } from './dialog-keys';
import { useSession, withServices } from './services';
import { SnapshotFirstLine, SnapshotFirstScreen, useSnapshotFirst, type SnapshotFirst } from './SnapshotFirst';
import { CLOSES, Hint, Lines } from './wizard-text';

export const RecoveryWizard = withServices(function RecoveryFromSelection({
  onClose,
  services,
}: {
  onClose: () => void;
  services: WizardServices;
}) {
  const sel = useUi((s) => s.selection.shards);
  // A selected primary is looked at even when the cluster is not red; otherwise the first corrupt one.
  const shard = sel?.primary ? { index: sel.index, shard: sel.shard } : undefined;
  return <RecoveryView services={services} shard={shard} onClose={onClose} />;
});

export function RecoveryView({
  services,
  shard,
  onClose,
}: {
  services: WizardServices;
  shard?: { index: string; shard: number };
  onClose: () => void;
}) {
  // The restore route hands over to the restore wizard, its form filled (in place, the newest snapshot).
  const [restore, setRestore] = useState<RestoreForm | null>(null);
  const [form, setForm] = useState<RestoreForm | null>(null);
  if (form) return <RestoreRun services={services} form={form} onClose={onClose} />;
  if (restore) return <RestoreFormView initial={restore} focusAt="mode" onSubmit={setForm} onClose={onClose} />;
  return <RecoverySteps services={services} shard={shard} onClose={onClose} onRestore={setRestore} />;
}

function RecoverySteps({
  services,
  shard,
  onClose,
  onRestore,
}: {
  services: WizardServices;
  shard?: { index: string; shard: number };
  onClose: () => void;
  onRestore: (form: RestoreForm) => void;
}) {
  const [state, session] = useSession(() => services.open(recoveryWizard, shard));
  const send = session.send;
  // The checklist stops and starts the node: each step's end refreshes the panes at once rather
  // than when the poller's backoff from the stopped node next allows.
  const { poller } = useConsoleContext();
  useEffect(() => {
    if (state.phase !== 'detecting') void poller?.refreshNow().catch(() => undefined);
  }, [state.step?.n, state.phase, poller]);
  // The corrupt primary cannot be copied: partial, so the snapshot keeps what it can and says what it could not.
  const first = useSnapshotFirst(services, 'repair', true);
  useDialogKeys(session, onClose, (key) => {
    const s = state;
    if (first.keys(key, s.phase === 'options' && repairOffered(s) ? [s.finding!.index] : undefined)) return true;
    if (key.is('dialog.close')) {
      // A running step cannot be called back; while asking, the machine takes Esc as "stop here".
      if (recoveryClosable(s)) onClose();
      else send({ type: 'cancel' });
      return true;
    }
    if (s.phase === 'options') {
      if (key.is('recovery.restore') && s.finding?.restore && !s.resumeAt) onRestore(s.finding.restore.form);
      else if (key.is('recovery.compare')) send({ type: 'compare' });
      else if (key.is('recovery.checkIndex')) send({ type: 'choose', method: 'checkindex' });
      else if (key.is('recovery.shardTool')) send({ type: 'choose', method: 'shard-tool' });
      else if (key.is('recovery.resume')) send({ type: 'choose', method: 'resume' });
      return true;
    }
    if (s.phase === 'asking') return askKeys(key, s.need, send, () => send({ type: 'decline' }));
    return false;
  });
  return (
    <Box flexDirection="column">
      {first.blocking ? <SnapshotFirstScreen first={first} change="repair" /> : <Body state={state} first={first} />}
    </Box>
  );
}

/** The offline checklist is offered (a finding on this host, nothing under way). */
function repairOffered(s: RecoveryWizardState): boolean {
  return Boolean(s.finding && !s.resumeAt && !s.finding.elsewhere);
}

function Body({ state: s, first }: { state: RecoveryWizardState; first: SnapshotFirst }) {
  const hint = useHint();
  // At 80x23 the comparison keeps its verdicts and drops how each was reached (the CLI's --compare prints them).
  const { rows } = useTerminalSize();
  const label = useKeyLabel();
  if (s.phase === 'detecting') return <Text>reading allocation explain, the node's paths and the snapshots…</Text>;
  if (s.phase === 'none' || s.phase === 'error')
    return (
      <>
        <Lines lines={s.message ?? []} colour={s.phase === 'error' ? colourOf('red') : undefined} />
        <Hint>{CLOSES}</Hint>
      </>
    );
  if (s.phase === 'comparing')
    return (
      <>
        <Text bold>copying the shard folder and counting it with CheckIndex (the node keeps running)…</Text>
        <Lines lines={s.log} />
        <Lines lines={s.output} dim />
        <Hint>running… (the copy cannot be called back)</Hint>
      </>
    );
  if (s.phase === 'options') {
    const f = s.finding;
    const offer = repairOffered(s);
    // At 80x24: each route's line and the least one only (no heading, no basis, no "none counted").
    const losses = (f?.losses ?? []).filter(
      (l) => rows >= 30 || !(l.startsWith('    ') || l.startsWith('what each') || l.startsWith('no route could')),
    );
    const keys = hint(
      f?.countable && !s.resumeAt && rows >= 30 ? ['recovery.compare', "count the repair's loss"] : '',
      offer ? ['recovery.checkIndex', 'offline repair with CheckIndex'] : '',
      offer && f?.shardTool ? ['recovery.shardTool', 'with elasticsearch-shard'] : '',
      s.resumeAt ? ['recovery.resume', 'resume the checklist'] : '',
      ['dialog.close', 'close'],
    );
    return (
      <>
        {f ? (
          <Text color={colourOf('red')} wrap="truncate-end">
            {f.lines[0]}
          </Text>
        ) : null}
        {f ? <Lines lines={f.lines.slice(1)} /> : null}
        {f ? <Text bold>first, what loses nothing:</Text> : null}
        {f ? <Lines lines={f.options.map((o) => `- ${o}`)} /> : null}
        {f?.restore && !s.resumeAt ? (
          <Text color={colourOf('green')} wrap="truncate-end">
            {hint(['recovery.restore', f.restore.line])}
          </Text>
        ) : null}
        {losses.map((l, i) => (
          <Text key={`loss-${i}`} bold={l.startsWith('loses least')} wrap="truncate-end">
            {/* At 80x24 the key that counts the repair's loss sits on its line, not in the keys below. */}
            {f?.countable && !s.resumeAt && rows < 30 && l.startsWith('  not known: offline repair')
              ? `${l} · ${label('recovery.compare')} counts it`
              : l}
          </Text>
        ))}
        {f?.countable && !s.resumeAt && rows >= 30 ? <Text dimColor wrap="truncate-end">{`k: ${f.countable}`}</Text> : null}
        {s.resumeAt ? <Text color={colourOf('yellow')} wrap="truncate-end">{`a checklist is under way: ${s.resumeAt}`}</Text> : null}
        {s.message ? <Lines lines={s.message} colour={colourOf('yellow')} /> : null}
        {/* Wrapped whole: it says which host to go to. */}
        {f?.elsewhere ? (
          <Text color={colourOf('red')}>{`offline repair not offered here: ${f.elsewhere.replace(/; nothing was run$/, '')}`}</Text>
        ) : null}
        {offer ? (
          <Text dimColor wrap="truncate-end">
            the offline repair stops the engine and loses the broken segments' documents: choose it only if none of the above applies
          </Text>
        ) : null}
        {offer && f ? <SnapshotFirstLine first={first} what={f.index} /> : null}
        <Hint>{keys}</Hint>
      </>
    );
  }
  const step = s.step;
  const ended = s.phase === 'finished' || s.phase === 'failed' || s.phase === 'declined';
  const tone = s.phase === 'finished' ? 'green' : s.phase === 'failed' ? 'red' : 'yellow';
  return (
    <>
      {step ? (
        <Box>
          <Bar percent={(100 * (step.n - (s.phase === 'finished' ? 0 : 1))) / step.total} width={11} tone={tone} />
          <Text bold>{` step ${step.n}/${step.total}`}</Text>
          {step.losesData ? <Text color={colourOf('red')}> [LOSES DATA]</Text> : null}
        </Box>
      ) : null}
      {step ? (
        <Text bold wrap="truncate-end">
          {step.title}
        </Text>
      ) : null}
      {/* The exact command, whole (wrapped): the operator must be able to read every character. */}
      {step && !ended ? step.commandLines.slice(0, 4).map((l, i) => <Text key={`cmd-${i}`}>{l}</Text>) : null}
      {step && !ended ? (
        <Text dimColor wrap="truncate-end">
          {step.note}
        </Text>
      ) : null}
      {s.log.map((l, i) => (
        <Text
          key={`log-${i}`}
          color={colourOf(l.startsWith('FAILED') ? 'red' : l.startsWith('ok') ? 'green' : undefined)}
          wrap="truncate-end"
        >
          {l}
        </Text>
      ))}
      {!ended ? <Lines lines={s.output} dim /> : null}
      {ended ? <Lines lines={s.message ?? []} colour={colourOf(tone)} /> : null}
      <Prompt state={s} />
    </>
  );
}

function Prompt({ state: s }: { state: RecoveryWizardState }) {
  const hint = useHint();
  const label = useKeyLabel();
  if (s.phase === 'running') return <Hint>running… (a running step cannot be called back)</Hint>;
  if (s.phase === 'asking' && s.need?.kind === 'type')
    return (
      <>
        <TypedConfirm prompt={`loses documents: type ${s.need.expected} and ${label('dialog.submit')}: `} typed={s.typed} />
        <Hint>{hint(['dialog.close', 'stops here (resumable)'])}</Hint>
      </>
    );
  if (s.phase === 'asking')
    return <Hint>{hint(['dialog.confirm', 'run this step'], [['dialog.decline', 'dialog.close'], 'stop here (resumable)'])}</Hint>;
  return <Hint>{CLOSES}</Hint>;
}
