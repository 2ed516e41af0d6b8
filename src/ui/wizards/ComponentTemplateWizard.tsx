// Component template that disables a field: renders domain/wizards/component-template.ts and sends
// the operator's keys to it. The index template is prefilled from the Templates pane's selected row.
import React, { useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { platformJsonLines, PLATFORM_TEMPLATES_KEY } from '../../domain/templates';
import {
  COMPONENT_FIELDS,
  DEFAULT_COMPOSE_TEMPLATE,
  PLATFORM_NOTE,
  type ComponentForm,
  type ComponentState,
} from '../../domain/wizards/component-template';
import type { WizardServices } from '../../services/wizards';
import { componentTemplateWizard } from '../../services/wizards/component-template';
import { useUi } from '../app/context';
import { LineInput } from '../components/LineInput';
import { RequestPreview } from '../components/RequestPreview';
import { colourOf } from '../theme';
import { formKeys, useDialogKeys, useHint } from './dialog-keys';
import { FormRow } from './FormRow';
import { useSession, withServices } from './services';
import { Cancelled, CLOSES, Failed, Hint, Notes, Results, useRequestRoom } from './wizard-text';

const LABELS: Record<keyof ComponentForm, string> = {
  name: 'component name',
  field: 'field to disable',
  type: 'field type',
  template: 'index template',
};

export const ComponentTemplateWizard = withServices(function FromSelection({
  onClose,
  services,
}: {
  onClose: () => void;
  services: WizardServices;
}) {
  const sel = useUi((s) => s.selection.templates);
  const template = sel?.kind === 'index' ? sel.template : DEFAULT_COMPOSE_TEMPLATE;
  return <ComponentTemplateView services={services} initial={{ template }} onClose={onClose} />;
});

export function ComponentTemplateView({
  services,
  initial,
  onClose,
}: {
  services: WizardServices;
  initial: Partial<ComponentForm>;
  onClose: () => void;
}) {
  const [state, session] = useSession(() => services.open(componentTemplateWizard, initial));
  const [curl, setCurl] = useState(false);
  useDialogKeys(session, onClose, (key) => {
    if (state.phase === 'input') return formKeys(key, session.send, () => session.send({ type: 'submit' }));
    if (state.phase !== 'review') return false;
    if (key.is('dialog.confirm')) session.send({ type: 'confirm', confirmation: { by: 'key' } });
    else if (key.is('dialog.curl') && state.review.plans.length > 1) setCurl((v) => !v);
    else if (key.is('dialog.erase')) session.send({ type: 'back' });
    else return false;
    return true;
  });
  return <ComponentTemplateScreen state={state} services={services} curl={curl} />;
}

function PlatformValue({ value, title }: { value: Record<string, unknown>; title: string }) {
  return (
    <Box flexDirection="column">
      <Text>{title}</Text>
      {platformJsonLines(value as never).map((l, i) => (
        <Text key={i}>{l}</Text>
      ))}
    </Box>
  );
}

/** `curl`: the review shows the requests' curl lines whole (dialog.curl) in the place of the rest. */
export function ComponentTemplateScreen({
  state,
  services,
  curl = false,
}: {
  state: ComponentState;
  services: WizardServices;
  curl?: boolean;
}) {
  const hint = useHint();
  const room = useRequestRoom();
  switch (state.phase) {
    case 'input':
      return (
        <Box flexDirection="column">
          {COMPONENT_FIELDS.map((f) => (
            <FormRow key={f} label={LABELS[f]} width={18} focused={f === state.focus}>
              <LineInput value={state.form[f]} placeholder="…" />
            </FormRow>
          ))}
          <Text dimColor>new indices keep the field in _source but do not index it (enabled: false)</Text>
          {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
          <Hint>{hint('type to edit', ['dialog.nextField', 'next field'], ['dialog.submit', 'check'], ['dialog.close', 'close'])}</Hint>
        </Box>
      );
    case 'inspecting':
      return <Text>{`reading index template ${state.form.template} and component ${state.form.name}…`}</Text>;
    case 'review':
    case 'applying': {
      const r = state.review;
      // One request is shown whole already: the key is for the component with its template.
      const many = r.plans.length > 1;
      const whole = curl && many && state.phase === 'review';
      return (
        <Box flexDirection="column">
          {whole ? null : <Notes warnings={r.warnings} notes={r.notes.filter((n) => n !== PLATFORM_NOTE)} />}
          <RequestPreview previews={r.plans.map((p) => services.preview(p))} whole={whole} room={whole ? room : undefined} />
          {/* The target's entry only (the whole value is printed when done): the review fits 80x24. */}
          {whole ? null : (
            <Text>{`${PLATFORM_TEMPLATES_KEY} after this: ${JSON.stringify(r.form.template)}: ${JSON.stringify(r.platformJson[r.form.template])}`}</Text>
          )}
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
            <Text>sending…</Text>
          )}
        </Box>
      );
    }
    case 'done': {
      const { report } = state;
      return (
        <Box flexDirection="column">
          <Results results={report.results} />
          {report.newIndex ? (
            <Text
              color={colourOf(report.newIndex.ok ? 'green' : 'red')}
            >{`${report.newIndex.ok ? 'ok' : 'FAILED'}: ${report.newIndex.message}`}</Text>
          ) : null}
          <PlatformValue value={report.platformJson} title={`set ${PLATFORM_TEMPLATES_KEY} to this, then restart the platform services:`} />
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
