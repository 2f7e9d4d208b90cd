/**
 * Recorded: every `resolveLinkToPath` entry captured in Obsidian 1.9 must come out of our
 * resolver unchanged, with the captured vault's whole file list as input.
 */
import { expect, it } from 'vitest';
import { LinkResolver } from '../../src/node/resolver';
import { parseLinktext } from '../../src/core/obsidian-rules';
import { describeShared } from '../helpers/shared';
import { corpusAvailable, loadCorpusNotes, loadVaultFiles } from './corpus';

describeShared('resolver conformance (recorded, obsidian-1.9)', () => {
	const notes = corpusAvailable() ? loadCorpusNotes() : [];
	const resolver = new LinkResolver(corpusAvailable() ? loadVaultFiles() : []);
	const cases = notes.flatMap((note) =>
		Object.entries(note.resolveLinkToPath).map(([linktext, expected]) => ({
			source: note.filePath,
			linktext,
			expected,
		})),
	);

	it('has entries to compare', () => {
		// 60 entries in the 1.9 capture; a smaller number means the corpus was cut.
		expect(cases.length).toBeGreaterThanOrEqual(60);
	});

	it.each(cases)('$source: $linktext', ({ source, linktext, expected }) => {
		expect(resolver.getFirstLinkpathDest(parseLinktext(linktext).path, source)).toBe(expected);
	});
});
