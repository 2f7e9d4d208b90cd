import { describe, expect, it } from 'vitest';
import { FOLD_EXTRA, foldCase, lowerCase, nfc } from '../../src/core/text/normalize';

/** Every Unicode scalar value as a one-character string. */
function* everyCharacter(): Generator<string> {
	for (let cp = 0; cp < 0x110000; cp++) if (cp < 0xd800 || cp > 0xdfff) yield String.fromCodePoint(cp);
}

describe('nfc', () => {
	it('turns decomposed text into composed text and leaves composed text alone', () => {
		expect(nfc('cafe\u0301 re\u0301sume\u0301')).toBe('café résumé');
		expect(nfc('café')).toBe('café');
		expect(nfc('Zu\u0308rich\nline two')).toBe('Zürich\nline two');
	});

	it('keeps the number of lines of any text', () => {
		const text = 'e\n\u0301x\r\n\u0308y\n';
		expect(nfc(text).split('\n').length).toBe(text.split('\n').length);
	});
});

describe('foldCase', () => {
	it('lowers and folds case without changing the length of any character, and text equal in lower case folds alike', () => {
		const wrong: string[] = [];
		for (const ch of everyCharacter()) {
			if (foldCase(ch).length !== ch.length || lowerCase(ch).length !== ch.length)
				wrong.push(ch.codePointAt(0)?.toString(16) ?? '');
			if (foldCase(lowerCase(ch)) !== foldCase(ch))
				wrong.push(`${ch.codePointAt(0)?.toString(16) ?? ''} folds apart from its lower case`);
		}
		expect(wrong).toEqual([]);
	});

	it('maps a character, its upper case and its lower case to one form', () => {
		const wrong: string[] = [];
		for (const ch of everyCharacter()) {
			for (const variant of [ch.toUpperCase(), ch.toLowerCase()]) {
				if ([...variant].length !== 1 || ch === '\u0130' || variant === '\u0130') continue;
				if (foldCase(variant) !== foldCase(ch))
					wrong.push(`${ch.codePointAt(0)?.toString(16)}/${variant.codePointAt(0)?.toString(16)}`);
			}
		}
		expect(wrong).toEqual([]);
	});

	it('has the partner table that upper and lower case imply', () => {
		const table: Record<string, string> = {};
		for (const ch of everyCharacter()) {
			const lower = ch.toLowerCase();
			const upper = ch.toUpperCase();
			if (lower.length !== ch.length || [...upper].length !== 1) continue;
			const back = upper.toLowerCase();
			if ([...back].length === 1 && back !== lower) table[ch] = back;
		}
		expect(table).toEqual(FOLD_EXTRA);
	});

	it('folds whole texts the same way as their characters, keeping İ', () => {
		expect(foldCase('ΣΟΦΙΑ σοφος ſtraße İstanbul KELVIN \u212a')).toBe('σοφια σοφοσ straße İstanbul kelvin k');
	});
});
