/**
 * Random file changes for property tests of a watched vault: writes, deletes and renames over a
 * pool of paths, applied to a folder and reported as a watcher would report them.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

/** One change to a file of the vault. */
export type FileChange =
	| { op: 'write'; path: string; text: string | Uint8Array }
	| { op: 'delete'; path: string }
	| { op: 'rename'; path: string; to: string };

/** A write, delete or rename of a path from `pool` (a write's text from `text`). */
export function fileChange(pool: readonly string[], text: fc.Arbitrary<string | Uint8Array>): fc.Arbitrary<FileChange> {
	return fc.oneof(
		fc.record({ op: fc.constant('write' as const), path: fc.constantFrom(...pool), text }),
		fc.record({ op: fc.constant('delete' as const), path: fc.constantFrom(...pool) }),
		fc.record({ op: fc.constant('rename' as const), path: fc.constantFrom(...pool), to: fc.constantFrom(...pool) }),
	);
}

/** Apply `burst` under `root` (a rename only when its source exists and its target does not); the paths a watcher reports. */
export function applyFileChanges(root: string, burst: readonly FileChange[]): string[] {
	const reported: string[] = [];
	for (const c of burst) {
		const abs = join(root, c.path);
		if (c.op === 'write') writeFileSync(abs, c.text);
		else if (c.op === 'delete') rmSync(abs, { force: true });
		else if (existsSync(abs) && !existsSync(join(root, c.to))) {
			renameSync(abs, join(root, c.to));
			reported.push(c.to);
		}
		reported.push(c.path);
	}
	return reported;
}
