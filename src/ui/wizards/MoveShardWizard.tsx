// Move the highlighted started copy (the Shards pane's m): renders domain/wizards/move-shard.ts.
// The nodes allocation explain accepts (↑/↓ to choose), the deciders of the others, the reroute
// dry run's answer, the request, then the copy followed with a bar until started on its new node.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import type { MoveState } from '../../domain/wizards/move-shard';
import type { WizardServices } from '../../services/wizards';
import { moveWizard } from '../../services/wizards/move-shard';
import { useUi } from '../app/context';
import { useTerminalSize } from '../app/terminal';
import { Bar } from '../components/Bar';
import { RequestPreview } from '../components/RequestPreview';
import { colourOf } from '../theme';
import { useDialogKeys, useHint } from './dialog-keys';
import { useSession, withServices } from './services';
import { CLOSES, Hint, Results, Waiting } from './wizard-text';

/** Lines for the refusing nodes and their deciders (80x23 keeps room for the choice and the hints). */
const REFUSALS = 6;

export const MoveShardWizard = withServices(function MoveFromSelection({ onClose, services }) {
  const sel = useUi((s) => s.selection.shards);
  if (!sel?.node) return <NoCopy onClose={onClose} />;
  return <MoveView services={services} opened={{ index: sel.index, shard: Number(sel.shard), from: sel.node }} onClose={onClose} />;
});

function NoCopy({ onClose }: { onClose: () => void }) {
  useDialogKeys({ getState: () => ({ phase: 'nothing' }), send: () => undefined }, onClose, () => false);
  return <Text>no assigned copy is highlighted: move the cursor to a started copy in the Shards pane</Text>;
}

function MoveView({
  services,
  opened,
  onClose,
}: {
  services: WizardServices;
  opened: { index: string; shard: number; from: string };
  onClose: () => void;
}) {
  const [state, session] = useSession(() => services.open(moveWizard, opened));
  useDialogKeys(session, onClose, (key) => {
    if (state.phase === 'choose') {
      if (key.is('dialog.nextField')) session.send({ type: 'focus', by: 1 });
      else if (key.is('dialog.prevField')) session.send({ type: 'focus', by: -1 });
      else if (key.is('dialog.submit')) session.send({ type: 'submit' });
      else return false;
      return true;
    }
    if (state.phase !== 'review') return false;
    if (key.is('dialog.confirm')) session.send({ type: 'confirm' });
    else if (key.is('dialog.erase')) session.send({ type: 'back' });
    else return false;
    return true;
  });
  return <MoveScreen state={state} services={services} />;
}

/** The refusing nodes and their deciders' words: cut at the edge beside the choice, whole (wrapped) when nothing else is shown. */
function Refusals({
  targets,
  room,
  whole = false,
}: {
  targets: NonNullable<Extract<MoveState, { phase: 'nothing' }>['targets']>;
  room: number;
  whole?: boolean;
}) {
  const lines = targets.no.flatMap((n) => [
    { text: `${n.node}: ${n.decision}`, tone: 'red' as const },
    ...n.reasons.map((r) => ({ text: `  ${r}`, tone: undefined })),
  ]);
  return (
    <>
      {lines.slice(0, room).map((l, i) => (
        <Text key={i} wrap={whole ? 'wrap' : 'truncate-end'} color={colourOf(l.tone)}>
          {l.text}
        </Text>
      ))}
      {lines.length > room ? <Text dimColor>{`… ${lines.length - room} more lines (shardeck move lists them all)`}</Text> : null}
    </>
  );
}

export function MoveScreen({ state, services }: { state: MoveState; services: WizardServices }) {
  const hint = useHint();
  const { columns } = useTerminalSize();
  if (state.phase === 'loading')
    return <Text>{`asking allocation explain where ${state.opened.index} shard ${state.opened.shard} may go…`}</Text>;
  if (state.phase === 'failed' || state.phase === 'cancelled')
    return <Waiting phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  if (state.phase === 'nothing')
    return (
      <Box flexDirection="column">
        <Text color={colourOf('yellow')} wrap="wrap">{`nothing sent: ${state.message}`}</Text>
        {state.targets ? <Refusals targets={state.targets} room={REFUSALS} whole /> : null}
        <Hint>{CLOSES}</Hint>
      </Box>
    );
  const head = `${state.index} shard ${state.shard} ${state.copy.primary ? 'primary' : 'replica'} on ${state.copy.node ?? '?'}`;
  if (state.phase === 'choose' || state.phase === 'checking')
    return (
      <Box flexDirection="column">
        <Text bold wrap="truncate-end">
          {head}
        </Text>
        <Text>nodes that accept it (allocation explain YES):</Text>
        {state.targets.yes.map((n, i) => (
          <Text key={n} inverse={i === state.choice} color={colourOf('green')} wrap="truncate-end">{`  ${n}`}</Text>
        ))}
        {state.targets.no.length ? <Text>nodes that refuse it:</Text> : null}
        <Refusals targets={state.targets} room={REFUSALS} />
        {state.phase === 'checking' ? (
          <Text>{`checking the move to ${state.targets.yes[state.choice]} (explain, then reroute dry run)…`}</Text>
        ) : (
          <>
            {state.error ? (
              <Text color={colourOf('red')} wrap="wrap">
                {state.error}
              </Text>
            ) : null}
            <Hint>{hint(['dialog.nextField', 'next node'], ['dialog.submit', 'check the move'], ['dialog.close', 'cancel'])}</Hint>
          </>
        )}
      </Box>
    );
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {head}
      </Text>
      {state.phase === 'review' || state.phase === 'applying' ? (
        <>
          <Text color={colourOf('green')}>{`the reroute dry run accepts the move to ${state.ref.to}`}</Text>
          <RequestPreview previews={[services.preview(state.plan)]} />
          {state.phase === 'review' ? (
            <Hint>{hint(['dialog.confirm', 'move'], ['dialog.erase', 'other node'], ['dialog.close', 'cancel'])}</Hint>
          ) : (
            <Text>sending…</Text>
          )}
        </>
      ) : state.phase === 'following' ? (
        <>
          <Results results={[state.result]} />
          <Text>
            <Bar percent={state.percent ?? 0} width={Math.max(10, Math.min(40, columns - 30))} tone="green" />
            {` ${state.percent === null ? '…' : `${state.percent}%`} copied to ${state.ref.to}`}
          </Text>
          <Hint>{hint(['dialog.close', 'stop following (the move goes on)'])}</Hint>
        </>
      ) : (
        <>
          <Results results={[state.result]} />
          {state.result.ok ? (
            <Text color={colourOf(state.started ? 'green' : 'yellow')}>
              {state.started
                ? `started on ${state.ref.to}`
                : `still moving to ${state.ref.to}: it goes on by itself (the Shards pane follows it; the move is not resent)`}
            </Text>
          ) : null}
          <Hint>{CLOSES}</Hint>
        </>
      )}
    </Box>
  );
}
