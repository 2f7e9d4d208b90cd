import { describe, expect, it } from 'vitest';
import { search, SearchIndex } from '../../src/core/search/search';
import { MemorySource } from '../helpers/memory-source';
import { plainState } from '../helpers/plain-state';

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

describe('building an index with long notes', () => {
	it('pauses between notes only, never inside one long note', async () => {
		const files = { 'long.md': LONG_NOTE, 'short.md': '# Short\n\nA short note about the main thread.' };
		const source = new MemorySource(files);
		const read = source.read.bind(source);
		let reading = false;
		let progressed = false;
		let pausesAmongNotes = 0;
		source.read = (path) => {
			reading = true;
			return read(path);
		};
		await SearchIndex.build(
			source,
			{},
			{
				sliceMs: 0, // every slice is used up at once, so each pause point pauses
				readBatch: 2,
				onProgress: () => (progressed = true),
				yieldFn: () => {
					if (reading && !progressed) pausesAmongNotes++;
					return Promise.resolve();
				},
			},
		);
		// One pause after each note: the long note (over 150k characters) is indexed in one go.
		expect(pausesAmongNotes).toBe(Object.keys(files).length);
	});

	it('builds the same index as indexing the notes one by one', async () => {
		const files = { 'long.md': LONG_NOTE, 'short.md': '# Short\n\nA short note about the main thread.' };
		const built = await SearchIndex.build(new MemorySource(files), {}, { sliceMs: 0, readBatch: 2 });

		const source = new MemorySource(files);
		const whole = new SearchIndex();
		whole.source = source;
		whole.index.keepDerived = false; // as a build from a source keeps it
		for (const path of source.listNotes())
			whole.upsert({ path, text: await source.read(path), metadata: source.getMetadata(path) });
		expect(plainState(built.index.exportState())).toEqual(plainState(whole.index.exportState()));
		for (const q of ['主线程', 'สมชาย', '검색', 'obsidian 插件', 'main thread']) {
			const results = (await search(built, q)).results;
			expect(results.length).toBeGreaterThan(0);
			expect(results).toEqual((await search(whole, q)).results);
		}
	});
});
