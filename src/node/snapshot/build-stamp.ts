/** The tool identity a snapshot and a background server are tied to: the version plus a hash of the built code. */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from './digest';

/**
 * The file whose content identifies the whole build: in the CLI bundle, the entry `cli.mjs` above
 * `chunks/` (esbuild.config.mjs names every chunk by a hash of its content and of the chunks it
 * imports, so the entry's few hundred bytes change whenever any built code does); else the module
 * itself (the sources under tests).
 */
function identifyingFile(moduleFile: string): string {
	const dir = dirname(moduleFile);
	const entry = join(dir, '..', 'cli.mjs');
	return basename(dir) === 'chunks' && existsSync(entry) ? entry : moduleFile;
}

/**
 * `version+hash` of the running build's code: any change of the code — a parser fix without a
 * version bump — invalidates older snapshots, while an identical rebuild, or a copy of the build
 * in another folder, keeps them (a size and modification time did not).
 */
export function buildStamp(version: string, moduleUrl: string = import.meta.url): string {
	try {
		return `${version}+${sha256Hex(readFileSync(identifyingFile(fileURLToPath(moduleUrl)))).slice(0, 16)}`;
	} catch {
		return version;
	}
}
