import { describe, expect, it } from 'vitest';
import { doctorExitCode, sortFindings, type Finding } from '../../../src/domain/doctor/finding';

const f = (id: string, severity: Finding['severity'], family: Finding['family'] = 'disk'): Finding => ({
  id,
  family,
  severity,
  finding: id,
  evidence: [],
});

describe('findings', () => {
  it('worst first, then by family and id', () => {
    expect(
      sortFindings([f('b', 'ok'), f('a', 'warn', 'heap'), f('c', 'critical'), f('d', 'unknown'), f('e', 'warn', 'disk')]).map((x) => x.id),
    ).toEqual(['c', 'e', 'a', 'd', 'b']);
  });

  it('exit 0 all ok (not checked here is no fault), 1 a warning, 2 a critical finding', () => {
    expect(doctorExitCode([f('a', 'ok'), f('b', 'unknown')])).toBe(0);
    expect(doctorExitCode([f('a', 'ok'), f('b', 'warn')])).toBe(1);
    expect(doctorExitCode([f('a', 'critical'), f('b', 'warn')])).toBe(2);
  });
});
