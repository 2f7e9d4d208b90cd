/**
 * A search's hits find their backlinks with `LinkGraph.linkersOfEach` — one pass over the link
 * maps for the hits' paths, not an inversion of every link of the vault. Property: for random
 * vaults (body links, `[[…]]` properties, bare names in the `links:` field, self-links, links to
 * attachments) and random targets, each list equals what the full inversion (`linkingMap`) gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinkGraph } from '../../src/core/link-graph';
import { MemorySource } from '../helpers/memory-source';

const NAMES = ['a', 'b', 'c', 'sub/d', 'sub/a', 'e'];
const TARGETS = [...NAMES.map((n) => `${n}.md`), 'pic.png', 'missing.md'];

const note = fc
	.record({
		body: fc.array(fc.constantFrom(...NAMES, 'pic.png', 'missing'), { maxLength: 4 }),
		up: fc.option(fc.constantFrom(...NAMES, 'missing'), { nil: undefined }),
		field: fc.array(fc.constantFrom(...NAMES, 'missing', 'not a note'), { maxLength: 3 }),
	})
	.map(({ body, up, field }) => {
		const front: string[] = [];
		if (up !== undefined) front.push(`up: "[[${up}]]"`);
		if (field.length > 0) front.push(`links: [${field.map((f) => JSON.stringify(f)).join(', ')}]`);
		const yaml = front.length > 0 ? `---\n${front.join('\n')}\n---\n` : '';
		return `${yaml}# Note\n\n${body.map((l) => `[[${l}]]`).join(' ')}\n`;
	});

describe('linkers of a few targets without inverting the link maps', () => {
	it('gives each target the notes the full inversion gives, in scope order', () => {
		fc.assert(
			fc.property(
				fc.dictionary(fc.constantFrom(...NAMES), note, { minKeys: 1 }),
				fc.array(fc.constantFrom(...TARGETS), { maxLength: 6 }),
				fc.boolean(),
				(texts, targets, withHolders) => {
					const files: Record<string, string> = { 'pic.png': 'PNG' };
					for (const [name, text] of Object.entries(texts)) files[`${name}.md`] = text;
					const source = new MemorySource(files);
					const notes = [...source.listNotes()].reverse(); // any scope order
					const holders = (): string[] => notes.filter((p) => /^links:/m.test(files[p] ?? ''));
					const each = new LinkGraph(source, notes, 'links', withHolders ? holders : undefined).linkersOfEach(
						targets,
					);
					const inverted = new LinkGraph(source, notes, 'links').linkingMap();
					for (const target of targets) expect(each.get(target)).toEqual(inverted.get(target) ?? []);
				},
			),
			{ numRuns: 200 },
		);
	});
});
