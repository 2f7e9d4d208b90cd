/**
 * Derived, not recorded: link-map rules from shared/OBSIDIAN-METADATA.md exercised on hand-made
 * metadata (positions are irrelevant to the maps, so every link sits at 0:0).
 */
import { describe, expect, it } from 'vitest';
import type { CachedMetadata, LinkCache } from '../../src/core/metadata';
import { buildLinkMaps } from '../../src/node/link-maps';
import { LinkResolver } from '../../src/node/resolver';

const AT = { start: { line: 0, col: 0, offset: 0 }, end: { line: 0, col: 0, offset: 0 } };

/** A body link or embed with only the fields the maps read. */
function link(target: string): LinkCache {
	return { link: target, original: `[[${target}]]`, position: AT };
}

describe('link maps (derived, not recorded)', () => {
	const resolver = new LinkResolver(['A.md', 'B.md', 'folder/C.md', 'files/doc.pdf', 'files/pic.png', 'Empty.md']);
	const notes: [string, CachedMetadata][] = [
		[
			'A.md',
			{
				frontmatterLinks: [{ key: 'related.0', link: 'B', original: '[[B]]' }],
				links: [
					link('B#Heading'),
					link('B'),
					link('#self'),
					link('C'),
					link('Nowhere.md'),
					link('Nowhere#x'),
					link('__proto__'),
				],
				embeds: [link('doc.pdf'), link('pic.png#frame'), link('missing.png')],
			},
		],
		['B.md', { frontmatterLinks: [] }],
		['Empty.md', {}],
	];
	const maps = buildLinkMaps(notes, resolver);

	it('counts frontmatter links, links and embeds by destination', () => {
		expect(maps.resolvedLinks['A.md']).toEqual({
			'B.md': 3,
			'A.md': 1,
			'folder/C.md': 1,
			'files/doc.pdf': 1,
			'files/pic.png': 1,
		});
	});

	it('keys unresolved links by linkpath without subpath or trailing .md', () => {
		expect(maps.unresolvedLinks['A.md']).toEqual({ Nowhere: 2, ['__proto__']: 1, 'missing.png': 1 });
		expect(Object.getPrototypeOf(maps.unresolvedLinks['A.md'])).toBe(Object.prototype);
	});

	it('gives every note an entry, empty when it has no links', () => {
		expect(Object.keys(maps.resolvedLinks)).toEqual(['A.md', 'B.md', 'Empty.md']);
		expect(maps.resolvedLinks['Empty.md']).toEqual({});
		expect(maps.unresolvedLinks['B.md']).toEqual({});
	});
});
