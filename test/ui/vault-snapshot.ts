/** Reading a vault folder into a {@link VaultSnapshot} (Node only; the browser harness gets it as JSON). */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { VaultSnapshot } from './ui-app';

/** Every file Obsidian would load (no dot-files or dot-folders), the config folder's files, the Excluded files. */
export function readVault(root: string, configDir = '.obsidian'): VaultSnapshot {
	const files: Record<string, string> = {};
	const mtimes: Record<string, number> = {};
	const walk = (dir: string, rel: string): void => {
		for (const name of readdirSync(dir).sort()) {
			if (name.startsWith('.')) continue;
			const abs = join(dir, name);
			if (statSync(abs).isDirectory()) walk(abs, `${rel}${name}/`);
			else {
				files[`${rel}${name}`] = readFileSync(abs, 'utf8').replace(/^\uFEFF/, '');
				mtimes[`${rel}${name}`] = statSync(abs).mtimeMs;
			}
		}
	};
	walk(root, '');
	const configFiles: Record<string, string> = {};
	const configAbs = join(root, configDir);
	if (existsSync(configAbs)) {
		for (const name of readdirSync(configAbs)) {
			const abs = join(configAbs, name);
			if (statSync(abs).isFile()) configFiles[`${configDir}/${name}`] = readFileSync(abs, 'utf8');
		}
	}
	let userIgnoreFilters: string[] = [];
	const appJson = configFiles[`${configDir}/app.json`];
	if (appJson !== undefined) {
		const parsed: unknown = JSON.parse(appJson);
		const value =
			typeof parsed === 'object' && parsed !== null && 'userIgnoreFilters' in parsed
				? parsed.userIgnoreFilters
				: [];
		userIgnoreFilters = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
	}
	return { files, configFiles, userIgnoreFilters, name: basename(root), mtimes };
}
