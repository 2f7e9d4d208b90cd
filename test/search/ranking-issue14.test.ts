/** Issue 14's search cases, each as a user would see it: exact names win, expansions stay on topic, typos and noise are said. */
import { describe, expect, it } from 'vitest';
import { search, SearchIndex } from '../../src/core/search/search';
import { analyzeQueryText } from '../../src/core/search/tokenize';
import { MemorySource } from '../helpers/memory-source';

const NOTES: Record<string, string> = {
	'Physics/Lightness.md': 'Lightness is the perceived reflectance of a surface. It is defined relative to white.\n',
	'Physics/Doubts on Quantization of Light.md':
		'---\naliases: [Light quanta]\n---\nLight, light and more light. Is light defined by quanta? Light light light.\n',
	'Physics/Light sources.md': 'Light from lamps. Light from the sun. How light is defined by physicists.\n',
	'Code/Access Modifiers.md': '---\naliases: [public, private, protected]\n---\nVisibility of members in a class.\n',
	'Code/Private notes.md': 'Keep private things private. Nothing about visibility.\n',
	'Code/Tail calls.md':
		'---\naliases: [dead code elimination]\n---\nA compiler pass that removes code that never runs.\n',
	'Code/Trampolines.md':
		'---\naliases: [trampoline]\n---\nA loop that calls thunks, so deep recursion does not grow the stack.\n',
	'Code/Dead ends.md': 'Dead branches and code smells; elimination of both is hard.\n',
	'Tools/Calendar plugin.md': 'The calendar plugin shows daily notes on a calendar.\n',
	'Tools/Plugin basics.md': 'A plugin adds features. Install a plugin from settings. Plugin plugin plugin.\n',
	'Tools/Plugin list.md': 'Every plugin we use, plugin by plugin.\n',
	'块引用.md': '块引用可以引用另一个笔记中的段落。\n',
	'是块.md': '这是块状的东西，是块。\n',
};

async function build(): Promise<SearchIndex> {
	return SearchIndex.build(new MemorySource(NOTES));
}

describe('issue 14: sharper ranking', () => {
	it('an exact title beats notes that only share a stem ("how is lightness defined" → Lightness)', async () => {
		const r = await search(await build(), 'how is lightness defined');
		expect(r.results[0]!.path).toBe('Physics/Lightness.md');
		expect(r.results[0]!.tier).toBe('alias-filename');
	});

	it('an alias points at its own note, never expanding into its sibling aliases ("public" does not bring in "private")', async () => {
		const r = await search(await build(), 'public');
		expect(r.results[0]!.path).toBe('Code/Access Modifiers.md');
		expect(r.terms.expanded.map((e) => e.text)).not.toContain('private');
		expect(r.results.map((h) => h.path)).not.toContain('Code/Private notes.md');
		const t = await search(await build(), 'trampoline');
		expect(t.results.map((h) => h.path)).toEqual(['Code/Trampolines.md']);
	});

	it('a multi-word alias matches as a phrase: the note it names comes first, ahead of a note holding the words apart', async () => {
		const r = await search(await build(), 'dead code elimination');
		expect(r.results[0]!.path).toBe('Code/Tail calls.md');
		expect(r.results[0]!.tier).toBe('alias-filename');
	});

	it('CJK question words are stripped before bigrams: 什么是块引用 searches 块引用, not 是块', async () => {
		expect(analyzeQueryText('什么是块引用').map((w) => w.text)).toEqual(['块引用']);
		expect(analyzeQueryText('ブロック参照とは何ですか').map((w) => w.text)).toEqual(['ブロック', '参照']);
		const r = await search(await build(), '什么是块引用');
		expect(r.results[0]!.path).toBe('块引用.md');
		expect(r.results.map((h) => h.path)).not.toContain('是块.md');
	});

	it('a typo that matches nothing is taken as the nearest word and said so ("calender → calendar")', async () => {
		const r = await search(await build(), 'calender plugin');
		expect(r.terms.corrected).toEqual([{ from: 'calender', to: 'calendar' }]);
		expect(r.results[0]!.path).toBe('Tools/Calendar plugin.md');
		expect(r.limitations.join('\n')).toContain('"calender" matched no note; searched as "calendar"');
		// A correctly spelt query is never "corrected".
		expect((await search(await build(), 'calendar plugin')).terms.corrected).toEqual([]);
	});

	it('says when most query words matched nothing', async () => {
		const r = await search(await build(), 'quokka trampoline zzzz');
		expect(r.terms.unmatched).toEqual(['quokka', 'zzzz']);
		expect(r.limitations.join('\n')).toMatch(
			/Most query words matched nothing \(quokka, zzzz\); the results match only trampoline/,
		);
	});

	it("an embedded image's file name is not text: a calendar icon does not make a note about calendars", async () => {
		const source = new MemorySource({
			'Daily notes.md':
				"Click **Open today's daily note** ![[lucide-calendar.svg#icon]] in the ribbon. Daily notes plugin settings.\n",
			'Release notes.md':
				'Plugin views are no longer replaced when clicking a link, such as the Calendar plugin.\n',
			'Photos.md': 'Our trip: ![kyoto calendar shrine](img/shrine.png) and ![[beach.jpg|300]]\n',
		});
		const index = await SearchIndex.build(source);
		const r = await search(index, 'calendar plugin');
		expect(r.results[0]!.path).toBe('Release notes.md');
		expect(r.results.find((h) => h.path === 'Daily notes.md')?.matched_terms ?? []).not.toContain('calendar');
		// A Markdown image keeps its alt text (it describes the image); the file name of either kind is not read.
		expect((await search(index, 'shrine')).results.map((h) => h.path)).toEqual(['Photos.md']);
		expect((await search(index, 'beach')).results).toEqual([]);
	});
});
