/**
 * Files the engine reads beside notes: Obsidian's config files and side files (a schema note, the
 * synonyms and keyword index notes) by vault path, never outside the vault.
 */
import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { errorCode, readRegularText } from './note-reader';

/** `<vault>/<configDir>/<name>` read fresh from disk, or null when it does not exist; other read errors throw. */
export async function readConfigFileIn(vaultPath: string, configDir: string, name: string): Promise<string | null> {
	// A config file name, never a path: the port must not become a way to read outside the config folder.
	if (name === '' || /[/\\]/.test(name) || name === '.' || name === '..')
		throw new Error(`Not a config file name: ${name}`);
	try {
		return await readRegularText(join(vaultPath, configDir, name));
	} catch (error) {
		const code = errorCode(error);
		if (code === 'ENOENT' || code === 'ENOTDIR') return null;
		throw error;
	}
}

/**
 * A side file by vault path (hidden folders included), or null when absent or a link out of the
 * vault. A path that is absolute or climbs out of the vault is an error: the port reads inside the vault only.
 */
export async function readSideFileIn(vaultPath: string, path: string): Promise<string | null> {
	const parts = path
		.replace(/\\/g, '/')
		.split('/')
		.filter((p) => p !== '' && p !== '.');
	if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || parts.length === 0 || parts.includes('..'))
		throw new Error(`Not a path inside the vault: ${path}`);
	try {
		// The walker's rule for notes: a link that leads out of the vault is not followed, and reads as absent
		// (the same answer as a missing file, so nothing tells whether an outside path exists).
		const real = await realpath(join(vaultPath, ...parts));
		const root = await realpath(vaultPath).catch(() => vaultPath);
		if (real !== root && !real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) return null;
		return (await readRegularText(real)).replace(/^\uFEFF/, '');
	} catch (error) {
		const code = errorCode(error);
		if (code === 'ENOENT' || code === 'ENOTDIR') return null;
		throw error;
	}
}
