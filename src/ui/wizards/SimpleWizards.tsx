// The read-only block, scroll-limit and unassigned-shard wizards: each renders its machine's state
// (domain/wizards/) and sends keys as events.
import React from 'react';
import { Box, Text } from 'ink';
import { formatPercent } from '../../domain/format';
import { explanationLines, NO_UNASSIGNED } from '../../domain/wizards/allocation';
import { KEEP_ALIVE_NOTE, scrollRows, SCROLL_SETTING } from '../../domain/wizards/scroll';
import { useUi } from '../app/context';
import { useKeyLayer } from '../input/router';
import { colourOf } from '../theme';
import { Hint, Notes, PreviewBox, Results } from './parts';
import type { WizardServices } from '../../services/wizards';
import { useSession, withServices } from './services';

type Sendable = { send(e: { type: 'cancel' }): void };

/** Esc cancels (and closes); any key closes a finished wizard; true when the key was handled. */
function closeKeys(phase: string, name: string, session: Sendable, onClose: () => void): boolean {
  if (phase === 'done' || phase === 'failed' || phase === 'cancelled') {
    onClose();
    return true;
  }
  if (name === 'escape' && phase !== 'applying') {
    session.send({ type: 'cancel' });
    onClose();
    return true;
  }
  return false;
}

function Ending({ phase, message }: { phase: string; message?: string }) {
  if (phase === 'failed') return <Text color={colourOf('red')}>{message}</Text>;
  if (phase === 'cancelled') return <Text>cancelled: nothing was sent</Text>;
  return <Text>{phase === 'applying' ? 'sending…' : 'reading the cluster…'}</Text>;
}

export const UnblockWizard = withServices(UnblockView);

function UnblockView({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const [state, session] = useSession(() => services.unblock());
  useKeyLayer('dialog', (name, input) => {
    if (closeKeys(state.phase, name, session, onClose)) return true;
    if (state.phase === 'review' && input === 'y') session.send({ type: 'confirm', confirmation: { by: 'key' } });
    if (state.phase === 'review' && input === 'r') session.send({ type: 'reload' });
    return true;
  });
  if (state.phase !== 'review' && state.phase !== 'done') return <Ending phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  const { facts, refusal, plan, notes } = state.review;
  return (
    <Box flexDirection="column">
      <Text>{facts.blocked.length ? `blocked: ${facts.blocked.join(', ')}` : 'no index is blocked'}</Text>
      {facts.disks.map((d) => (
        <Text key={d.node} color={colourOf(d.level === 'ok' ? 'green' : d.level === 'low' ? 'yellow' : 'red')}>
          {`${d.node}: ${d.level} ${formatPercent(d.usedPercent, 1)} used (high ${formatPercent(d.marks.high, 1)}, flood ${formatPercent(d.marks.flood, 1)})`}
        </Text>
      ))}
      <Notes notes={notes} />
      {refusal ? <Text color={colourOf('red')}>{`refused: ${refusal}`}</Text> : null}
      {state.phase === 'done' ? <Results results={[state.result]} /> : plan ? <PreviewBox previews={[services.preview(plan)]} /> : null}
      <Hint>{state.phase === 'done' ? 'any key closes' : `${plan ? 'y send · ' : ''}r re-check · Esc close`}</Hint>
    </Box>
  );
}

export const ScrollWizard = withServices(ScrollView);

function ScrollView({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const [state, session] = useSession(() => services.scroll());
  useKeyLayer('dialog', (name, input) => {
    if (closeKeys(state.phase, name, session, onClose)) return true;
    if (state.phase === 'review') {
      if (name === 'return') session.send({ type: 'submit' });
      else if (name === 'backspace') session.send({ type: 'edit', value: state.input.slice(0, -1) });
      else if (/^\d$/.test(input)) session.send({ type: 'edit', value: state.input + input });
    } else if (state.phase === 'confirming') {
      if (input === 'y') session.send({ type: 'confirm', confirmation: { by: 'key' } });
      if (name === 'backspace') session.send({ type: 'back' });
    }
    return true;
  });
  if (state.phase !== 'review' && state.phase !== 'confirming' && state.phase !== 'done')
    return <Ending phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  return (
    <Box flexDirection="column">
      <Text>{`${SCROLL_SETTING}: ${state.facts.limit} per node`}</Text>
      {scrollRows(state.facts).map((r) => (
        <Text key={r.name} color={colourOf(r.full ? 'red' : 'green')}>{`${r.name}: ${r.open} open of ${r.limit} allowed${r.full ? ' (full)' : ''}`}</Text>
      ))}
      <Notes notes={[KEEP_ALIVE_NOTE]} />
      {state.phase === 'review' ? (
        <>
          <Text>{`new limit: ${state.input || '…'}`}</Text>
          {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
          <Hint>type a number · Enter check · Esc close</Hint>
        </>
      ) : state.phase === 'confirming' ? (
        <>
          <PreviewBox previews={[services.preview(state.plan)]} />
          <Hint>y send · Backspace edit · Esc close</Hint>
        </>
      ) : (
        <Results results={[state.result]} />
      )}
    </Box>
  );
}

export const AllocationWizard = withServices(AllocationView);

function AllocationView({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const sel = useUi((s) => s.selection.shards);
  const [state, session] = useSession(() => services.allocation(sel ? { index: sel.index, shard: sel.shard, primary: sel.primary } : undefined));
  useKeyLayer('dialog', (name, input) => {
    if (closeKeys(state.phase, name, session, onClose)) return true;
    if (state.phase === 'explained' && input === 'R') session.send({ type: 'retry' });
    if (state.phase === 'retryReview' && input === 'y') session.send({ type: 'confirm', confirmation: { by: 'key' } });
    return true;
  });
  switch (state.phase) {
    case 'explained':
      return (
        <Box flexDirection="column">
          {(state.explanation ? explanationLines(state.explanation) : [NO_UNASSIGNED]).map((l, i) => (
            <Text key={i} wrap="truncate-end">{l}</Text>
          ))}
          <Hint>{`R retry failed allocations (${state.unassigned} unassigned) · Esc close`}</Hint>
        </Box>
      );
    case 'retryReview':
      return (
        <Box flexDirection="column">
          <PreviewBox previews={[services.preview(state.plan)]} />
          <Hint>y send · Esc close</Hint>
        </Box>
      );
    case 'done':
      return (
        <Box flexDirection="column">
          <Results results={[state.result]} />
          {state.moves.length ? state.moves.map((m) => <Text key={`${m.index}/${m.shard}/${m.primary}/${m.node}`}>{`${m.index} ${m.shard} ${m.primary ? 'p' : 'r'}: ${m.from} -> ${m.to}`}</Text>) : <Text>nothing moved</Text>}
          <Text>{`${state.stillUnassigned} still unassigned`}</Text>
          <Hint>any key closes</Hint>
        </Box>
      );
    default:
      return <Ending phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  }
}
