// Force-merge wizard: renders the machine of domain/wizards/forcemerge.ts and sends the
// operator's keys to it. Opened on the Indices pane's selected row, or handed the target of a
// delete that removed documents (DeleteWizard.tsx). Laid out for 80x24 like the delete wizard.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { mergeDiskLines, mergeIndexLines, type FactLine, type MergeState } from '../../domain/wizards/forcemerge';
import type { WizardServices } from '../../services/wizards';
import { forcemergeWizard } from '../../services/wizards/forcemerge';
import { LineInput } from '../components/LineInput';
import { RequestPreviewBar } from '../components/RequestPreview';
import { colourOf } from '../theme';
import { lineKeys, useDialogKeys, useHint } from './dialog-keys';
import { useSession, withServices } from './services';
import { useIndicesTarget } from './marked-target';
import { TargetLine } from './TargetLine';
import { SnapshotFirstLine, SnapshotFirstScreen, useSnapshotFirst, type SnapshotFirst } from './SnapshotFirst';
import { Cancelled, CLOSES, Hint, Notes } from './wizard-text';

export const ForceMergeWizard = withServices(function ForceMergeFromSelection({
  onClose,
  services,
}: {
  onClose: () => void;
  services: WizardServices;
}) {
  // The marked indices, each named, else the highlighted one.
  return <ForceMergeView services={services} target={useIndicesTarget()} onClose={onClose} />;
});

function Facts({ lines }: { lines: FactLine[] }) {
  return (
    <>
      {lines.map((l) => (
        <Text key={l.text} wrap="truncate-end" color={colourOf(l.tone)}>
          {l.text}
        </Text>
      ))}
    </>
  );
}

/** The force-merge wizard; `start` inspects the given target at once (handed over by the delete wizard). */
export function ForceMergeView({
  services,
  target,
  start = false,
  onClose,
}: {
  services: WizardServices;
  target: string;
  start?: boolean;
  onClose: () => void;
}) {
  const [state, session] = useSession(() => services.open(forcemergeWizard, target, start));
  const first = useSnapshotFirst(services, 'merge');
  useDialogKeys(session, onClose, (key) => {
    if (first.keys(key, state.phase === 'review' && !state.refuse ? state.indices : undefined)) return true;
    if (state.phase === 'input') return lineKeys(key, session.send);
    if (state.phase === 'review' && key.is('dialog.erase')) return (session.send({ type: 'back' }), true);
    if (state.phase === 'review' && key.is('dialog.confirm') && !state.refuse) {
      session.send({ type: 'confirm', confirmation: { by: 'key' } });
      return true;
    }
    return false;
  });
  if (first.blocking) return <SnapshotFirstScreen first={first} change="merge" />;
  return <ForceMergeScreen state={state} services={services} first={first} />;
}

export function ForceMergeScreen({ state, services, first }: { state: MergeState; services: WizardServices; first?: SnapshotFirst }) {
  const hint = useHint();
  switch (state.phase) {
    case 'input':
      return (
        <Box flexDirection="column">
          <Text inverse>
            {'index or pattern '}
            <LineInput value={state.target} placeholder="…" />
          </Text>
          {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
          <Hint>{hint('type to edit', ['dialog.submit', 'check'], ['dialog.close', 'close'])}</Hint>
        </Box>
      );
    case 'inspecting':
      return <Text>{`reading deleted documents, store sizes and disks for ${state.target}…`}</Text>;
    case 'review':
    case 'applying':
      return (
        <Box flexDirection="column">
          <TargetLine target={state.target} indices={state.indices} />
          <Facts lines={mergeIndexLines(state.before).slice(0, 4)} />
          {state.before.indices.length > 4 ? <Text dimColor>{`… and ${state.before.indices.length - 4} more`}</Text> : null}
          <Facts lines={mergeDiskLines(state.before).slice(0, 3)} />
          <Notes warnings={state.warnings} />
          {state.refuse ? (
            <Text color={colourOf('red')}>{`refused: ${state.refuse}`}</Text>
          ) : (
            state.plans.map((p) => <RequestPreviewBar key={p.path} preview={services.preview(p)} />)
          )}
          {first && state.phase === 'review' && !state.refuse ? <SnapshotFirstLine first={first} what="the indices above" /> : null}
          {state.phase === 'review' ? (
            <Hint>{hint(state.refuse ? '' : ['dialog.confirm', 'merge'], ['dialog.erase', 'edit'], ['dialog.close', 'close'])}</Hint>
          ) : (
            <Text>
              {state.waitingLeases
                ? 'waiting (reading only) for the retention leases…'
                : state.task
                  ? `merging, task ${state.task} (cannot be cancelled); sizes follow within ~10 s…`
                  : 'sending…'}
            </Text>
          )}
        </Box>
      );
    case 'done':
      // Its task died with its node: the delete's words, then the sizes as read back.
      if (state.gone)
        return (
          <Box flexDirection="column">
            {state.gone.lines.map((l, i) => (
              <Text key={i} wrap="wrap" color={colourOf(i === 0 ? 'red' : undefined)}>
                {i === 0 ? `FAILED: ${l}` : `  ${l}`}
              </Text>
            ))}
            <Facts lines={mergeIndexLines(state.before, state.after).slice(0, 6)} />
            <Hint>{CLOSES}</Hint>
          </Box>
        );
      return (
        <Box flexDirection="column">
          <Text
            color={colourOf(state.failures.length ? 'red' : 'green')}
          >{`${state.failures.length ? 'FAILED' : 'ok'}: merge finished (task ${state.task}); before -> after:`}</Text>
          <Facts lines={mergeIndexLines(state.before, state.after).slice(0, 6)} />
          <Facts lines={mergeDiskLines(state.before, state.after).slice(0, 3)} />
          {state.failures.slice(0, 3).map((f) => (
            <Text key={f} color={colourOf('red')} wrap="truncate-end">{`failure: ${f}`}</Text>
          ))}
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    case 'failed':
      return (
        <Box flexDirection="column">
          <Text color={colourOf('red')}>{state.message}</Text>
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    case 'cancelled':
      return <Cancelled />;
  }
}
