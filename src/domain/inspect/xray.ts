// X-ray of one index (issue 44 item 5; k9s' xray): one tree from the index to its platform
// project, the index template and each component template that sets one of its settings or
// mapping fields, its aliases, its shards with their nodes and disks, the snapshots holding it,
// the tasks running on it and the changes shardeck made to it (the audit log). Each line has the
// tone of its state. Pure: cluster/xray.ts reads the facts.
import type { IndexAlias } from '../maintenance/aliases';
import type { AuditRecord } from '../mutation/audit';
import type { SnapshotHolding } from '../corruption/explain';
import { displayText } from '../text/display-text';
import { formatAge, formatBytes, formatCount, statusTone, type Tone } from '../text/format';
import { DEFAULT_TEMPLATE_VERSION, projectIdOfIndex } from '../naming';
import { templateOfIndex, type ComponentTemplate, type TemplatesView } from '../templates';
import type { IndexRow, NodeDisk, ShardRow } from '../types';
import type { ClusterTask } from '../parse';

export interface XrayFacts {
  index: string;
  row: IndexRow;
  /** Flat settings (index.number_of_shards: "6"). */
  settings: Record<string, string>;
  /** Top-level mapped fields. */
  fields: string[];
  aliases: IndexAlias[];
  shards: ShardRow[];
  disks: NodeDisk[];
  templates: TemplatesView;
  /** Every task of the cluster: the tree keeps those on this index. */
  tasks: ClusterTask[];
  /** The snapshots holding it, or why they could not be read. */
  snapshots: SnapshotHolding[] | { error: string };
}

export interface XrayNode {
  text: string;
  tone?: Tone;
  children?: XrayNode[];
}

type Json = Record<string, any>;

/** Nested settings as flat keys, each under index. as the index's own settings are. */
function flatSettings(o: Json | undefined, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o ?? {})) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flatSettings(v as Json, key));
    else out[key] = String(v);
  }
  return prefix ? out : Object.fromEntries(Object.entries(out).map(([k, v]) => [k.startsWith('index.') ? k : `index.${k}`, v]));
}

/** What one source (a component, or the template itself) sets that the index has: settings, with the index's value where it differs, and fields. */
function setsLine(what: string, template: Json | undefined, f: XrayFacts): XrayNode {
  const settings = flatSettings(template?.settings);
  const fields = Object.keys((template?.mappings as Json | undefined)?.properties ?? {});
  const shared = Object.keys(settings).filter((k) => k in f.settings);
  const differ = shared.filter((k) => f.settings[k] !== settings[k]);
  const mapped = fields.filter((x) => f.fields.includes(x));
  const parts = [
    ...(shared.length ? [`sets ${shared.map((k) => `${k}=${settings[k]}`).join(', ')}`] : []),
    ...(mapped.length ? [`maps ${mapped.join(', ')}`] : []),
  ];
  const text = `${what}: ${parts.length ? parts.join(' · ') : 'sets nothing this index has'}`;
  const children: XrayNode[] = differ.map((k) => ({
    text: `${k} is ${f.settings[k]} on the index (changed since it was created)`,
    tone: 'yellow',
  }));
  return { text, tone: parts.length ? undefined : 'gray', ...(children.length ? { children } : {}) };
}

function templateNode(f: XrayFacts): XrayNode {
  const t = templateOfIndex(f.templates, f.index);
  if (!t) return { text: 'index template: none matches (settings and mappings are the ones it was created with)', tone: 'gray' };
  const components = new Map<string, ComponentTemplate>(f.templates.components.map((c) => [c.name, c]));
  const children: XrayNode[] = t.composedOf.map((name) => {
    const c = components.get(name);
    if (!c) return { text: `component ${name}: missing (new indices are refused until it exists)`, tone: 'red' };
    return setsLine(`component ${name}`, c.body.template, f);
  });
  children.push(setsLine('its own template block', t.body.template, f));
  const priority = t.priority === null ? '' : `, priority ${t.priority}`;
  return { text: `index template ${t.name} (${t.patterns.join(', ')}${priority})`, children };
}

const shardTone = (s: ShardRow): Tone => (s.state === 'STARTED' ? 'green' : s.state === 'UNASSIGNED' ? 'red' : 'yellow');

function diskText(d: NodeDisk | undefined): { text: string; tone?: Tone } {
  if (!d || !d.totalBytes) return { text: '' };
  const pct = Math.round((d.usedBytes / d.totalBytes) * 100);
  return {
    text: ` · its disk ${pct}% used, ${formatBytes(d.availBytes)} free`,
    tone: pct >= 90 ? 'red' : pct >= 85 ? 'yellow' : undefined,
  };
}

function shardsNode(f: XrayFacts): XrayNode {
  const disks = new Map(f.disks.map((d) => [d.node, d]));
  const sorted = [...f.shards].sort((a, b) => a.shard - b.shard || Number(b.primary) - Number(a.primary));
  const started = sorted.filter((s) => s.state === 'STARTED').length;
  const children = sorted.map((s): XrayNode => {
    const disk = diskText(s.node ? disks.get(s.node) : undefined);
    const where = s.node ? ` on ${s.node}` : s.unassignedReason ? ` (${s.unassignedReason})` : '';
    const size = s.storeBytes === null ? '' : ` ${formatBytes(s.storeBytes)}`;
    const tone = shardTone(s) === 'green' && disk.tone ? disk.tone : shardTone(s);
    return { text: `${s.shard} ${s.primary ? 'primary' : 'replica'} ${s.state}${where}${size}${disk.text}`, tone };
  });
  const allUp = started === sorted.length;
  return {
    text: `shards: ${sorted.length}, ${allUp ? 'all started' : `${sorted.length - started} not started`}`,
    tone: allUp ? 'green' : 'yellow',
    children,
  };
}

