import { defineConfig } from 'vitest/config';
import base from './vitest.config';

// Stryker (npm run test:mutation) runs only the unit project: pure, fast, no Elasticsearch node.
// Taken from vitest.config.ts, not copied, so both runs see the same includes and env.
type Project = { test?: { name?: string } };
const projects = (base.test?.projects ?? []) as Project[];

export default defineConfig({
  test: { projects: projects.filter((p) => p.test?.name === 'unit') as never },
});
