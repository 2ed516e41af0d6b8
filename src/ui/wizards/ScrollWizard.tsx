// The scroll-contexts wizard: renders domain/wizards/scroll.ts, sends keys as events.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { KEEP_ALIVE_NOTE, scrollRows, SCROLL_SETTING } from '../../domain/wizards/scroll';
import type { WizardServices } from '../../services/wizards';
import { scrollWizard } from '../../services/wizards/scroll';
import { LineInput } from '../components/LineInput';
import { RequestPreview } from '../components/RequestPreview';
import { colourOf } from '../theme';
import { lineKeys, useDialogKeys, useHint } from './dialog-keys';
import { useSession, withServices } from './services';
import { Hint, Notes, Results, Waiting } from './wizard-text';

export const ScrollWizard = withServices(ScrollView);

function ScrollView({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const [state, session] = useSession(() => services.open(scrollWizard));
  const hint = useHint();
  useDialogKeys(session, onClose, (key) => {
    if (state.phase === 'review') return lineKeys(key, session.send);
    if (state.phase === 'confirming') {
      if (key.is('dialog.confirm')) session.send({ type: 'confirm', confirmation: { by: 'key' } });
      else if (key.is('dialog.erase')) session.send({ type: 'back' });
      else return false;
      return true;
    }
    return false;
  });
  if (state.phase !== 'review' && state.phase !== 'confirming' && state.phase !== 'done')
    return <Waiting phase={state.phase} message={state.phase === 'failed' ? state.message : undefined} />;
  return (
    <Box flexDirection="column">
      <Text>{`${SCROLL_SETTING}: ${state.facts.limit} per node`}</Text>
      {scrollRows(state.facts).map((r) => (
        <Text
          key={r.name}
          color={colourOf(r.full ? 'red' : 'green')}
        >{`${r.name}: ${r.open} open of ${r.limit} allowed${r.full ? ' (full)' : ''}`}</Text>
      ))}
      <Notes notes={[KEEP_ALIVE_NOTE]} />
      {state.phase === 'review' ? (
        <>
          <Text>
            {'new limit: '}
            <LineInput value={state.input} placeholder="…" />
          </Text>
          {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
          <Hint>{hint('type a number', ['dialog.submit', 'check'], ['dialog.close', 'close'])}</Hint>
        </>
      ) : state.phase === 'confirming' ? (
        <>
          <RequestPreview previews={[services.preview(state.plan)]} />
          <Hint>{hint(['dialog.confirm', 'send'], ['dialog.erase', 'edit'], ['dialog.close', 'close'])}</Hint>
        </>
      ) : (
        <Results results={[state.result]} />
      )}
    </Box>
  );
}