function snapshotsNode(f: XrayFacts): XrayNode {
  if (!Array.isArray(f.snapshots)) return { text: `snapshots: not read (${f.snapshots.error})`, tone: 'yellow' };
  if (!f.snapshots.length) return { text: 'snapshots holding it: none (no backup of it in any repository)', tone: 'yellow' };
  return {
    text: `snapshots holding it: ${f.snapshots.length}`,
    tone: 'green',
    children: f.snapshots.map((s) => ({
      text: `${s.repository}/${s.snapshot} ${s.state}${s.endTime ? ` ${s.endTime}` : ''}`,
      tone: s.state === 'SUCCESS' ? 'green' : 'yellow',
    })),
  };
}

/** A task's description names its indices in brackets or as a list ("delete-by-query [logs-1]", "indices[logs-1,b]"). */
export function taskOnIndex(t: ClusterTask, index: string): boolean {
  const escaped = index.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[\\[\\s,])${escaped}($|[\\]\\s,])`).test(t.description);
}

function tasksNode(f: XrayFacts): XrayNode {
  const on = f.tasks.filter((t) => taskOnIndex(t, f.index));
  if (!on.length) return { text: 'tasks on it: none', tone: 'gray' };
  return {
    text: `tasks on it: ${on.length}`,
    tone: 'yellow',
    children: on.map((t) => ({ text: `${t.id} ${t.action} running ${formatAge(t.runningMillis)}${t.cancelled ? ' (cancelled)' : ''}` })),
  };
}

/** The audit records of changes to this index: its name among the targets, or its path first. */
export function auditOfIndex(records: readonly AuditRecord[], index: string): AuditRecord[] {
  return records.filter(
    (r) => r.target.split(',').includes(index) || (r.request !== undefined && r.request.path.split('/')[1] === encodeURIComponent(index)),
  );
}

/** How many of its latest changes the tree shows (shardeck audit shows them all). */
export const XRAY_AUDIT_LINES = 10;

function auditNode(records: readonly AuditRecord[]): XrayNode {
  if (!records.length) return { text: "shardeck's changes to it (audit log): none", tone: 'gray' };
  const last = records.slice(-XRAY_AUDIT_LINES);
  return {
    text: `shardeck's changes to it (audit log): ${records.length}${records.length > last.length ? `, the last ${last.length}` : ''}`,
    children: last.map((r) => {
      const outcome =
        r.outcome === undefined ? 'no answer recorded' : r.outcome.ok ? 'ok' : `failed${r.outcome.error ? `: ${r.outcome.error}` : ''}`;
      return {
        text: `${r.time.slice(0, 19)} ${r.summary} · ${outcome}`,
        tone: r.outcome === undefined ? 'yellow' : r.outcome.ok ? 'green' : 'red',
      };
    }),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The whole tree; `project` names the project when the platform is signed in. */
export function xrayTree(f: XrayFacts, extra: { audit: readonly AuditRecord[]; templateVersion?: string; projectName?: string }): XrayNode {
  const r = f.row;
  const version = extra.templateVersion ?? DEFAULT_TEMPLATE_VERSION;
  const project = projectIdOfIndex(f.index, version);
  return {
    text: `${f.index}  ${r.health} ${r.status} · ${plural(r.primaries, 'shard')}, ${plural(r.replicas, 'replica')} · ${formatCount(r.docsCount)} docs · ${formatBytes(r.storeBytes)}`,
    tone: statusTone(r.health),
    children: [
      project
        ? { text: `project ${project}${extra.projectName ? ` (${extra.projectName})` : ''}` }
        : { text: `project: none (not a service_${version}_<project> index)`, tone: 'gray' },
      templateNode(f),
      f.aliases.length
        ? {
            text: `aliases: ${f.aliases.length}`,
            children: f.aliases.map((a) => ({ text: `${a.name}${a.write ? ' (write index)' : ''}` })),
          }
        : { text: 'aliases: none', tone: 'gray' },
      shardsNode(f),
      snapshotsNode(f),
      tasksNode(f),
      auditNode(auditOfIndex(extra.audit, f.index)),
    ],
  };
}

/** The tree as lines with its branches drawn; every text escaped for the terminal. */
export function xrayLines(root: XrayNode): { text: string; tone?: Tone }[] {
  const out: { text: string; tone?: Tone }[] = [{ text: displayText(root.text), tone: root.tone }];
  const walk = (nodes: XrayNode[], prefix: string) =>
    nodes.forEach((n, i) => {
      const last = i === nodes.length - 1;
      out.push({ text: `${prefix}${last ? '└ ' : '├ '}${displayText(n.text)}`, tone: n.tone });
      if (n.children) walk(n.children, `${prefix}${last ? '  ' : '│ '}`);
    });
  walk(root.children ?? [], '');
  return out;
}
