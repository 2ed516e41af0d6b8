// The target of a delete or a force merge, with the platform project behind it when the console
// knows the projects, and what a pattern matched.
import React from 'react';
import { Text } from '../components/Text';
import { describeMatch } from '../../domain/mutation/targets';
import { projectOfTarget } from '../../domain/wizards/delete';
import { useConsole } from '../app/context';

function useProject(target: string): string | undefined {
  const { projects, templateVersion } = useConsole((s) => ({ projects: s.projects, templateVersion: s.templateVersion }));
  return projectOfTarget(target, projects, templateVersion);
}

export function TargetLine({ target, indices }: { target: string; indices?: string[] }) {
  const project = useProject(target);
  const match = indices && (indices.length !== 1 || indices[0] !== target) ? ` · ${describeMatch(indices, 3)}` : '';
  return <Text wrap="truncate-end">{`target ${target}${project ? ` · project ${project}` : ''}${match}`}</Text>;
}

export function ProjectNote({ target }: { target: string }) {
  const project = useProject(target);
  return project ? <Text dimColor>{`platform project: ${project}`}</Text> : null;
}
