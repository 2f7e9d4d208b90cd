import { describe, expect, it } from 'vitest';
import { SEGMENT_CHUNK, segmentBounded } from '../../src/core/segment';
import { countWork, expectLinear } from '../helpers/work';
import { termsOf } from '../../src/core/search/tokenize';
import { sentencesOf } from '../../src/core/pack/quotes';

const THAI = 'สวัสดีครับผมชื่อสมชายยินดีที่ได้รู้จัก';
const words = new Intl.Segmenter('th', { granularity: 'word' });
const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/** The segments of one unbounded call, as [text, index] pairs. */
function whole(segmenter: Intl.Segmenter, text: string): [string, number][] {
	return [...segmenter.segment(text)].map((s) => [s.segment, s.index]);
}

describe('segmenting in bounded chunks', () => {
	it('gives the same segments as one call when chunks end inside words and sentences', () => {
		const thai = `${THAI} `.repeat(20);
		const chunked = [...segmentBounded(words, thai, 50)].map((s): [string, number] => [s.segment, s.index]);
		expect(chunked).toEqual(whole(words, thai));
		const english = 'First sentence here. Second one, a bit longer! Third? Fourth sentence ends. '.repeat(30);
		const chunkedSentences = [...segmentBounded(sentences, english, 64)].map((s): [string, number] => [
			s.segment,
			s.index,
		]);
		expect(chunkedSentences).toEqual(whole(sentences, english));
	});

	it('covers a long run without whitespace exactly, in order, whatever the chunk size', () => {
		const thai = THAI.repeat(40);
		const parts = [...segmentBounded(words, thai, 50)];
		expect(parts.map((p) => p.segment).join('')).toBe(thai);
		for (const p of parts) expect(thai.slice(p.index, p.index + p.segment.length)).toBe(p.segment);
	});

	it('cuts a segment longer than a chunk at the chunk end, never inside a surrogate pair', () => {
		const text = '𝒳'.repeat(100);
		const parts = [...segmentBounded(sentences, text, 51)];
		expect(parts.map((p) => p.segment).join('')).toBe(text);
		for (const p of parts) expect(p.segment.length % 2).toBe(0);
		for (const p of parts) expect(text.slice(p.index, p.index + p.segment.length)).toBe(p.segment);
	});

	// ICU's time per character climbs with the length of the text it is handed (a 300k run took
	// minutes in one call): bounded means no call sees more than a chunk, and linear work overall.
	it('indexes a 300k-character Thai run without spaces, a chunk at a time, in linear work', () => {
		const thai = THAI.repeat(Math.ceil(300_000 / THAI.length));
		const { value: terms, work } = countWork(() => termsOf(thai));
		expect(terms.length).toBeGreaterThan(50_000);
		expect(work.longestSegmented).toBeGreaterThan(SEGMENT_CHUNK / 2);
		expect(work.longestSegmented).toBeLessThanOrEqual(SEGMENT_CHUNK);
		expectLinear('a Thai run', (n) => THAI.repeat(n), termsOf, 2000);
	});

	it('splits a 1 MB English paragraph into its sentences, a chunk at a time, in linear work', () => {
		const sentence = 'The pack quotes whole sentences from notes. It never cuts one in half! ';
		const sentencesIn = (para: string) => sentencesOf(para, [{ kind: 'prose', start: 0, end: para.length }]);
		const para = sentence.repeat(14_000);
		const { value: found, work } = countWork(() => sentencesIn(para));
		expect(found.length).toBe(28_000);
		expect(work.longestSegmented).toBeLessThanOrEqual(SEGMENT_CHUNK);
		expectLinear('an English paragraph', (n) => sentence.repeat(n), sentencesIn, 2000);
	});
});
