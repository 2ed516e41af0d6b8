// Replicas wizard: renders the machine of domain/wizards/replicas.ts and sends the operator's keys
// to it. Target prefilled from the Indices pane's selected row.
import React from 'react';
import { Box, Text } from 'ink';
import { describeMatch } from '../../domain/mutation';
import type { ReplicasEvent, ReplicasForm, ReplicasState } from '../../domain/wizards/replicas';
import type { WizardServices } from '../../services/wizards';
import { useUi } from '../app/context';
import { useKeyLayer } from '../input/router';
import { colourOf } from '../theme';
import { Hint, Notes, PreviewBox, Results } from './parts';
import { useSession, withServices } from './services';

const FIELDS: (keyof ReplicasForm)[] = ['target', 'replicas', 'withTemplate', 'template'];
const LABELS: Record<keyof ReplicasForm, string> = { target: 'index or pattern', replicas: 'replicas', withTemplate: 'also the template', template: 'template name' };

export const ReplicasWizard = withServices(function ReplicasFromSelection({ onClose, services }: { onClose: () => void; services: WizardServices }) {
  const selected = useUi((s) => s.selection.indices?.index);
  return <ReplicasView services={services} initial={{ target: selected ?? '' }} onClose={onClose} />;
});

export function ReplicasView({ services, initial, onClose }: { services: WizardServices; initial: Partial<ReplicasForm>; onClose: () => void }) {
  const [state, session] = useSession(() => services.replicas(initial));
  const [field, setField] = React.useState(initial.target ? 1 : 0);
  const send = (e: ReplicasEvent) => session.send(e);

  useKeyLayer('dialog', (name, input) => {
    if (state.phase === 'done' || state.phase === 'failed' || state.phase === 'cancelled') {
      onClose();
      return true;
    }
    if (name === 'escape') {
      send({ type: 'cancel' });
      if (state.phase !== 'applying' && state.phase !== 'watching') onClose();
      return true;
    }
    if (state.phase === 'review' && input === 'y') {
      send({ type: 'confirm', confirmation: { by: 'key' } });
      return true;
    }
    if (state.phase !== 'input') return true;
    const f = FIELDS[field];
    if (name === 'return') send({ type: 'submit' });
    else if (name === 'tab' || name === 'down') setField((field + 1) % FIELDS.length);
    else if (name === 'shift-tab' || name === 'up') setField((field + FIELDS.length - 1) % FIELDS.length);
    else if (f === 'withTemplate') {
      if (input === ' ') send({ type: 'toggleTemplate' });
    } else if (name === 'backspace') send({ type: 'edit', field: f, value: String(state.form[f]).slice(0, -1) });
    else if (input.length === 1 && input >= ' ') send({ type: 'edit', field: f, value: String(state.form[f]) + input });
    return true;
  });

  return <ReplicasScreen state={state} field={field} services={services} />;
}

export function ReplicasScreen({ state, field, services }: { state: ReplicasState; field: number; services: WizardServices }) {
  switch (state.phase) {
    case 'input':
      return (
        <Box flexDirection="column">
          {FIELDS.map((f, i) => {
            const v = state.form[f];
            const shown = typeof v === 'boolean' ? (v ? '[x]' : '[ ]') : v || '…';
            return <Text key={f} inverse={i === field}>{`${LABELS[f].padEnd(18)} ${shown}`}</Text>;
          })}
          {state.error ? <Text color={colourOf('red')}>{state.error}</Text> : null}
          <Hint>type to edit · Tab next field · Space toggles · Enter check · Esc close</Hint>
        </Box>
      );
    case 'inspecting':
      return <Text>{`checking what ${state.form.target} matches…`}</Text>;
    case 'review':
    case 'applying':
    case 'watching': {
      const r = state.review;
      return (
        <Box flexDirection="column">
          <Text>{`${state.form.target}: ${describeMatch(r.facts.indices)}`}</Text>
          <Text>{`health now ${r.facts.healthBefore}, expected after: ${r.expected}`}</Text>
          <Notes warnings={r.warnings} notes={r.notes} />
          {r.platformJson ? <Text>{`topic.elasticsearch.index-templates-settings: ${JSON.stringify(r.platformJson)}`}</Text> : null}
          <PreviewBox previews={r.plans.map((p) => services.preview(p))} />
          {state.phase === 'review' ? <Hint>y send · Esc cancel</Hint> : <Text>{state.phase === 'applying' ? 'sending…' : `watching health until ${r.expected}…`}</Text>}
        </Box>
      );
    }
    case 'done': {
      const { report } = state;
      return (
        <Box flexDirection="column">
          <Results results={report.results} />
          <Text color={colourOf(report.after!.health)}>{`health ${report.before.health} -> ${report.after!.health}${report.after!.reachedExpected ? '' : ` (expected ${report.expected}: not reached yet)`}`}</Text>
          <Hint>any key closes</Hint>
        </Box>
      );
    }
    case 'failed':
      return (
        <Box flexDirection="column">
          {state.report ? <Results results={state.report.results} /> : null}
          <Text color={colourOf('red')}>{state.message}</Text>
          <Hint>any key closes</Hint>
        </Box>
      );
    case 'cancelled':
      return <Text>cancelled: nothing was sent</Text>;
  }
}
