import { describe, expect, it } from 'vitest';
import { search, SearchIndex } from '../../src/core/search/search';
import { TOKENIZE_STEP, wordTerms, wordTermSteps } from '../../src/core/search/tokenize';
import { MemorySource } from '../helpers/memory-source';

// One note far longer than a step, its runs without a break: Han with kana, Thai (dictionary
// segmented), Hangul, then Han and Latin alternating inside one word, then plain sentences.
const HAN = '搜索索引在构建时不得阻塞主线程超过五十毫秒这是插件的要求を守る';
const THAI = 'สวัสดีครับผมชื่อสมชายยินดีที่ได้รู้จัก';
const HANGUL = '검색색인은주스레드를막지않는다';
const LONG_NOTE = [
	'---\ntags: [long]\n---\n# 長いノート\n\n',
	HAN.repeat(2000),
	'\n\n',
	THAI.repeat(1000),
	'\n\n',
	HANGUL.repeat(1000),
	'\n\n',
	`${HAN}Obsidian插件vault`.repeat(500),
	'\n\n',
	'The plugin never blocks the main thread while it builds. '.repeat(1000),
].join('');

describe('indexing one long note in slices', () => {
	it('pauses inside one long word of each script and emits the same terms as the one-go tokenizer', () => {
		for (const word of [HAN.repeat(400), THAI.repeat(400), HANGUL.repeat(400), `${HAN}Obsidian插件`.repeat(400)]) {
			const once: string[] = [];
			wordTerms(word, (t) => once.push(t));
			const stepped: string[] = [];
			let pauses = 0;
			const steps = wordTermSteps(word, (t) => stepped.push(t));
			while (steps.next().done !== true) pauses++;
			expect(stepped).toEqual(once);
			expect(pauses).toBeGreaterThanOrEqual(Math.floor(word.length / TOKENIZE_STEP) - 1);
		}
	});

	it('yields many times inside the note and builds the same index as indexing it in one go', async () => {
		const files = { 'long.md': LONG_NOTE, 'short.md': '# Short\n\nA short note about the main thread.' };
		let yieldsInsideNotes = 0;
		let progressed = false;
		const sliced = await SearchIndex.build(
			new MemorySource(files),
			{},
			{
				sliceMs: 0, // every step ends a slice, so the yields count the steps
				readBatch: 2,
				onProgress: () => (progressed = true),
				yieldFn: () => {
					if (!progressed) yieldsInsideNotes++;
					return Promise.resolve();
				},
			},
		);
		// Two notes: without slicing inside a note there would be one yield after each.
		expect(yieldsInsideNotes).toBeGreaterThan(LONG_NOTE.length / TOKENIZE_STEP / 2);

		const source = new MemorySource(files);
		const whole = new SearchIndex();
		whole.source = source;
		whole.index.keepDerived = false; // as a build from a source keeps it
		for (const path of source.listNotes())
			whole.upsert({ path, text: await source.read(path), metadata: source.getMetadata(path) });
		expect(sliced.index.exportState()).toEqual(whole.index.exportState());
		for (const q of ['主线程', 'สมชาย', '검색', 'obsidian 插件', 'main thread']) {
			const results = (await search(sliced, q)).results;
			expect(results.length).toBeGreaterThan(0);
			expect(results).toEqual((await search(whole, q)).results);
		}
	});
});
