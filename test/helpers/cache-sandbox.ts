/**
 * For tests that study the snapshot cache: before each test, a fresh private cache folder and a
 * fresh copy of the example vault; after it, both removed and the environment restored. Notes
 * copied a moment ago would be "racy" (re-read on the next call); these tests study the cache by
 * mtimes, so racy reads are off.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { EXAMPLE_VAULT } from './paths';

/** The current test's cache folder and vault copy (read them inside a test). */
export interface CacheSandbox {
	cache: string;
	vault: string;
}

/** Registers the before/after hooks (see the module comment); `name` tags the temporary folders. */
export function cacheSandbox(name: string): CacheSandbox {
	const sandbox: CacheSandbox = { cache: '', vault: '' };
	let previousCache: string | undefined;
	beforeEach(() => {
		previousCache = process.env.VAULT_QUERY_CACHE_DIR;
		process.env.VAULT_QUERY_RACY_MS = '0';
		sandbox.cache = mkdtempSync(join(tmpdir(), `vq-${name}-cache-`));
		process.env.VAULT_QUERY_CACHE_DIR = sandbox.cache;
		sandbox.vault = join(mkdtempSync(join(tmpdir(), `vq-${name}-vault-`)), 'vault');
		cpSync(EXAMPLE_VAULT, sandbox.vault, { recursive: true });
	});
	afterEach(() => {
		process.env.VAULT_QUERY_CACHE_DIR = previousCache;
		delete process.env.VAULT_QUERY_RACY_MS;
		rmSync(sandbox.cache, { recursive: true, force: true });
		rmSync(join(sandbox.vault, '..'), { recursive: true, force: true });
	});
	return sandbox;
}
