// What a mutation is: the request, its risk and target, the read-back that verifies it, and the
// indices its preview pinned. The rest of domain/mutation/ previews, confirms, checks and audits it
// (services/guard.ts sends it).

export type MutationMethod = 'PUT' | 'POST' | 'DELETE';

export interface MutationRequest {
  method: MutationMethod;
  path: string;
  querystring: Record<string, string>;
  body?: unknown;
}

/** A GET that reads the cluster back after the mutation, and what it should show. */
export interface VerifyCheck {
  path: string;
  querystring: Record<string, string>;
  check(body: unknown): { ok: boolean; message: string };
}

/**
 * reversible: a setting that can be set back (a keypress confirms it).
 * destructive: deletes data or cannot be undone (the operator types the target's name).
 */
export type Risk = 'reversible' | 'destructive';

export interface MutationPlan extends MutationRequest {
  risk: Risk;
  /** What is changed, as the operator names it (index, pattern, template, "cluster settings"). */
  target: string;
  /** One line saying what the mutation does. */
  summary: string;
  /** What the operator types to confirm a destructive plan, when not the target's name (delete-by-query: the document count). */
  confirmText?: string;
  verify?: VerifyCheck;
  /**
   * The concrete indices the preview showed for the operator's expression (pinIndices). The path
   * names exactly these; right before sending, the guard resolves the expression again and refuses
   * when it matches another set, so an index created after the preview is never touched.
   */
  resolved?: ResolvedTarget;
  /** It puts allocation back as a record says (restorePlan): not itself a change to record and put back later. */
  restoresAllocation?: true;
}

export interface ResolvedTarget {
  expression: string;
  indices: string[];
}

export function pathWithQuery(req: Pick<MutationRequest, 'path' | 'querystring'>): string {
  const qs = new URLSearchParams(req.querystring).toString();
  return qs ? `${req.path}?${qs}` : req.path;
}
