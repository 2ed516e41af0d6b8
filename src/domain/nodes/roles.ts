// Node roles as Elasticsearch names them and as `_cat/nodes` abbreviates them (one letter each,
// sorted: "cdfhilmrstw"), the short form the panes and the doctor show.

/** Role -> its letter (DiscoveryNodeRole's abbreviations in 8.x). */
const ROLE_LETTER: Record<string, string> = {
  master: 'm',
  data: 'd',
  data_hot: 'h',
  data_warm: 'w',
  data_cold: 'c',
  data_frozen: 'f',
  data_content: 's',
  ingest: 'i',
  ml: 'l',
  remote_cluster_client: 'r',
  transform: 't',
  voting_only: 'v',
};

const LETTER_ROLE = Object.fromEntries(Object.entries(ROLE_LETTER).map(([role, letter]) => [letter, role]));

/** The roles' letters, sorted as `_cat/nodes` prints them; "-" for a coordinating-only node. A role 8.x does not name here is left out. */
export function lettersOfRoles(roles: readonly string[]): string {
  const letters = roles.flatMap((r) => (ROLE_LETTER[r] ? [ROLE_LETTER[r]] : [])).sort();
  return letters.length ? letters.join('') : '-';
}

/** Role letters as words: "master, data_hot, ingest" ("coordinating only" for none). */
export function roleLetters(letters: string): string {
  if (!letters || letters === '-') return 'coordinating only';
  return [...letters].map((c) => LETTER_ROLE[c] ?? c).join(', ');
}
