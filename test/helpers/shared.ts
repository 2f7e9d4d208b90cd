/**
 * The one place that finds `../shared` (real vaults written by other people and the recorded
 * Obsidian output — read in place, never copied into the repo) and decides what a test that
 * needs it does when it is missing: skip, saying why, on a fresh clone; fail under `CI=true`.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/** `../shared` beside the clone. */
// From the string, not `new URL(...)`: under happy-dom the global URL is not Node's.
export const SHARED_BESIDE_CLONE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared');

/** Where the shared folder is: `VAULT_QUERY_SHARED` when set to a path; unset or empty (`VAULT_QUERY_SHARED=`): beside the clone. */
export function sharedRoot(env: Record<string, string | undefined> = process.env): string {
	const set = env.VAULT_QUERY_SHARED;
	return set !== undefined && set.trim() !== '' ? set : SHARED_BESIDE_CLONE;
}

/** `../shared` beside the clone; `VAULT_QUERY_SHARED` points elsewhere. */
export const SHARED = sharedRoot();
/** The kepano-obsidian vault (MIT). */
export const KEPANO_VAULT = join(SHARED, 'vaults', 'kepano-obsidian');
/** The Obsidian help vault in 30+ languages (test data only). */
export const HELP_VAULT = join(SHARED, 'vaults', 'obsidian-help-i18n');
/** Real Obsidian 1.9 output the Node parser must match. */
export const CORPUS_DIR = join(SHARED, 'conformance', 'obsidian-1.9');

/** Everything the shared tests read; all of it must be there, or none of those tests run. */
const REQUIRED = [KEPANO_VAULT, join(HELP_VAULT, 'zh'), join(CORPUS_DIR, 'vault-files.txt')];

/** The first required path that is missing, or null when `../shared` is complete. */
export const SHARED_MISSING: string | null = REQUIRED.find((path) => !existsSync(path)) ?? null;

/** True when the shared vaults and corpus are present. */
export const HAS_SHARED = SHARED_MISSING === null;

/** Why shared tests are skipped (one line), or null when they run. */
export const SHARED_SKIP_REASON: string | null = HAS_SHARED
	? null
	: `needs ../shared (real vaults, not in the repo): ${SHARED_MISSING} not found; set VAULT_QUERY_SHARED or clone beside shared/`;

/**
 * True when a missing `../shared` must fail the run instead of skipping (CI) — unless the CI says
 * it has no copy of them (`VAULT_QUERY_SHARED_ABSENT=1`, as the GitHub workflow does: the vaults are
 * not in the repository), where the shared tests skip as on a fresh clone.
 */
export const SHARED_REQUIRED =
	(process.env.CI === 'true' || process.env.CI === '1') && process.env.VAULT_QUERY_SHARED_ABSENT !== '1';

/** `describe` for tests that read `../shared`: skipped with the reason in its name when it is missing. */
export function describeShared(name: string, body: () => void): void {
	if (HAS_SHARED || SHARED_REQUIRED) describe(name, body);
	else describe.skip(`${name} (skipped: ${SHARED_SKIP_REASON})`, body);
}

/** `it` for one test that reads `../shared`: skipped with the reason in its name when it is missing. */
export function itShared(name: string, body: () => Promise<void> | void, timeout?: number): void {
	if (HAS_SHARED || SHARED_REQUIRED) it(name, body, timeout);
	else it.skip(`${name} (skipped: ${SHARED_SKIP_REASON})`, body);
}
