// The right-sizing wizard's session (domain/wizards/shrink.ts), driven by the console's wizard and by
// commands/shrink.ts alike: an unfinished run found first, the highlighted index's counts read, the
// expression resolved by the guard and every matched index inspected, then the run (or its resume,
// or its roll back) through services/shrink.ts, each step reported as it goes.
import type { EsApi } from '../../cluster/api';
import { proposeShards, routingShardsOf, targetsFor } from '../../domain/shrink/plan';
import { shrinkMachine, type ShrinkEffect, type ShrinkEvent, type ShrinkForm, type ShrinkState } from '../../domain/wizards/shrink';
import type { Guard } from '../guard';
import { changeTemplate, inspectShrink, newShrinkProgress, readTemplateFacts, runShrink, type ShrinkTuning } from '../shrink';
import { loadShrinkProgress, unfinishedShrink } from '../shrink-left';
import { WizardSession } from './session';

export function shrinkSession(es: EsApi, guard: Guard, initial: Partial<ShrinkForm> = {}, tuning: ShrinkTuning = {}) {
  return new WizardSession<ShrinkState, ShrinkEvent, ShrinkEffect>(shrinkMachine(initial), async (f, send) => {
    const onStep: ShrinkTuning['onStep'] = (e) => {
      tuning.onStep?.(e);
      send({
        type: 'step',
        line: { index: e.index, step: e.step, phase: e.phase, text: e.phase === 'start' ? e.title : (e.message ?? '') },
      });
    };
    switch (f.type) {
      case 'load': {
        const u = await unfinishedShrink(es);
        send({
          type: 'loaded',
          unfinished: u
            ? { line: u.stop ? `${u.line}. ${u.stop}` : u.line, canRollBack: u.canRollBack, confirmText: u.progress.confirmText }
            : null,
        });
        return;
      }
      case 'peek': {
        // Only a single index gets its counts shown: a pattern is judged when the form is submitted.
        const res = await guard.resolveTarget(f.target).catch(() => null);
        if (!res?.ok || res.indices.length !== 1) return send({ type: 'peeked', hint: null });
        const [facts] = await es.shrinkIndexFacts(res.indices[0], res.indices);
        if (!facts) return send({ type: 'peeked', hint: null });
        const routing = routingShardsOf(facts);
        send({
          type: 'peeked',
          hint: {
            index: facts.name,
            shards: facts.shards,
            primaryBytes: facts.primaryBytes,
            targets: targetsFor(initial.mode ?? 'shrink', facts.shards, routing),
            proposed: proposeShards(initial.mode ?? 'shrink', facts.shards, facts.primaryBytes, routing),
          },
        });
        return;
      }
      case 'inspect': {
        const res = await guard.resolveTarget(f.form.target.trim());
        if (!res.ok) return send({ type: 'rejected', message: res.error });
        const name = f.form.template.trim();
        const [i, template] = await Promise.all([
          inspectShrink(es, f.form.target.trim(), res.indices),
          name ? readTemplateFacts(es, name) : Promise.resolve(undefined),
        ]);
        send({
          type: 'inspected',
          indices: i.indices,
          cluster: i.cluster,
          autoCreate: i.autoCreate,
          now: f.now,
          ...(template === undefined ? {} : { template }),
        });
        return;
      }
      case 'run': {
        const uuid = await es.clusterUuid();
        if (loadShrinkProgress(uuid))
          throw new Error(
            'an unfinished right-sizing of this cluster exists: go on with it or roll it back first (shardeck shrink --resume)',
          );
        // The template first: new project indices get the new count from now on, whatever happens to the run.
        const template = f.review.template ? await changeTemplate(guard, f.review.template, f.confirmation, tuning) : undefined;
        if (template && !template.ok) {
          const message = `the template was not changed, so no index was touched: ${template.message}`;
          send({
            type: 'finished',
            report: { ok: false, message, mode: f.review.mode, indices: [], shardsPerNode: [], tookMs: 0, template },
          });
          return;
        }
        const progress = newShrinkProgress(f.review, uuid, guard.previewConnection.url);
        const report = await runShrink(es, guard, progress, f.confirmation, { ...tuning, onStep });
        send({ type: 'finished', report: template ? { ...report, template } : report });
        return;
      }
      case 'resume': {
        const progress = loadShrinkProgress(await es.clusterUuid());
        if (!progress) throw new Error('no unfinished right-sizing of this cluster to go on with');
        send({
          type: 'finished',
          report: await runShrink(es, guard, progress, f.confirmation, { ...tuning, onStep }, f.rollback ? 'rollback' : 'forward'),
        });
        return;
      }
    }
  });
}

/** The console's way to open it: `services.open(shrinkWizard, ...)`. */
export const shrinkWizard = (es: EsApi, guard: Guard, tuning: ShrinkTuning, initial?: Partial<ShrinkForm>) =>
  shrinkSession(es, guard, initial, tuning);
