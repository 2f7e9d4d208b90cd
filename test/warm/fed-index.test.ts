/**
 * A warm session started from an empty cache builds its search index from the one read that parsed
 * each note (core/search/fed-notes.ts): the build reads no note's text again, and the index is
 * byte for byte the one a build over the opened vault makes — Excluded files, excluded folders,
 * the config folder, a broken frontmatter and a note too large to read included. A fed index that
 * does not match the build's notes is dropped for a build afresh. Counted, not timed: the source's
 * reads, and the saved search part's bytes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOL_STAMP } from '../../src/cli/vault';
import { resolveConfig, type EngineConfig } from '../../src/core/engine/config';
import { VaultEngine } from '../../src/core/engine/engine';
import { FedNotes } from '../../src/core/search/fed-notes';
import { SearchIndex } from '../../src/core/search/search-index';
import { searchSections } from '../../src/core/snapshot/search-part';
import { nodeCodecHost } from '../../src/node/snapshot/codec-host';
import { parseNote } from '../../src/node/parser/index';
import { openVault } from '../../src/node/vault-source';
import { warmOpener } from '../../src/warm/opener';
import { VaultSession } from '../../src/warm/session';

const NOTES = 90;

const vault = mkdtempSync(join(tmpdir(), 'vq-warm-fed-'));
afterAll(() => rmSync(vault, { recursive: true, force: true }));

/** Notes in three folders (one excluded by Excluded files, one by the engine's settings), one with broken frontmatter, one too large. */
function makeVault(): void {
	mkdirSync(join(vault, '.obsidian'), { recursive: true });
	writeFileSync(join(vault, '.obsidian', 'app.json'), JSON.stringify({ userIgnoreFilters: ['ignored/'] }));
	writeFileSync(join(vault, '.obsidian', 'inside.md'), '# In the config folder\n\nzebras\n');
	for (let i = 0; i < NOTES; i++) {
		const folder = ['kept', 'ignored', 'archive'][i % 3]!;
		mkdirSync(join(vault, folder), { recursive: true });
		const frontmatter =
			i === 3 ? '---\nstatus: [open\n---\n' : `---\nstatus: s${i % 2}\naliases: [Alias ${i}]\n---\n`;
		const body =
			i === 6 ? 'x'.repeat(3000) : `# Note ${i}\n\nZebras ${i % 4 ? 'and okapis' : 'only'}. #t${i % 5}\n`;
		writeFileSync(join(vault, folder, `n${i}.md`), `${frontmatter}${body}\n[[n${(i + 1) % NOTES}]]\n`);
	}
}

/** The search index's saved sections, as bytes. */
function sectionsOf(index: SearchIndex): Record<string, Uint8Array> {
	return searchSections(index, nodeCodecHost);
}

describe('the search index of a start from scratch', () => {
	it('is fed by the read that parsed each note: no note read again, the same bytes as a build', async () => {
		makeVault();
		process.env.VAULT_QUERY_RACY_MS = '0';
		const config: EngineConfig = { settings: { excludedFolders: ['archive'] } };
		const bounds = { parse: parseNote, maxFileSize: 2000 };
		const session = await VaultSession.start(
			warmOpener(vault, bounds, false, TOOL_STAMP, () => undefined),
			config,
		);
		const { source, engine } = await session.current();
		let reads = 0;
		const read = source.read.bind(source);
		source.read = (path) => (reads++, read(path));
		const fed = await engine.searchIndex();
		expect(reads).toBe(0);
		// The same index a build over the opened vault makes, which reads every note in scope again.
		const built = await SearchIndex.build(source, resolveConfig(config).search);
		expect(reads).toBeGreaterThan(NOTES / 3 - 2);
		expect(fed.size).toBe(built.size);
		expect(fed.skipped.map((s) => s.path)).toEqual(['kept/n3.md', 'kept/n6.md']);
		expect(fed.skipped).toEqual(built.skipped);
		expect(fed.exclusions).toEqual(built.exclusions);
		expect(sectionsOf(fed)).toEqual(sectionsOf(built));
		// And what a read of the whole vault answers.
		const fresh = await SearchIndex.build(await openVault(vault, bounds), resolveConfig(config).search);
		expect(sectionsOf(fed)).toEqual(sectionsOf(fresh));
		const reference = new VaultEngine(await openVault(vault, bounds), config);
		expect(await engine.search('zebras okapis')).toEqual(await reference.search('zebras okapis'));
		delete process.env.VAULT_QUERY_RACY_MS;
	});

	it('is built afresh when the notes fed are not the ones the build indexes, or were fed for other settings', async () => {
		makeVault();
		const source = await openVault(vault, { parse: parseNote });
		const settings = resolveConfig({}).search;
		const expected = sectionsOf(await SearchIndex.build(source, settings));
		/** An index fed `paths` in this order, as a read would. */
		const fedWith = async (paths: readonly string[]): Promise<FedNotes> => {
			const fed = new FedNotes(settings);
			fed.scope(source);
			for (const path of paths) {
				const text = await source.read(path).catch(() => null);
				fed.offer(path, text, source.getMetadata(path), source.getSkipReason(path));
			}
			return fed;
		};
		// Fed in reverse order: the build meets another note first.
		const reversed = await fedWith([...source.listNotes()].reverse());
		expect(sectionsOf(await SearchIndex.build(source, settings, { fed: reversed }))).toEqual(expected);
		// Fed one note too few.
		const short = await fedWith(source.listNotes().slice(1));
		expect(sectionsOf(await SearchIndex.build(source, settings, { fed: short }))).toEqual(expected);
		// And fed as a read would: taken, and the same bytes.
		expect(
			sectionsOf(await SearchIndex.build(source, settings, { fed: await fedWith(source.listNotes()) })),
		).toEqual(expected);
		// Fed for other settings: not taken (nothing was fed, so taking it would index nothing).
		const other = new FedNotes({ ...settings, excludedFolders: ['kept'] });
		expect(sectionsOf(await SearchIndex.build(source, settings, { fed: other }))).toEqual(expected);
	});
});
