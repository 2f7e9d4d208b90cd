import { describe, expect, it } from 'vitest';
import { analyzeQueryText, foldText, foldWord, termsOf } from '../../src/core/search/tokenize';
import { stem } from '../../src/core/search/stem';

describe('tokenize', () => {
	it('stems English and drops stop words', () => {
		expect(termsOf('The developers are developing development')).toEqual(['develop', 'develop', 'development']);
		// Inflections always go; a derivation cutting more than two more letters makes another word (issue 14).
		expect(['lightness', 'light', 'organization', 'computers', 'computing'].map(stem)).toEqual([
			'lightness',
			'light',
			'organiz',
			'comput',
			'comput',
		]);
		expect(stem('performance')).toBe('performanc'); // -ance would cut four letters: another word (issue 14)
		expect(stem('optimization')).toBe(stem('optimize'));
	});

	it('indexes kebab, snake and camel compounds with their joined form', () => {
		expect(termsOf('front-end')).toEqual(['front', 'end', 'frontend']);
		expect(termsOf('TypeScript')).toEqual(['type', 'script', 'typescript']);
		expect(termsOf('snake_case')).toEqual(['snake', 'case', stem('snakecase')]);
		const q = analyzeQueryText('front-end');
		expect(q[0]!.alts[0]).toEqual(['frontend']);
	});

	it('folds case, width and diacritics', () => {
		expect(termsOf('Café ＡＢＣ Straße')).toEqual(['cafe', 'abc', stem('strasse')]);
	});

	it('bigrams Chinese and keeps the query words the Segmenter finds', () => {
		expect(termsOf('链接笔记')).toEqual(['链接', '接笔', '笔记']);
		const words = analyzeQueryText('如何创建链接笔记');
		expect(words.map((w) => w.text)).toEqual(['创建', '链接', '笔记']);
		expect(words[1]!.alts).toEqual([['链接']]);
	});

	it('glues single characters to their neighbour', () => {
		expect(analyzeQueryText('快捷键设置').map((w) => w.text)).toEqual(['快捷键', '设置']);
	});

	it('drops bigrams across a hiragana boundary in Japanese', () => {
		expect(termsOf('ノートを作る')).toEqual(['ノー', 'ート', '作']);
		expect(analyzeQueryText('ノートをリンクする方法').map((w) => w.text)).toEqual(['ノート', 'リンク']);
	});

	it('drops a lone hiragana character of a Japanese query: an inflection ending, never the topic', () => {
		// したい ("want to") leaves い: searched as a word it matched every note with a lone い.
		expect(analyzeQueryText('写真を編集したい').map((w) => w.text)).toEqual(['写真', '編集']);
		expect(analyzeQueryText('メモを書きたい').map((w) => w.text)).not.toContain('い');
		// A query of nothing else is still searched.
		expect(analyzeQueryText('い').length).toBe(1);
	});

	it('segments Thai with Intl.Segmenter and keeps Hangul words with their bigrams', () => {
		expect(termsOf('เชื่อมโยงโน้ต').length).toBeGreaterThan(1);
		expect(termsOf('노트를')).toEqual(['노트를', '노트', '트를']);
	});

	it('mixes scripts in one word', () => {
		expect(termsOf('Obsidian中的链接')).toEqual(['obsidian', '中的', '的链', '链接']);
	});

	it("folds a whole text letter by letter as words are folded, leaving other scripts' marks alone", () => {
		expect(foldText('Café Straße, ΆΛΦΑ and Ørsted')).toBe(
			`${foldWord('Café')} ${foldWord('Straße')}, ${foldWord('ΆΛΦΑ')} and ${foldWord('Ørsted')}`,
		);
		expect(foldText('Café Straße')).toBe('cafe strasse');
		// An accented Latin letter elsewhere in the text does not strip the dakuten of が or a Devanagari vowel sign.
		expect(foldText('é が हिन्दी')).toBe('e が हिन्दी');
	});
});
