/**
 * vitest globalSetup: says once, in one line, that the tests needing `../shared` are skipped —
 * or fails the whole run when CI requires them.
 */
import { SHARED_REQUIRED, SHARED_SKIP_REASON } from './shared';

/** Runs once before any test file (once per run: each vitest project calls it). */
export default function setup(): void {
	if (SHARED_SKIP_REASON === null || process.env.VAULT_QUERY_SHARED_CHECKED === '1') return;
	process.env.VAULT_QUERY_SHARED_CHECKED = '1';
	if (SHARED_REQUIRED) throw new Error(`CI=true: tests ${SHARED_SKIP_REASON}`);
	process.stderr.write(
		`vault-query: tests that read real vaults are skipped — ${SHARED_SKIP_REASON} (CI=true makes this a failure, unless VAULT_QUERY_SHARED_ABSENT=1)\n`,
	);
}
