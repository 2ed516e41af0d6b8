// The unassigned-shard wizard: explains the selected shard (domain/wizards/allocation.ts), offers
// the retry of failed allocations, sends keys as events.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { explainCommand, explanationLines, explanationRows, NO_UNASSIGNED } from '../../domain/wizards/allocation';
import type { WizardServices } from '../../services/wizards';
import { allocationWizard } from '../../services/wizards/allocation';
import { useUi } from '../app/context';
import { fittedLines, RequestPreview } from '../components/RequestPreview';
import { useTerminalSize } from '../app/terminal';
import { useDialogKeys, useHint } from './dialog-keys';
import { useSession, withServices } from './services';
import { CLOSES, Hint, Results, useRequestRoom, Waiting } from './wizard-text';

export const AllocationWizard = withServices(AllocationView);

function AllocationView({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const sel = useUi((s) => s.selection.shards);
  const [state, session] = useSession(() =>
    services.open(allocationWizard, sel ? { index: sel.index, shard: sel.shard, primary: sel.primary } : undefined),
  );
  const hint = useHint();
  const { columns } = useTerminalSize();
  const room = useRequestRoom();
  useDialogKeys(session, onClose, (key) => {
    if (state.phase === 'explained' && key.is('allocation.retry')) session.send({ type: 'retry' });
    else if (state.phase === 'retryReview' && key.is('dialog.confirm')) session.send({ type: 'confirm', confirmation: { by: 'key' } });
    else return false;
    return true;
  });
  switch (state.phase) {
    case 'explained':
      return (
        <Box flexDirection="column">
          {/* The decider's reason, the answer the operator came for, comes first; a failed
              allocation's stack trace is cut to the screen, never run off it. */}
          {fittedLines(
            explanationRows(state.explanation ? explanationLines(state.explanation) : [NO_UNASSIGNED], columns).map((text) => ({ text })),
            room,
            state.explanation ? `${explainCommand(state.explanation.shard)} prints it whole` : '',
            columns,
          ).map((l, i) => (
            <Text key={i} dimColor={'dim' in l}>
              {l.text}
            </Text>
          ))}
          <Hint>
            {state.failed > 0
              ? hint(
                  ['allocation.retry', `retry the ${state.failed} failed allocation${state.failed === 1 ? '' : 's'}`],
                  ['dialog.close', 'close'],
                )
              : hint('no allocation failed: nothing to retry', ['dialog.close', 'close'])}
          </Hint>
        </Box>
      );
    case 'retryReview':
      return (
        <Box flexDirection="column">
          <RequestPreview previews={[services.preview(state.plan)]} />
          <Hint>{hint(['dialog.confirm', 'send'], ['dialog.close', 'close'])}</Hint>
        </Box>
      );
    case 'done':
      return (
        <Box flexDirection="column">
          <Results results={[state.result]} />
          {state.moves.length ? (
            state.moves.map((m) => (
              <Text
                key={`${m.index}/${m.shard}/${m.primary}/${m.node}`}
              >{`${m.index} ${m.shard} ${m.primary ? 'p' : 'r'}: ${m.from} -> ${m.to}`}</Text>
            ))
          ) : (
            <Text>nothing moved</Text>
          )}
          <Text>{`${state.stillUnassigned} still unassigned`}</Text>
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    default:
      return <Waiting phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  }
}
