/** Walking a vault folder as Obsidian lists it (Node only; the browser bundles' shim throws). */
import { readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** Calls `visit` for every file of `root` Obsidian loads — dot-files and dot-folders left out — in sorted walk order. */
export function walkVault(root: string, visit: (path: string, abs: string, stat: Stats) => void): void {
	const walk = (dir: string, rel: string): void => {
		for (const name of readdirSync(dir).sort()) {
			if (name.startsWith('.')) continue;
			const abs = join(dir, name);
			const stat = statSync(abs);
			if (stat.isDirectory()) walk(abs, `${rel}${name}/`);
			else visit(`${rel}${name}`, abs, stat);
		}
	};
	walk(root, '');
}
