// The one line editor and the form events every wizard machine takes: focus moves round the form
// and is kept across phases; a typed key edits whatever text the phase is asking for.
import { describe, expect, it } from 'vitest';
import { DIGITS, editLine } from '../../src/domain/console/line-edit';
import { deleteMachine, type DeleteEvent } from '../../src/domain/wizards/delete';
import { recoveryMachine } from '../../src/domain/wizards/recovery';
import { offeredTemplate, replicasMachine, type ReplicasEvent } from '../../src/domain/wizards/replicas';
import { scrollMachine } from '../../src/domain/wizards/scroll';
import { drive } from '../helpers/machines';

const typed = (text: string) => [...text].map((ch) => ({ type: 'line' as const, edit: { type: 'insert' as const, text: ch } }));
const erase = { type: 'line' as const, edit: { type: 'erase' as const } };

describe('editLine', () => {
  it('inserts, erases the last character, and refuses what `accept` refuses', () => {
    expect(editLine('ab', { type: 'insert', text: 'c' })).toBe('abc');
    expect(editLine('ab', { type: 'erase' })).toBe('a');
    expect(editLine('', { type: 'erase' })).toBe('');
    expect(editLine('12', { type: 'insert', text: 'x' }, DIGITS)).toBe('12');
    expect(editLine('12', { type: 'insert', text: '3' }, DIGITS)).toBe('123');
  });
});

describe('replicas form', () => {
  it('opens on the replicas when the target is given, on the target otherwise', () => {
    expect(drive(replicasMachine({ target: 'a' }), []).state.focus).toBe('replicas');
    expect(drive(replicasMachine(), []).state.focus).toBe('target');
  });

  it('focus moves round the fields both ways; typing edits the focused text field only', () => {
    const events: ReplicasEvent[] = [
      ...typed('2'),
      { type: 'focus', by: 1 },
      ...typed('x'),
      { type: 'change' },
      { type: 'focus', by: -1 },
      { type: 'focus', by: -1 },
      erase,
      ...typed('b'),
    ];
    const { state } = drive(replicasMachine({ target: 'a' }), events);
    // 'a' is no project index: no template is offered.
    expect(state.phase === 'input' && state.form).toEqual({ target: 'b', replicas: '2', template: '', withTemplate: true });
    expect(state.focus).toBe('target');
    // The template's name is visited only once the box is ticked (issue 47 item 9).
    expect(drive(replicasMachine(), [{ type: 'focus', by: -1 }]).state.focus).toBe('withTemplate');
    expect(
      drive(replicasMachine(), [{ type: 'focus', by: 1 }, { type: 'focus', by: 1 }, { type: 'change' }, { type: 'focus', by: 1 }]).state
        .focus,
    ).toBe('template');
  });

  it("issue 47 item 9: a character typed on the box is said, not dropped; the template offered is the index's own", () => {
    const { state } = drive(replicasMachine({ target: 'service_v9_orders' }), [{ type: 'focus', by: 1 }, ...typed('2')]);
    expect(state).toMatchObject({ phase: 'input', focus: 'withTemplate', form: { replicas: '', template: 'service_v9' } });
    expect((state as { error?: string }).error).toMatch(/this box takes Space .* goes in "replicas"/);
    // Space is its toggle, not a typed character.
    const ticked = drive(replicasMachine({ target: 'service_v9_orders' }), [
      { type: 'focus', by: 1 },
      { type: 'change' },
      ...typed(' '),
    ]).state;
    expect(ticked).toMatchObject({ form: { withTemplate: true } });
    expect((ticked as { error?: string }).error).toBeUndefined();
    expect(offeredTemplate('service_v9_orders')).toBe('service_v9');
    expect(offeredTemplate('service_v10_orders', 'v10')).toBe('service_v10');
    expect(offeredTemplate('restored_service_v9_orders')).toBe('');
    expect(offeredTemplate('logs-a')).toBe('');
  });

  it('Space changes nothing in a text field; the focus survives a refused target', () => {
    const { state } = drive(replicasMachine({ target: 'a' }), [
      { type: 'change' },
      ...typed('1'),
      { type: 'submit' },
      { type: 'rejected', message: 'no index matches a' },
    ]);
    expect(state).toMatchObject({
      phase: 'input',
      form: { withTemplate: false, replicas: '1' },
      error: 'no index matches a',
      focus: 'replicas',
    });
  });
});

describe('delete form and review', () => {
  const review: DeleteEvent[] = [
    ...typed('90d'),
    { type: 'submit', now: Date.UTC(2026, 10, 22) },
    { type: 'previewed', indices: ['a'], preview: { matching: 12, indexTotal: 100, samples: [] } },
  ];

  it('a choice changes on Space, text goes to the focused field', () => {
    const { state } = drive(deleteMachine({ target: 'a' }), [
      { type: 'focus', by: -1 },
      { type: 'change' },
      ...typed('z'),
      { type: 'focus', by: 1 },
      ...typed('src-crm'),
    ]);
    expect(state).toMatchObject({ phase: 'input', form: { kind: 'until', value: 'src-crm', target: 'a' }, focus: 'value' });
  });

  it('the count takes digits only; Backspace on an empty count goes back to the form', () => {
    const s = drive(deleteMachine({ target: 'a' }), [...review, ...typed('1x2')]).state;
    expect(s).toMatchObject({ phase: 'review', typed: '12' });
    const back = drive(deleteMachine({ target: 'a' }), [...review, ...typed('1'), erase, erase]).state;
    expect(back).toMatchObject({ phase: 'input', focus: 'value' });
  });

  it('the rethrottle prompt is edited by the same line events', () => {
    const running: DeleteEvent[] = [
      ...review,
      ...typed('12'),
      { type: 'confirm' },
      { type: 'started', task: 'n:1' },
      { type: 'editRate', text: '' },
    ];
    const s = drive(deleteMachine({ target: 'a' }), [...running, ...typed('50'), erase, ...typed('00')]).state;
    expect(s).toMatchObject({ phase: 'running', rate: '500' });
  });
});

describe('scroll limit and recovery confirmation', () => {
  it('the limit takes digits; Backspace on the request goes back to it', () => {
    const loaded = { type: 'loaded' as const, facts: { nodes: [], limit: 500 } };
    expect(drive(scrollMachine(), [loaded, ...typed('1a0'), erase, ...typed('00')]).state).toMatchObject({ phase: 'review', input: '100' });
    expect(drive(scrollMachine(), [loaded, ...typed('1000'), { type: 'submit' }, erase]).state).toMatchObject({
      phase: 'review',
      input: '1000',
    });
  });

  it('the name asked for is typed with line events, and only while it is asked for', () => {
    const step = { n: 5, total: 9, title: 'Repair', commandLines: [], note: '', losesData: true };
    const finding = { index: 'idx', shard: 0, lines: [], options: [], shardTool: false };
    const asking = [
      { type: 'detected' as const, finding },
      { type: 'choose' as const, method: 'checkindex' as const },
      { type: 'announced' as const, step, need: { kind: 'type' as const, expected: 'idx' } },
    ];
    expect(drive(recoveryMachine(), [...asking, ...typed('idy'), erase, ...typed('x')]).state).toMatchObject({
      phase: 'asking',
      typed: 'idx',
    });
    expect(drive(recoveryMachine(), [asking[0], ...typed('idx')]).state.typed).toBe('');
  });
});
