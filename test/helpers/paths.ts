import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** Our example vault (written by us, committed). */
export const EXAMPLE_VAULT = join(REPO, 'examples', 'vault');
/** Shared read-only test data next to the clone (or VAULT_QUERY_SHARED): real vaults written by other people, never copied into the repo. */
export const SHARED = process.env.VAULT_QUERY_SHARED ?? join(REPO, '..', 'shared');
/** The kepano-obsidian vault (MIT). */
export const KEPANO_VAULT = join(SHARED, 'vaults', 'kepano-obsidian');
/** The Obsidian help vault in 30+ languages (test data only). */
export const HELP_VAULT = join(SHARED, 'vaults', 'obsidian-help-i18n');
