/**
 * Recorded: `resolvedLinks` / `unresolvedLinks` rebuilt from the captured notes must equal the
 * vault-wide maps Obsidian 1.9 recorded, entry by entry, for every note the corpus holds (the
 * corpus captured only the `Test Data/` notes of its vault, so only their entries are compared).
 * Then the same with our own parser's metadata (parseNote on the captured fileContents) in place
 * of the recorded one.
 */
import { expect, it } from 'vitest';
import type { CachedMetadata } from '../../src/core/metadata';
import { buildLinkMaps, type LinkMaps } from '../../src/node/link-maps';
import { parseNote } from '../../src/node/parser/index';
import { LinkResolver } from '../../src/node/resolver';
import { describeShared } from '../helpers/shared';
import { corpusAvailable, loadCorpusNotes, loadLinkMap, loadVaultFiles } from './corpus';

/** Compares our maps with the recorded ones for the corpus notes; returns how many entries matched. */
function compareWithRecorded(ours: LinkMaps, sources: readonly string[]): number {
	const recordedResolved = loadLinkMap('resolvedLinks');
	const recordedUnresolved = loadLinkMap('unresolvedLinks');
	let compared = 0;
	for (const source of sources) {
		expect(recordedResolved[source], `recorded resolvedLinks has ${source}`).toBeDefined();
		expect({ source, resolved: ours.resolvedLinks[source] }).toEqual({
			source,
			resolved: recordedResolved[source],
		});
		expect({ source, unresolved: ours.unresolvedLinks[source] }).toEqual({
			source,
			unresolved: recordedUnresolved[source],
		});
		compared += 2;
	}
	return compared;
}

describeShared('link maps conformance (recorded, obsidian-1.9)', () => {
	const notes = corpusAvailable() ? loadCorpusNotes() : [];
	const sources = notes.map((n) => n.filePath);

	// 89 notes × (resolvedLinks entry + unresolvedLinks entry) = 178 entries in the 1.9 capture.
	it(`from the recorded cachedMetadata: ${2 * sources.length} entries for ${sources.length} notes`, () => {
		const resolver = new LinkResolver(loadVaultFiles());
		const maps = buildLinkMaps(
			notes.map((n): [string, CachedMetadata] => [n.filePath, n.cachedMetadata]),
			resolver,
		);
		const compared = compareWithRecorded(maps, sources);
		expect(compared).toBe(2 * sources.length);
		expect(sources.length).toBeGreaterThanOrEqual(89);
	});

	it(`from our parser (src/node/parser): ${2 * sources.length} entries for ${sources.length} notes`, () => {
		const resolver = new LinkResolver(loadVaultFiles());
		const maps = buildLinkMaps(
			notes.map((n): [string, CachedMetadata] => [n.filePath, parseNote(n.fileContents).metadata]),
			resolver,
		);
		const compared = compareWithRecorded(maps, sources);
		expect(compared).toBe(2 * sources.length);
	});
});
