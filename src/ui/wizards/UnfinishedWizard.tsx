// Changes an earlier shardeck left without an answer: renders domain/wizards/unfinished.ts.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import type { WizardServices } from '../../services/wizards';
import { unfinishedWizard } from '../../services/wizards/unfinished';
import { colourOf } from '../theme';
import { useDialogKeys, useHint } from './dialog-keys';
import { useSession, withServices } from './services';
import { CLOSES, Hint, Waiting } from './wizard-text';

export const UnfinishedWizard = withServices(UnfinishedView);

function UnfinishedView({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const [state, session] = useSession(() => services.open(unfinishedWizard));
  const hint = useHint();
  useDialogKeys(session, onClose, (key) => {
    if (state.phase !== 'review' || !state.changes.length || !key.is('dialog.confirm')) return false;
    session.send({ type: 'confirm', confirmation: { by: 'key' } });
    return true;
  });
  if (state.phase !== 'review' && state.phase !== 'done')
    return <Waiting phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  if (state.phase === 'done')
    return (
      <Box flexDirection="column">
        {state.said.map((l, i) => (
          <Text key={i} color={colourOf(/read back: applied|read back: not applied/.test(l) ? 'green' : 'yellow')}>
            {`read back: ${l}`}
          </Text>
        ))}
        <Hint>{CLOSES}</Hint>
      </Box>
    );
  const { changes } = state;
  return (
    <Box flexDirection="column">
      <Text color={colourOf(changes.length ? 'yellow' : 'green')}>
        {changes.length
          ? `${changes.length} change(s) to this cluster were sent by a shardeck that stopped before their answer (killed, a dropped SSH session); whether they were applied is not recorded:`
          : 'no unfinished change: every change shardeck sent to this cluster has its outcome recorded'}
      </Text>
      {changes.map((c, i) => (
        <Text key={i}>{`· ${c}`}</Text>
      ))}
      {changes.length ? <Text dimColor>reading back only reads the cluster and records the outcome: nothing is sent again</Text> : null}
      <Hint>
        {hint(changes.length ? ['dialog.confirm', 'read them back'] : '', [
          'dialog.close',
          changes.length ? 'leave them (asked again next start)' : 'close',
        ])}
      </Hint>
    </Box>
  );
}
