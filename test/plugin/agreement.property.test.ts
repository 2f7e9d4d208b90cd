// @vitest-environment happy-dom
/**
 * Issue 9 "Must show", the plugin face: the random vaults of the cross-operation agreement
 * property (test/helpers/agreement.ts) loaded through the real plugin over the fake app. For
 * every note the title, tags, scope membership, name resolution and backlinks agree between
 * `query`, `search` and `pack` in the plugin, and equal the engine's (the CLI's) answers over the
 * same files — at load, and after random edits arriving as Obsidian's events, against a fresh build.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { engineConfigOf, mergeSettings } from '../../src/ui/plugin-settings';
import {
	AGREEMENT_SETTINGS,
	applyEdits,
	expectAgreement,
	filesOf,
	KEYWORD_INDEX,
	noteSpec,
	views,
} from '../helpers/agreement';
import { MemorySource } from '../helpers/memory-source';
import { FakeApp } from './fake-app';
import { loadPlugin, settle } from './harness';

/** The engine the CLI would build over the same files and settings. */
function engineOver(files: Record<string, string>): VaultEngine {
	const source = new MemorySource(files);
	source.setHidden(KEYWORD_INDEX.path, KEYWORD_INDEX.text);
	return new VaultEngine(source, engineConfigOf(mergeSettings(AGREEMENT_SETTINGS)));
}

describe('cross-operation agreement through the plugin (property)', () => {
	it('the plugin agrees with itself and with the engine over the same vault, at load and after edits', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(noteSpec, { minLength: 1, maxLength: 7 }),
				fc.array(noteSpec, { maxLength: 5 }),
				async (notes, edits) => {
					const files = filesOf(notes);
					const app = new FakeApp(files);
					// A side file in a dot-folder: outside the vault's files, reachable through the adapter by path.
					app.vault.adapter.files.set(KEYWORD_INDEX.path, KEYWORD_INDEX.text);
					const plugin = await loadPlugin(app, AGREEMENT_SETTINGS);
					try {
						app.layoutReady();
						app.indexAll();
						await plugin.engine.searchIndex();
						const loaded = await views(plugin.engine);
						expectAgreement(loaded, expect);
						expect(loaded).toEqual(await views(engineOver(files)));
						// Edits arrive as Obsidian's events; the live index must equal a fresh build.
						applyEdits(edits, files, {
							write: (path, text, existed) => (existed ? app.modify(path, text) : app.create(path, text)),
							remove: (path) => app.delete(path),
						});
						await plugin.engine.engine.settled();
						await settle();
						const edited = await views(plugin.engine);
						expectAgreement(edited, expect);
						expect(edited).toEqual(await views(engineOver(files)));
					} finally {
						plugin.unload();
					}
				},
			),
			{ numRuns: 25 },
		);
	}, 120_000);
});
