// Put back what shardeck left of an allocation change: renders domain/wizards/allocation-restore.ts.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import type { WizardServices } from '../../services/wizards';
import { allocationRestoreWizard } from '../../services/wizards/allocation-restore';
import { RequestPreview } from '../components/RequestPreview';
import { colourOf } from '../theme';
import { useDialogKeys, useHint } from './dialog-keys';
import { useSession, withServices } from './services';
import { CLOSES, Hint, Results, Waiting } from './wizard-text';

export const AllocationRestoreWizard = withServices(AllocationRestoreView);

function AllocationRestoreView({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const [state, session] = useSession(() => services.open(allocationRestoreWizard));
  const hint = useHint();
  useDialogKeys(session, onClose, (key) => {
    if (state.phase !== 'review' || !state.facts.plan || !key.is('dialog.confirm')) return false;
    session.send({ type: 'confirm', confirmation: { by: 'key' } });
    return true;
  });
  if (state.phase !== 'review' && state.phase !== 'done')
    return <Waiting phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  const { message, plan } = state.facts;
  return (
    <Box flexDirection="column">
      <Text color={colourOf(message ? 'yellow' : 'green')}>
        {message ?? 'nothing to put back: shardeck left no allocation setting changed here'}
      </Text>
      {state.phase === 'done' ? <Results results={[state.result]} /> : plan ? <RequestPreview previews={[services.preview(plan)]} /> : null}
      <Hint>
        {state.phase === 'done'
          ? CLOSES
          : hint(plan ? ['dialog.confirm', 'put it back'] : '', ['dialog.close', plan ? 'leave it (asked again next start)' : 'close'])}
      </Hint>
    </Box>
  );
}
