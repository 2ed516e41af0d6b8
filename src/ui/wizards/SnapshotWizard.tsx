// Snapshot wizard (S on the Snapshots pane): the repository (the selected snapshot's, or the first;
// Space goes through the others), the name (shardeck-<UTC time>), the indices (empty: every open
// index but the system ones, each named in the preview) and whether a partial one is accepted;
// then the session of services/wizards/snapshot.ts: the preview, the snapshot followed to its end
// with its progress, its shards ok/failed and every failure's reason.
import React, { useEffect, useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { editLine } from '../../domain/console/line-edit';
import { fitText } from '../../domain/text/table';
import { failureLines, progressLine, snapshotLine, snapshotPercent, type SnapshotRepository } from '../../domain/snapshots';
import { defaultSnapshotName, type SnapshotRequest, type SnapshotState } from '../../domain/wizards/snapshot';
import type { WizardServices } from '../../services/wizards';
import { snapshotWizard } from '../../services/wizards/snapshot';
import { useConsole, useUi } from '../app/context';
import { useTerminalSize } from '../app/terminal';
import { Bar } from '../components/Bar';
import { LineInput } from '../components/LineInput';
import { RequestPreview } from '../components/RequestPreview';
import { colourOf } from '../theme';
import { useDialogKeys, useHint, useLocalForm, type FormEvent } from './dialog-keys';
import { FormRow } from './FormRow';
import { useSession, withServices } from './services';
import { Cancelled, CLOSES, Failed, Hint, Results, useRequestRoom } from './wizard-text';

type CreateRequest = Extract<SnapshotRequest, { kind: 'create' }>;
type Field = 'repository' | 'name' | 'indices' | 'partial';
const FIELDS: Field[] = ['repository', 'name', 'indices', 'partial'];
const LABELS: Record<Field, string> = { repository: 'repository', name: 'name', indices: 'indices', partial: 'partial ok' };
const BAR_WIDTH = 10;

export const SnapshotWizard = withServices(function SnapshotFromPane({
  onClose,
  services,
}: {
  onClose: () => void;
  services: WizardServices;
}) {
  const selected = useUi((s) => s.selection.snapshots?.repository);
  const repos = useConsole((s) => s.snapshots.snapshotRepositories.data) ?? [];
  const [now] = useState(() => Date.now());
  const [req, setReq] = useState<CreateRequest | undefined>();
  // A refusal brings the form back as it was typed, the reason beside its field (issue 47 item 2).
  const [back, setBack] = useState<{ req: CreateRequest; refusal: FormRefusal } | undefined>();
  if (req)
    return (
      <SnapshotRun
        services={services}
        req={req}
        onClose={onClose}
        onRefused={(refusal) => {
          setBack({ req, refusal });
          setReq(undefined);
        }}
      />
    );
  const initial: CreateRequest = back
    ? { ...back.req, indices: back.req.indices ?? '' }
    : { kind: 'create', repository: selected ?? repos[0]?.name ?? '', name: defaultSnapshotName(now), indices: '', wait: true };
  return (
    <SnapshotFormView
      key={back ? 'again' : 'first'}
      initial={initial}
      repos={repos}
      refusal={back?.refusal}
      onSubmit={setReq}
      onClose={onClose}
    />
  );
});

type FormRefusal = Pick<Extract<SnapshotState, { phase: 'refused' }>, 'message' | 'field'>;

type FormStep = { req: CreateRequest; focus: Field };

function snapshotFormStep(s: FormStep, e: FormEvent, repos: readonly SnapshotRepository[]): FormStep {
  if (e.type === 'focus') return { ...s, focus: FIELDS[(FIELDS.indexOf(s.focus) + e.by + FIELDS.length) % FIELDS.length] };
  const r = s.req;
  if (s.focus === 'partial') return e.type === 'change' ? { ...s, req: { ...r, partial: !r.partial } } : s;
  // A repository that exists: Space goes to the next one.
  if (s.focus === 'repository')
    return e.type === 'change' && repos.length
      ? { ...s, req: { ...r, repository: repos[(repos.findIndex((x) => x.name === r.repository) + 1) % repos.length].name } }
      : s;
  if (e.type === 'line') return { ...s, req: { ...r, [s.focus]: editLine(r[s.focus] ?? '', e.edit) } };
  return s;
}

export function SnapshotFormView({
  initial,
  repos,
  refusal,
  onSubmit,
  onClose,
}: {
  initial: CreateRequest;
  repos: readonly SnapshotRepository[];
  refusal?: FormRefusal;
  onSubmit: (req: CreateRequest) => void;
  onClose: () => void;
}) {
  const { req, focus } = useLocalForm<FormStep>(
    { req: initial, focus: refusal?.field ?? 'repository' },
    (s, e) => snapshotFormStep(s, e, repos),
    // Empty indices: every open index but the system ones (the session names them in the preview).
    ({ req: r }) => onSubmit(r.indices ? r : { ...r, indices: undefined }),
    onClose,
  );
  const hint = useHint();
  return (
    <Box flexDirection="column">
      {FIELDS.map((f) => (
        <React.Fragment key={f}>
          <FormRow label={LABELS[f]} width={11} focused={f === focus}>
            {f === 'partial' ? (
              req.partial ? (
                '[x] take what it can when a primary is missing'
              ) : (
                '[ ] refuse when a primary is missing'
              )
            ) : f === 'repository' ? (
              req.repository || 'no repository: shardeck snapshot repo add NAME --location PATH'
            ) : (
              <LineInput value={req[f] ?? ''} placeholder={f === 'indices' ? 'every open index (not system ones)' : '…'} />
            )}
          </FormRow>
          {refusal && (refusal.field ?? 'repository') === f ? <Text color={colourOf('red')}>{`  ${refusal.message}`}</Text> : null}
        </React.Fragment>
      ))}
      <Hint>
        {hint(
          'type to edit',
          ['dialog.nextField', 'next field'],
          ['dialog.change', 'next repository / toggle'],
          ['dialog.submit', 'preview'],
          ['dialog.close', 'close'],
        )}
      </Hint>
    </Box>
  );
}

function SnapshotRun({
  services,
  req,
  onClose,
  onRefused,
}: {
  services: WizardServices;
  req: CreateRequest;
  onClose: () => void;
  onRefused: (r: FormRefusal) => void;
}) {
  const [state, session] = useSession(() => services.open(snapshotWizard, req));
  // Refused before anything was sent: back to the form (an effect: the parent's state, after this render).
  const refused = state.phase === 'refused' ? state : undefined;
  useEffect(() => {
    if (refused) onRefused({ message: refused.message, ...(refused.field ? { field: refused.field } : {}) });
  }, [refused, onRefused]);
  useDialogKeys(session, onClose, (key) => {
    if (session.getState().phase !== 'review' || !key.is('dialog.confirm')) return false;
    session.send({ type: 'confirm', confirmation: { by: 'key' } });
    return true;
  });
  return <SnapshotScreen state={state} req={req} services={services} />;
}

export function SnapshotScreen({ state, req, services }: { state: SnapshotState; req: CreateRequest; services: WizardServices }) {
  const hint = useHint();
  const room = useRequestRoom();
  const { columns } = useTerminalSize();
  const width = Math.max(20, columns - 6);
  switch (state.phase) {
    case 'loading':
      return <Text>{`reading ${req.repository} and the indices to take…`}</Text>;
    case 'refused':
      return (
        <Box flexDirection="column">
          <Text color={colourOf('red')}>{`not taken: ${state.message}`}</Text>
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    case 'review':
    case 'applying':
      return (
        <Box flexDirection="column">
          <RequestPreview previews={[services.preview(state.plan)]} room={room} />
          {state.phase === 'review' ? (
            <Hint>{hint(['dialog.confirm', 'take it'], ['dialog.close', 'cancel'])}</Hint>
          ) : (
            <Text>sending…</Text>
          )}
        </Box>
      );
    case 'following': {
      const p = state.progress;
      const line = p ? progressLine(p) : undefined;
      return (
        <Box flexDirection="column">
          <Results results={[state.result]} />
          {p && line ? (
            <Box>
              <Bar percent={snapshotPercent(p)} width={BAR_WIDTH} tone={line.tone ?? 'yellow'} />
              <Text color={colourOf(line.tone)}> {fitText(line.text, Math.max(1, width - BAR_WIDTH - 3))}</Text>
            </Box>
          ) : (
            <Text>started: waiting for its first progress…</Text>
          )}
          <Text dimColor>it runs on the cluster: followed here to its end (the Snapshots pane shows it too)</Text>
        </Box>
      );
    }
    case 'done': {
      const s = state.snapshot;
      return (
        <Box flexDirection="column">
          <Results results={[state.result]} />
          {s
            ? [snapshotLine(s), ...failureLines(s)].map((l, i) => (
                <Text key={i} color={colourOf(l.tone)}>
                  {fitText(l.text, width)}
                </Text>
              ))
            : null}
          <Hint>{CLOSES}</Hint>
        </Box>
      );
    }
    case 'failed':
      return <Failed message={state.message} />;
    case 'cancelled':
      return <Cancelled />;
  }
}
