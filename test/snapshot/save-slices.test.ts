/**
 * Encoding the search index for a save runs in steps with bounded work each (the plugin runs them
 * in time slices of Obsidian's main thread; the CLI drains them at once): the steps pause many
 * times for a vault of a few thousand notes, no step does more than a bounded amount of work
 * (terms merged, postings moved, notes, bytes), and the bytes are the ones draining them gives.
 */
import { describe, expect, it } from 'vitest';
import type { NoteFingerprint } from '../../src/core/snapshot/codec';
import { SearchIndex } from '../../src/core/search/search';
import { decodePart, decodePartSteps, encodePart, encodePartSteps } from '../../src/core/snapshot/part-codec';
import type { CodecHost } from '../../src/core/snapshot/port';
import { planReconcile, planReconcileSteps } from '../../src/core/snapshot/reconcile';
import { SECTION_STEP, searchSections, searchSectionsSteps } from '../../src/core/snapshot/search-part';
import { restoreSearchIndex, restoreSearchIndexSteps } from '../../src/core/snapshot/search-part-restore';
import { search } from '../../src/core/search/search';
import { WorkMeter } from '../../src/core/steps';
import { nodeCodecHost } from '../../src/node/snapshot/codec-host';
import { MemorySource } from '../helpers/memory-source';
import { docList } from '../helpers/plain-state';

const NOTES = 2000;

/** A vault of `NOTES` notes over ~30k distinct words, some with frontmatter and aliases. */
function files(): Record<string, string> {
	const out: Record<string, string> = {};
	for (let i = 0; i < NOTES; i++) {
		const words = Array.from({ length: 40 }, (_, k) => `w${((i * 7919 + k * 104_729) % 30_011).toString(36)}`);
		const fm = i % 5 === 0 ? `---\ntags: [t${i % 7}]\naliases: [Alias ${i}]\n---\n` : '';
		out[`folder${i % 13}/note ${i}.md`] = `${fm}# Note ${i}\n\n${words.join(' ')} [[note ${(i + 1) % NOTES}]]\n`;
	}
	return out;
}

/** A fingerprint per note, as a save stamps them. */
function stampsOf(paths: readonly string[]): Map<string, NoteFingerprint> {
	return new Map(paths.map((path, i) => [path, { size: i, mtimeMs: 1e12 + i, ctimeMs: 1e12, ino: 0, racy: false }]));
}

/** Whether two byte arrays are equal (vitest's deep equality takes seconds over megabytes). */
function same(a: Uint8Array, b: Uint8Array): boolean {
	return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

/** Runs `steps` one step at a time; its result and how many times it paused. */
function stepped<T>(steps: Generator<void, T, void>): { value: T; pauses: number } {
	let pauses = 0;
	for (;;) {
		const r = steps.next();
		if (r.done === true) return { value: r.value, pauses };
		pauses++;
	}
}

describe('the restore decoding in steps', () => {
	it('checks at most 16 blocks of 16 kB between two pauses, and restores the index (and plans the reconcile) the synchronous decoding gives', async () => {
		const source = new MemorySource(files());
		const si = await SearchIndex.build(source);
		const paths = source.listNotes();
		// Paths long enough that they span ~40 blocks, as the paths of 50k notes span ~200.
		const stamps = new Map([...stampsOf(paths)].map(([path, fp]) => [`${'deep/'.repeat(60)}${path}`, fp]));
		const bytes = encodePart(
			{ kind: 'search', tool: 't', settings: 's', stamps, sections: searchSections(si, nodeCodecHost) },
			nodeCodecHost,
		);
		let checked = 0;
		let most = 0;
		const counting: CodecHost = {
			...nodeCodecHost,
			checksum: (b) => (checked++, nodeCodecHost.checksum!(b)),
		};
		function* counted<T>(steps: Generator<void, T, void>): Generator<void, T, void> {
			for (;;) {
				const r = steps.next();
				most = Math.max(most, checked);
				checked = 0;
				if (r.done === true) return r.value;
				yield;
			}
		}
		const decoded = stepped(counted(decodePartSteps(bytes, counting)));
		const restored = stepped(counted(restoreSearchIndexSteps(decoded.value, si.settings, counting)));
		expect(decoded.pauses + restored.pauses).toBeGreaterThan(5);
		expect(most).toBeLessThanOrEqual(16 + 1); // the header's own check goes with the first step

		const atOnce = restoreSearchIndex(decodePart(bytes, nodeCodecHost), si.settings, nodeCodecHost);
		for (const query of ['w1a note', 'alias 5', 'note 17']) {
			const [a, b] = [await search(restored.value, query), await search(atOnce, query)];
			expect(a.results.map((h) => h.path)).toEqual(b.results.map((h) => h.path));
		}
		const now = new Map([...stamps].slice(0, NOTES - 3));
		now.set('new.md', { size: 1, mtimeMs: 1, ctimeMs: 1, ino: 0, racy: false });
		const planned = stepped(planReconcileSteps(decoded.value, now));
		expect(planned.pauses).toBeGreaterThan(0);
		expect(planned.value).toEqual(planReconcile(decoded.value, now));
		expect(planned.value.reread).toEqual(['new.md']);
		expect(planned.value.removed).toHaveLength(3);
	});
});

describe('the save encoding in steps', () => {
	it('pauses many times for a few thousand notes, each step bounded, with the bytes of the synchronous encoding', async () => {
		const source = new MemorySource(files());
		const si = await SearchIndex.build(source);
		// Edits leave removed notes and pending postings, so the export compacts in its steps too.
		for (let i = 0; i < NOTES; i += 9) si.index.remove(`folder${i % 13}/note ${i}.md`);
		const meter = new WorkMeter(SECTION_STEP);
		const { value: sections, pauses } = stepped(searchSectionsSteps(si, nodeCodecHost, meter));
		const { terms } = JSON.parse(new TextDecoder().decode(sections.searchMeta)) as { terms: number };
		const postings = sections.postDocs!.length / 4;
		expect(terms).toBeGreaterThan(20_000);
		expect(postings).toBeGreaterThan(50_000);
		// Sorting the terms alone merges every term once per pass (log2 terms passes).
		const sortWork = terms * Math.ceil(Math.log2(terms));
		expect(meter.pauses).toBeGreaterThanOrEqual(Math.floor((sortWork + postings) / SECTION_STEP));
		expect(pauses).toBeGreaterThanOrEqual(meter.pauses);
		expect(pauses).toBeGreaterThan(150);
		// A step ends once SECTION_STEP units are done; one item (a term's postings, a note's record) can overshoot by itself.
		expect(meter.largestSlice()).toBeLessThanOrEqual(SECTION_STEP + NOTES + 1_000);

		// The note paths' list, stringified and encoded a batch of paths at a time: the bytes of one JSON.stringify.
		const paths = docList(si.index.exportState().docs).map((info) => info.path);
		expect(paths.length).toBeGreaterThan(1000);
		expect(same(sections.docPaths!, new TextEncoder().encode(JSON.stringify(paths)))).toBe(true);

		const synchronous = searchSections(si, nodeCodecHost);
		expect(Object.keys(sections)).toEqual(Object.keys(synchronous));
		for (const name of Object.keys(sections)) expect(same(sections[name]!, synchronous[name]!), name).toBe(true);

		const part = { kind: 'search', tool: 't', settings: 's', stamps: stampsOf(source.listNotes()), sections };
		const encoded = stepped(encodePartSteps(part, nodeCodecHost));
		expect(encoded.pauses).toBeGreaterThan(0);
		expect(same(encoded.value, encodePart(part, nodeCodecHost))).toBe(true);
	});
});
