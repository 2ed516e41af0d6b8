// Backspace on a wizard's review goes back a step to the form as it was: it never erases a field.
import { describe, expect, it } from 'vitest';
import { replicasMachine } from '../../src/domain/wizards/replicas';
import { forcemergeMachine } from '../../src/domain/wizards/forcemerge';

describe('back from a review', () => {
  it('replicas: to the form with every field kept, nothing sent', () => {
    const m = replicasMachine({ target: 'service_v9_alpha' });
    const form = { target: 'service_v9_alpha', replicas: '2', template: 'service_v9', withTemplate: true };
    const step = m.step({ phase: 'review', form, review: {} as never, focus: 'replicas' } as never, { type: 'back' });
    expect(step.state).toMatchObject({ phase: 'input', form });
    expect(step.effects).toEqual([]);
  });

  it('force merge: to the target as typed, nothing sent', () => {
    const m = forcemergeMachine('service_v9_alpha');
    const step = m.step({ phase: 'review', target: 'service_v9_*', plans: [], refuse: undefined } as never, { type: 'back' });
    expect(step.state).toMatchObject({ phase: 'input', target: 'service_v9_*' });
    expect(step.effects).toEqual([]);
  });
});
