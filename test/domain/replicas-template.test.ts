// replicas --template NAME: a template that does not exist, or whose patterns match none of the
// indices changed, stops the change at the form with a clear message (nothing is sent).
import { describe, expect, it } from 'vitest';
import { templateProblem, type ReplicasFacts, type ReplicasForm } from '../../src/domain/wizards/replicas';

const form = (template: string, withTemplate = true): ReplicasForm => ({
  target: 'service_v9_alpha',
  replicas: '1',
  template,
  withTemplate,
});
const facts = (template: ReplicasFacts['template']): ReplicasFacts => ({
  indices: ['service_v9_alpha'],
  before: { service_v9_alpha: 0 },
  dataNodes: 1,
  healthBefore: 'green',
  template,
});

describe('replicas with a template', () => {
  it('refuses a template that does not exist', () => {
    expect(templateProblem(form('service_v7'), facts(null))).toMatch(/index template "service_v7" does not exist: nothing was sent/);
  });

  it('refuses a template whose index patterns match none of the indices', () => {
    expect(templateProblem(form('other'), facts({ index_patterns: ['other-*'] }))).toMatch(
      /index template "other" \(index patterns other-\*\) matches none of/,
    );
    expect(templateProblem(form('other'), facts({ index_patterns: 'logs-*' }))).toMatch(/matches none/);
  });

  it('accepts the template the indices come from, and no template at all', () => {
    expect(templateProblem(form('service_v9'), facts({ index_patterns: ['service_v9_*'] }))).toBeNull();
    expect(templateProblem(form('service_v9', false), facts(undefined))).toBeNull();
  });
});
