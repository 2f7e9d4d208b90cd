import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A digest of every file (path and bytes) under `root`, to prove a vault was not written to. */
export function hashTree(root: string): string {
	const hash = createHash('sha256');
	const walk = (dir: string): void => {
		for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
			const full = join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else {
				hash.update(full.slice(root.length));
				hash.update(readFileSync(full));
			}
		}
	};
	walk(root);
	return hash.digest('hex');
}
