// The command table, in one place: the entry point dispatches from it, and the read-only test
// walks every entry (test/integration/read-only.test.ts), so a new command cannot slip past it.
// Each command is loaded lazily so the bundle's start-up only pays for what runs.
import type { CommandModule } from './support/common';

/** `tui` is the default when no command is given. */
export const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  tui: () => import('./tui').then((m) => m.default),
  status: () => import('./status').then((m) => m.default),
  fleet: () => import('./fleet').then((m) => m.default),
  login: () => import('./login').then((m) => m.default),
  logout: () => import('./logout').then((m) => m.default),
  whoami: () => import('./whoami').then((m) => m.default),
  projects: () => import('./projects').then((m) => m.default),
  profiles: () => import('./profiles').then((m) => m.default),
  replicas: () => import('./replicas').then((m) => m.default),
  unblock: () => import('./unblock').then((m) => m.default),
  'scroll-limit': () => import('./scroll-limit').then((m) => m.default),
  explain: () => import('./explain').then((m) => m.default),
  reroute: () => import('./reroute').then((m) => m.default),
  audit: () => import('./audit').then((m) => m.default),
  'recover-corrupt': () => import('./recover-corrupt').then((m) => m.default),
  'delete-by-query': () => import('./delete-by-query').then((m) => m.default),
  forcemerge: () => import('./forcemerge').then((m) => m.default),
  tasks: () => import('./tasks').then((m) => m.default),
  templates: () => import('./templates').then((m) => m.default),
  nodes: () => import('./nodes').then((m) => m.default),
  snapshots: () => import('./snapshots').then((m) => m.default),
  snapshot: () => import('./snapshot').then((m) => m.default),
  restore: () => import('./restore').then((m) => m.default),
  'component-template': () => import('./component-template').then((m) => m.default),
  mappings: () => import('./mappings').then((m) => m.default),
  settings: () => import('./settings').then((m) => m.default),
  stats: () => import('./stats').then((m) => m.default),
  cat: () => import('./cat').then((m) => m.default),
  help: () => import('./help').then((m) => m.helpCommand(COMMANDS)),
  follow: () => import('./follow').then((m) => m.default),
  incident: () => import('./incident').then((m) => m.default),
  get: () => import('./get').then((m) => m.default),
  search: () => import('./search').then((m) => m.default),
  doctor: () => import('./doctor').then((m) => m.default),
  service: () => import('./service').then((m) => m.default),
  plugin: () => import('./plugin').then((m) => m.default),
};
