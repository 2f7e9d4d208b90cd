/**
 * Issue 9 "Must show": a cross-operation agreement property. Random small vaults (titles and
 * H1s, tag/tags/aliases spellings, duplicate names in two folders, an excluded folder, a custom
 * links key, a keyword index in a dot-folder) — for every note, the title, tags, scope membership
 * and backlinks are the same through `query`, `search` (hits) and `pack` sources, and after random
 * incremental edits the engine equals a fresh build. The same vaults through the plugin over the
 * fake app: test/plugin/agreement.property.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VaultEngine, type EngineConfig } from '../../src/core/engine/engine';
import {
	AGREEMENT_SETTINGS,
	deletes,
	expectAgreement,
	filesOf,
	KEYWORD_INDEX,
	noteSpec,
	pathOf,
	textOf,
	views,
	type NoteSpec,
} from '../helpers/agreement';
import { MemorySource } from '../helpers/memory-source';

// The keyword index is named explicitly: by default (no profile) a vault has none.
const CONFIG: EngineConfig = {
	settings: { excludedFolders: AGREEMENT_SETTINGS.excludedFolders, linksKey: AGREEMENT_SETTINGS.linksKey },
	search: { keywordIndexPath: AGREEMENT_SETTINGS.keywordIndexPath },
};

function vaultOf(notes: NoteSpec[]): MemorySource {
	const source = new MemorySource(filesOf(notes));
	source.setHidden(KEYWORD_INDEX.path, KEYWORD_INDEX.text);
	return source;
}

describe('cross-operation agreement (property)', () => {
	it('title, tags, scope and backlinks agree through query, search and pack; edits equal a fresh build', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(noteSpec, { minLength: 1, maxLength: 7 }),
				fc.array(noteSpec, { maxLength: 5 }),
				async (notes, edits) => {
					const source = vaultOf(notes);
					const engine = new VaultEngine(source, CONFIG);
					expectAgreement(await views(engine), expect);
					// Incremental edits equal a fresh build.
					for (const e of edits) {
						const path = pathOf(e);
						if (deletes(e, source.listNotes())) {
							source.delete(path);
							await engine.remove(path);
						} else {
							source.set(path, textOf(e));
							await engine.upsert(path);
						}
					}
					expect(await views(engine)).toEqual(await views(new VaultEngine(source, CONFIG)));
				},
			),
			{ numRuns: 40 },
		);
	}, 120_000);
});
