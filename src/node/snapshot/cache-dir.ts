/**
 * Where snapshots live: the user's cache directory, never the vault. `VAULT_QUERY_CACHE_DIR`
 * overrides it (tests, CI, a machine with a fast disk elsewhere).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from './sha256';

/** The environment variable that overrides the cache folder. */
export const CACHE_DIR_ENV = 'VAULT_QUERY_CACHE_DIR';

/**
 * The cache folder for this platform: `$XDG_CACHE_HOME/vault-query` or `~/.cache/vault-query`
 * (Linux and other Unixes), `~/Library/Caches/vault-query` (macOS), `%LOCALAPPDATA%\vault-query\Cache`
 * (Windows); `VAULT_QUERY_CACHE_DIR` wins everywhere.
 */
export function cacheDir(
	env: Record<string, string | undefined> = process.env,
	platform: string = process.platform,
	home: string = homedir(),
): string {
	const override = env[CACHE_DIR_ENV];
	if (override !== undefined && override !== '') return override;
	if (platform === 'darwin') return join(home, 'Library', 'Caches', 'vault-query');
	if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'vault-query', 'Cache');
	const xdg = env.XDG_CACHE_HOME;
	return join(xdg !== undefined && xdg !== '' ? xdg : join(home, '.cache'), 'vault-query');
}

/** The file name of a vault's snapshot: a hash of its real path, so names never leak folder names. */
export function snapshotFileName(vaultRealPath: string): string {
	return `${sha256Hex(vaultRealPath).slice(0, 32)}.vqs`;
}
