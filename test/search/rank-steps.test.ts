/**
 * The ranking as steps: a host's main thread runs it in slices, so two searches can be in their
 * rankings at once, and an edit can land while one is paused. Each ranking has its own scratch (the
 * per-note arrays it sums in), so interleaved rankings answer exactly what each answers alone; one
 * whose index changed during a pause starts again (without pausing) and answers as the changed index does; one
 * abandoned half-way (a saved index's bytes not loaded yet throw out of it) leaves nothing behind.
 */
import { describe, expect, it } from 'vitest';
import type { Candidate, RankInput, ScoredWord } from '../../src/core/search/rank';
import { SearchIndex } from '../../src/core/search/search';
import { analyzeQueryText } from '../../src/core/search/tokenize';
import { drain, WorkMeter } from '../../src/core/steps';
import { MemorySource } from '../helpers/memory-source';

const WORDS = ['harbour', 'field', 'river', 'stone', 'lantern', 'orchard', 'copper', 'meadow'];

/** 600 notes, each with a few of the words in its title and body, in varying counts. */
function vault(): Record<string, string> {
	const files: Record<string, string> = {};
	for (let i = 0; i < 600; i++) {
		const pick = (k: number): string => WORDS[(i * (k + 3) + k) % WORDS.length]!;
		const body = Array.from({ length: 1 + (i % 7) }, (_, k) => `${pick(k)} ${pick(k + 1)} walk.`).join(' ');
		files[`notes/n${i}.md`] = `# ${pick(5)} ${i}\n\n${body}\n`;
	}
	return files;
}

/** What search.ts hands the scorer for a query of free words: the typed words at weight 1. */
function rankInput(si: SearchIndex, query: string): RankInput {
	const words: ScoredWord[] = analyzeQueryText(query).map((word, origin) => ({
		word,
		weight: 1,
		origin,
		expansion: false,
		label: word.text,
		idf: si.wordIdf(word),
	}));
	return {
		words,
		typedIdf: words.map((w) => Math.max(0.1, w.idf)),
		allowed: null,
		bonus: new Map(),
		topK: 30,
	};
}

/** The ranking's steps drained in one go, as the CLI and the MCP server run them. */
function rankAlone(si: SearchIndex, input: RankInput): { top: Candidate[]; total: number } {
	return drain(si.scorer.rankSteps(input));
}

/** Run two step functions to their ends, one step of each in turn. */
function interleave<A, B>(a: Generator<void, A, void>, b: Generator<void, B, void>): [A, B] {
	let ra = a.next();
	let rb = b.next();
	while (ra.done !== true || rb.done !== true) {
		if (ra.done !== true) ra = a.next();
		if (rb.done !== true) rb = b.next();
	}
	return [ra.value, rb.value];
}

describe('the ranking in steps', () => {
	it('gives two rankings interleaved step by step the answers each gives alone', async () => {
		const si = await SearchIndex.build(new MemorySource(vault()));
		const first = rankInput(si, 'harbour river lantern');
		const second = rankInput(si, 'field stone copper meadow');
		const alone = [rankAlone(si, first), rankAlone(si, second)];
		expect(alone[0]!.total).toBeGreaterThan(100);
		expect(alone[1]!.total).toBeGreaterThan(100);
		// A step of 16 postings: each ranking pauses dozens of times, the other running in between.
		const meters = [new WorkMeter(16), new WorkMeter(16)];
		const both = interleave(si.scorer.rankSteps(first, meters[0]), si.scorer.rankSteps(second, meters[1]));
		expect(both).toEqual(alone);
		expect(meters[0]!.pauses).toBeGreaterThan(20);
		expect(meters[1]!.pauses).toBeGreaterThan(20);
		// and the scratch each left behind is clean: the next ranking alone answers the same again
		expect(rankAlone(si, first)).toEqual(alone[0]);
	});

	it('starts again, in one go, when the index changed during a pause, answering as the changed index', async () => {
		const files = vault();
		const source = new MemorySource(files);
		const si = await SearchIndex.build(source);
		const input = rankInput(si, 'harbour lantern');
		const steps = si.scorer.rankSteps(input, new WorkMeter(16));
		for (let i = 0; i < 5; i++) expect(steps.next().done).toBe(false);
		const text = '# Harbour lantern\n\nHarbour lantern harbour lantern.\n';
		si.upsert({ path: 'notes/new.md', text, metadata: source.getMetadata('notes/n0.md') });
		// started again in one go: an edit between every pause could otherwise keep it from its end
		const r = steps.next();
		expect(r.done).toBe(true);
		expect(r.value).toEqual(rankAlone(si, input));
		expect(r.value!.top[0]!.doc).toBe(si.index.pathToDoc.get('notes/new.md'));
	});

	it('leaves nothing behind when a ranking is abandoned half-way', async () => {
		const si = await SearchIndex.build(new MemorySource(vault()));
		const input = rankInput(si, 'harbour river lantern');
		const alone = rankAlone(si, input);
		const steps = si.scorer.rankSteps(input, new WorkMeter(16));
		for (let i = 0; i < 30; i++) expect(steps.next().done).toBe(false);
		steps.return(undefined as never); // as a throw out of a paused ranking ends it
		expect(rankAlone(si, input)).toEqual(alone);
	});
});
