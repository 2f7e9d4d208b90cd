/**
 * The trigram build's bound on its garbage (src/warm/garbage-bound.ts): it collects once the memory in
 * use has grown by the allowance since the last collection — not before, not at every look — and
 * never when the process cannot ask for a collection.
 */
import { describe, expect, it } from 'vitest';
import { GarbageBound, type GarbageHost } from '../../src/warm/garbage-bound';
import { notesOf } from '../../src/warm/trigrams';
import { MemorySource } from '../helpers/memory-source';

const MB = 1 << 20;

/** A host whose memory grows by `step` at each look; a collection takes it back to `live`. */
function growing(step: number, live: number, canCollect = true): GarbageHost & { looks: number } {
	let used = live;
	const host = {
		looks: 0,
		used: () => {
			host.looks++;
			used += step;
			return used;
		},
		collect: canCollect
			? () => {
					used = live;
				}
			: undefined,
	};
	return host;
}

describe('the trigram build bounds its garbage', () => {
	it('collects once per allowance of growth', () => {
		const host = growing(10 * MB, 200 * MB);
		const bound = new GarbageBound(host, 96 * MB);
		for (let i = 0; i < 100; i++) bound.check();
		// 10 MB a look: the allowance is passed every tenth look or so, never twice in a row.
		expect(bound.collections).toBeGreaterThanOrEqual(8);
		expect(bound.collections).toBeLessThanOrEqual(11);
	});

	it('does not collect while the growth stays under the allowance', () => {
		const bound = new GarbageBound(growing(MB / 2, 200 * MB), 96 * MB);
		for (let i = 0; i < 100; i++) bound.check();
		expect(bound.collections).toBe(0);
	});

	it('counts from the least in use since its last collection, so garbage collected by V8 lowers the bar', () => {
		// 600 MB in use at the start (garbage of an earlier step), V8 collects it down to 300, then 10 MB a look.
		const sequence = [600, 300, 310, 320, 330, 340, 350, 360, 370, 380, 390, 400, 410].map((n) => n * MB);
		let at = 0;
		let collected = 0;
		const host: GarbageHost = {
			used: () => sequence[Math.min(at++, sequence.length - 1)]!,
			collect: () => collected++,
		};
		const bound = new GarbageBound(host, 96 * MB);
		for (let i = 0; i < 11; i++) bound.check();
		// 300 + 96: collected at 400, long before 600 + 96.
		expect(collected).toBe(1);
		expect(at).toBe(13);
	});

	it('never collects, nor looks, when the process cannot ask for a collection', () => {
		const host = growing(50 * MB, 200 * MB, false);
		const bound = new GarbageBound(host, 96 * MB);
		const looks = host.looks;
		for (let i = 0; i < 100; i++) bound.check();
		expect(bound.collections).toBe(0);
		expect(host.looks).toBe(looks);
	});

	it('collects once every note is read, before the segments are merged, even under the allowance', () => {
		const notes: Record<string, string> = {};
		for (let i = 0; i < 200; i++) notes[`n${i}.md`] = `note ${i}`;
		const bound = new GarbageBound(growing(MB / 2, 200 * MB), 96 * MB);
		const reading = notesOf(new MemorySource(notes), bound);
		let read = 0;
		while (read < 200 && !reading.next().done) read++;
		expect(read).toBe(200);
		expect(bound.collections).toBe(0);
		expect(reading.next().done).toBe(true);
		expect(bound.collections).toBe(1);
	});
});
