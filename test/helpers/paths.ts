import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** Our example vault (written by us, committed). */
export const EXAMPLE_VAULT = join(REPO, 'examples', 'vault');
export { SHARED, KEPANO_VAULT, HELP_VAULT } from './shared';
