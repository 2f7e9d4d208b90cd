/** The tool identity a snapshot is tied to: the version plus the running build's size and mtime. */
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * `version+size.mtime` of the running bundle (or source file under tests): any rebuild — a
 * parser fix without a version bump — invalidates older snapshots, at the price of one stat.
 */
export function buildStamp(version: string, moduleUrl: string = import.meta.url): string {
	try {
		const s = statSync(fileURLToPath(moduleUrl));
		return `${version}+${s.size}.${Math.floor(s.mtimeMs)}`;
	} catch {
		return version;
	}
}
