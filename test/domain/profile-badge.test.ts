// A label and a colour per profile: what may be saved, what a hand-edited file shows, and the
// label at the start of every preview (CLI and console share previewLines).
import { describe, expect, it } from 'vitest';
import { badgeText, colourProblem, labelProblem, profileBadge } from '../../src/domain/console/profile-badge';
import { buildPreview, previewLines } from '../../src/domain/mutation/preview';
import { fleetColumns, fleetDetail, pendingRow } from '../../src/domain/inspect/fleet';
import type { MutationPlan } from '../../src/domain/mutation/plan';

describe('profile label and colour', () => {
  it('takes a short word and one of six colours; anything else is refused with the flag named', () => {
    expect(labelProblem('PROD')).toBeNull();
    expect(labelProblem('eu-west_1.b')).toBeNull();
    expect(labelProblem('A'.repeat(13))).toMatch(/--label "A+" is not a label: up to 12/);
    expect(labelProblem('PR OD')).toMatch(/--label/);
    expect(labelProblem('\u001b[31mX')).toMatch(/--label/);
    expect(labelProblem('')).toMatch(/--label/);
    expect(colourProblem('red')).toBeNull();
    expect(colourProblem('pink')).toBe('--color "pink" is not one of red, yellow, green, blue, magenta, cyan');
  });

  it('a profile has a badge only with a label or when marked production (PROD in red unless told otherwise)', () => {
    expect(profileBadge(undefined)).toBeUndefined();
    expect(profileBadge({})).toBeUndefined();
    expect(profileBadge({ label: 'STAGE', color: 'yellow' })).toEqual({ label: 'STAGE', colour: 'yellow', production: false });
    expect(profileBadge({ label: 'STAGE' })).toEqual({ label: 'STAGE', production: false });
    expect(profileBadge({ production: true })).toEqual({ label: 'PROD', colour: 'red', production: true });
    expect(profileBadge({ production: true, label: 'LIVE', color: 'magenta' })).toEqual({
      label: 'LIVE',
      colour: 'magenta',
      production: true,
    });
    expect(profileBadge({ production: false, label: 'X' })?.production).toBe(false);
  });

  it('what a hand-edited config holds that could not be saved is not drawn (a label is on every screen)', () => {
    expect(profileBadge({ label: '\u001b]52;c;AAAA\u0007' })).toBeUndefined();
    expect(profileBadge({ label: 'OK', color: 'chartreuse' })).toEqual({ label: 'OK', production: false });
    // Production keeps its mark even when its label is refused.
    expect(profileBadge({ label: 'bad label', production: true })?.label).toBe('PROD');
  });

  it('every preview of a labelled profile starts with the label; none without', () => {
    const plan: MutationPlan = {
      method: 'PUT',
      path: '/logs/_settings',
      querystring: {},
      body: { index: { number_of_replicas: 0 } },
      risk: 'reversible',
      target: 'logs',
      summary: 'replicas of logs 1 -> 0',
    };
    const badge = profileBadge({ label: 'PROD', color: 'red' })!;
    const labelled = buildPreview(plan, { url: 'http://n:9200', badge });
    expect(previewLines(labelled)[0]).toBe('[PROD] replicas of logs 1 -> 0');
    expect(labelled.badge).toEqual(badge);
    const plain = buildPreview(plan, { url: 'http://n:9200' });
    expect(previewLines(plain)[0]).toBe('replicas of logs 1 -> 0');
    expect(plain).not.toHaveProperty('badge');
    expect(badgeText(badge)).toBe('[PROD]');
  });

  it('the fleet names a labelled profile with its label, in its colour', () => {
    const row = { ...pendingRow('eu-1', 'http://n:9200'), badge: profileBadge({ label: 'PROD', color: 'red' })! };
    const col = fleetColumns(0)[0];
    expect(col.text(row)).toBe('[PROD] eu-1');
    expect(col.tone?.(row)).toBe('red');
    expect(fleetDetail(row)).toMatch(/^\[PROD\] eu-1: http:\/\/n:9200/);
    expect(col.text(pendingRow('lab', 'http://n:9200'))).toBe('lab');
  });
});
