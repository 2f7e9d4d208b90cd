/** Loads shared/conformance/obsidian-1.9 for the Node-face tests (read-only, never written). */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CachedMetadata, LinkMap } from '../../src/core/metadata';

import { CORPUS_DIR, HAS_SHARED } from '../helpers/shared';

/** One captured note: what Obsidian produced for `filePath`. */
export interface CorpusNote {
	filePath: string;
	fileContents: string;
	cachedMetadata: CachedMetadata;
	resolveLinkToPath: Record<string, string | null>;
}

/** True when the corpus is present (tests skip with a message otherwise). */
export function corpusAvailable(): boolean {
	return HAS_SHARED;
}

/** Every captured note, sorted by file name of the capture. */
export function loadCorpusNotes(): CorpusNote[] {
	return readdirSync(CORPUS_DIR)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => JSON.parse(readFileSync(join(CORPUS_DIR, name), 'utf8')) as CorpusNote);
}

/** Every file of the captured vault (notes and attachments). */
export function loadVaultFiles(): string[] {
	return readFileSync(join(CORPUS_DIR, 'vault-files.txt'), 'utf8')
		.split('\n')
		.filter((line) => line !== '');
}

/** `metadataCache.resolvedLinks` or `unresolvedLinks` as captured. */
export function loadLinkMap(which: 'resolvedLinks' | 'unresolvedLinks'): LinkMap {
	return JSON.parse(readFileSync(join(CORPUS_DIR, 'metadataCache', `${which}.json`), 'utf8')) as LinkMap;
}
