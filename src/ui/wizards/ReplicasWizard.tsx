// Replicas wizard: renders the machine of domain/wizards/replicas.ts and sends the operator's keys
// to it. Target prefilled from the Indices pane's selected row.
import React, { useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { describeMatch } from '../../domain/mutation/targets';
import { offeredTemplate, replicasFieldsShown, type ReplicasForm, type ReplicasState } from '../../domain/wizards/replicas';
import type { WizardServices } from '../../services/wizards';
import { replicasWizard } from '../../services/wizards/replicas';
import { useConsole } from '../app/context';
import { LineInput } from '../components/LineInput';
import { RequestPreview } from '../components/RequestPreview';
import { colourOf } from '../theme';
import { formKeys, useDialogKeys, useHint } from './dialog-keys';
import { FormRow } from './FormRow';
import { useSession, withServices } from './services';
import { useIndicesTarget } from './marked-target';
import { Cancelled, CLOSES, Failed, Hint, Notes, Results, useRequestRoom } from './wizard-text';

const LABELS: Record<keyof ReplicasForm, string> = {
  target: 'index or pattern',
  replicas: 'replicas',
  withTemplate: 'also the template',
  template: 'template name',
};

export const ReplicasWizard = withServices(function ReplicasFromSelection({
  onClose,
  services,
}: {
  onClose: () => void;
  services: WizardServices;
}) {
  // The marked indices, each named, else the highlighted one.
  const target = useIndicesTarget();
  const templateVersion = useConsole((s) => s.templateVersion);
  return <ReplicasView services={services} initial={{ target, template: offeredTemplate(target, templateVersion) }} onClose={onClose} />;
});

export function ReplicasView({
  services,
  initial,
  onClose,
}: {
  services: WizardServices;
  initial: Partial<ReplicasForm>;
  onClose: () => void;
}) {
  const [state, session] = useSession(() => services.open(replicasWizard, initial));
  const [curl, setCurl] = useState(false);
  useDialogKeys(session, onClose, (key) => {
    if (state.phase === 'input') return formKeys(key, session.send, () => session.send({ type: 'submit' }));
    if (state.phase === 'review' && state.review.plans.length > 1 && key.is('dialog.curl')) return (setCurl((v) => !v), true);
    if (state.phase === 'review' && key.is('dialog.erase')) return (session.send({ type: 'back' }), true);
    if (state.phase !== 'review' || !key.is('dialog.confirm')) return false;
    session.send({ type: 'confirm', confirmation: { by: 'key' } });
    return true;
  });
  return <ReplicasScreen state={state} services={services} curl={curl} />;
}

/** `curl`: the review shows the requests' curl lines whole (dialog.curl) in the place of the facts. */
export function ReplicasScreen({ state, services, curl = false }: { state: ReplicasState; services: WizardServices; curl?: boolean }) {
  const hint = useHint();
  const room = useRequestRoom();
  switch (state.phase) {
    case 'input':
      return (
        <Box flexDirection="column">
          {replicasFieldsShown(state.form).map((f) => {
            const v = state.form[f];
            return (
              <FormRow key={f} label={LABELS[f]} width={18} focused={f === state.focus}>
                {typeof v === 'boolean' ? v ? '[x]' : '[ ]' : <LineInput value={v} placeholder="…" />}
              </FormRow>
            );
          })}
          {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
          <Hint>
            {hint(
              'type to edit',
              ['dialog.nextField', 'next field'],
              ['dialog.change', 'toggles'],
              ['dialog.submit', 'check'],
              ['dialog.close', 'close'],
            )}
          </Hint>
        </Box>
      );
    case 'inspecting':
      return <Text>{`checking what ${state.form.target} matches…`}</Text>;
    case 'review':
    case 'applying':
    case 'watching': {
      const r = state.review;
      // One request is shown whole already: the key is for a change with its template.
      const many = r.plans.length > 1;
      const whole = curl && many && state.phase === 'review';
      return (
        <Box flexDirection="column">
          {whole ? null : (
            <>
              <Text>{`${state.form.target}: ${describeMatch(r.facts.indices)}`}</Text>
              <Text>{`health now ${r.facts.healthBefore}, expected after: ${r.expected}`}</Text>
              <Notes warnings={r.warnings} notes={r.notes} />
              {r.platformJson ? <Text>{`topic.elasticsearch.index-templates-settings: ${JSON.stringify(r.platformJson)}`}</Text> : null}
            </>
          )}
          <RequestPreview previews={r.plans.map((p) => services.preview(p))} whole={whole} room={whole ? room : undefined} />
          {state.phase === 'review' ? (
            <Hint>
              {hint(
                ['dialog.confirm', 'send'],
                ...(many ? [['dialog.curl', whole ? 'review' : 'whole curl'] as const] : []),
                ['dialog.erase', 'edit'],
                ['dialog.close', 'cancel'],
              )}
            </Hint>
          ) : (
            <Text>{state.phase === 'applying' ? 'sending…' : `watching health until ${r.expected}…`}</Text>
          )}
        </Box>
      );
    }
    case 'done': {
      const { report } = state;
      return (
        <Box flexDirection="column">
          <Results results={report.results} />
          <Text
            color={colourOf(report.after!.health)}
          >{`health ${report.before.health} -> ${report.after!.health}${report.after!.reachedExpected ? '' : ` (expected ${report.expected}: not reached yet)`}`}</Text>
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    }
    case 'failed':
      return <Failed results={state.report?.results} message={state.message} />;
    case 'cancelled':
      return <Cancelled />;
  }
}
