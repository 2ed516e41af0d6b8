// The x-ray of one index as the CLI (shardeck xray) and the console (x on the Indices pane) show
// it: the facts read from the node, this user's audit log, one tree (domain/inspect/xray.ts).
import type { EsApi } from '../cluster/api';
import { xrayTree, type XrayFacts, type XrayNode } from '../domain/inspect/xray';
import { readAudit } from './audit';

/** The tree and its facts; null when no index has that name. */
export async function xrayOf(es: EsApi, index: string, templateVersion?: string): Promise<{ tree: XrayNode; facts: XrayFacts } | null> {
  const facts = await es.xray(index);
  if (!facts) return null;
  // The audit log may be unreadable (cut short, moved aside): the tree says so rather than failing.
  let audit: ReturnType<typeof readAudit>['records'] = [];
  let auditProblem: string | undefined;
  try {
    audit = readAudit().records;
  } catch (e) {
    auditProblem = (e as Error).message;
  }
  const tree = xrayTree(facts, { audit, templateVersion });
  if (auditProblem) tree.children = [...(tree.children ?? []), { text: `the audit log was not read: ${auditProblem}`, tone: 'yellow' }];
  return { tree, facts };
}
