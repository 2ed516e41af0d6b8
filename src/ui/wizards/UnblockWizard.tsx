// The read-only (flood-stage) block wizard: renders domain/wizards/unblock.ts, sends keys as events.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { formatPercent } from '../../domain/text/format';
import type { WizardServices } from '../../services/wizards';
import { unblockWizard } from '../../services/wizards/unblock';
import { RequestPreview } from '../components/RequestPreview';
import { colourOf } from '../theme';
import { useDialogKeys, useHint } from './dialog-keys';
import { useSession, withServices } from './services';
import { CLOSES, Hint, Notes, Results, Waiting } from './wizard-text';

export const UnblockWizard = withServices(UnblockView);

function UnblockView({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const [state, session] = useSession(() => services.open(unblockWizard));
  const hint = useHint();
  useDialogKeys(session, onClose, (key) => {
    if (state.phase !== 'review') return false;
    if (key.is('dialog.confirm')) session.send({ type: 'confirm', confirmation: { by: 'key' } });
    else if (key.is('unblock.recheck')) session.send({ type: 'reload' });
    else return false;
    return true;
  });
  if (state.phase !== 'review' && state.phase !== 'done')
    return <Waiting phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  const { facts, refusal, plans, notes } = state.review;
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
      {plans?.length && state.phase !== 'done' ? (
        <Text
          bold
        >{`sends to exactly these ${facts.blocked.length} blocked ${facts.blocked.length === 1 ? 'index' : 'indices'}${plans.length > 1 ? ` in ${plans.length} requests` : ''}: ${facts.blocked.join(', ')}`}</Text>
      ) : null}
      {state.phase === 'done' ? (
        <Results results={[state.result]} />
      ) : plans?.length ? (
        <RequestPreview previews={plans.map((p) => services.preview(p))} />
      ) : null}
      <Hint>
        {state.phase === 'done'
          ? CLOSES
          : hint(plans?.length ? ['dialog.confirm', 'send'] : '', ['unblock.recheck', 're-check'], ['dialog.close', 'close'])}
      </Hint>
    </Box>
  );
}
