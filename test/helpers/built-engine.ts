/** An engine over notes in memory with its search index built, and a fingerprint per note as a save stamps them. */
import { VaultEngine } from '../../src/core/engine/engine';
import type { SearchIndex } from '../../src/core/search/search-index';
import type { NoteFingerprint } from '../../src/core/snapshot/codec';
import { IndexParts } from '../../src/core/snapshot/index-parts';
import type { SnapshotStore } from '../../src/core/snapshot/port';
import { nodeCodecHost } from '../../src/node/snapshot/codec-host';
import { MemorySource } from './memory-source';

/** The engine over `files` after one search (`query`), its built index and the notes' fingerprints. */
export async function builtEngine(
	files: Record<string, string>,
	query: string,
): Promise<{ engine: VaultEngine; index: SearchIndex; fingerprints: Map<string, NoteFingerprint> }> {
	const engine = new VaultEngine(new MemorySource(files));
	await engine.search(query);
	const fingerprints = new Map(
		Object.keys(files).map((path, i): [string, NoteFingerprint] => [
			path,
			{ size: i, mtimeMs: 1e12 + i, ctimeMs: 1e12, ino: i, racy: false },
		]),
	);
	return { engine, index: engine.builtSearchIndex!, fingerprints };
}

/** The index parts of vault `/vault` (tool `t`) over `store`, stamped with `fingerprints`, building no trigrams. */
export function partsOn(store: SnapshotStore, fingerprints: Map<string, NoteFingerprint>): IndexParts {
	return new IndexParts({
		store,
		host: nodeCodecHost,
		vaultKey: '/vault',
		tool: 't',
		vaultSettings: '{}',
		fingerprints,
		buildTrigrams: false,
	});
}
