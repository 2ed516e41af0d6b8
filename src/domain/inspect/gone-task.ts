// A task that died with its node (the node restarted while it ran) and stored no result: said the
// same way for every kind (delete-by-query, force merge): gone and not resent, what it did as read
// back now, and what to do. One wording, so an operator reads one sentence whatever the task was.

export interface GoneTask {
  /** The verb of its work: 'delete', 'merge'. */
  verb: string;
  index: string;
  /** When it was sent (the audit's time); empty when the session that sent it tells it. */
  sentAt: string;
  /** What it did, read back from the cluster now. */
  did: string;
  /** Some of its work is left to do. */
  left: boolean;
  /** The command that previews the rest. */
  again: string;
  /** Said when nothing is left. */
  nothingLeft: string;
}

export function goneTaskLines(g: GoneTask): string[] {
  return [
    `the task is gone (the node restarted while it ran)${g.sentAt ? `; its ${g.verb} of ${g.index} was sent at ${g.sentAt}` : ' and stored no result; it was not resent'}`,
    g.did,
    g.left ? `to ${g.verb} the rest, preview again: ${g.again}` : g.nothingLeft,
  ];
}
