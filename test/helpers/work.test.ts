/** The work counter the linearity tests rely on: it tells linear scanning from quadratic, with no clock. */
import { describe, expect, it } from 'vitest';
import { countWork, expectLinear } from './work';

/** A linear scan: one look at each character. */
function linear(text: string): number {
	let n = 0;
	for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 32) n++;
	return n;
}

/** The classic quadratic mistake: searching the rest of the text again from every position. */
function quadratic(text: string): number {
	let n = 0;
	for (let i = 0; i < text.length; i++) if (text.indexOf('!', i) < 0) n++;
	return n;
}

/** Quadratic through a regex: a fresh sticky-free search from every position. */
function quadraticRegex(text: string): number {
	let n = 0;
	for (let i = 0; i < text.length; i += 10) if (/!/.test(text.slice(i))) n++;
	return n;
}

describe('the work counter', () => {
	it('counts characters touched by charCodeAt, indexOf, slices and regex searches, and restores the built-ins', () => {
		const text = 'abc '.repeat(1000);
		expect(countWork(() => linear(text)).work.chars).toBe(4000);
		expect(countWork(() => /x/.test(text)).work.chars).toBe(4000);
		expect(countWork(() => text.indexOf('c', 100)).work.chars).toBe(3);
		expect(String.prototype.charCodeAt.toString()).toContain('[native code]');
		expect(RegExp.prototype.exec.toString()).toContain('[native code]');
	});

	it('passes linear work and fails quadratic work, whether by indexOf or by regex', () => {
		expectLinear('linear', (n) => 'ab '.repeat(n), linear, 10_000);
		expect(() => expectLinear('quadratic', (n) => 'ab '.repeat(n), quadratic, 1000)).toThrow(/quadratic/);
		expect(() => expectLinear('regex', (n) => 'ab '.repeat(n), quadraticRegex, 1000)).toThrow(/regex/);
	});

	it('sees the longest text handed to Intl.Segmenter', () => {
		const words = new Intl.Segmenter('en', { granularity: 'word' });
		const { work } = countWork(() => [...words.segment('one two'), ...words.segment('three')].length);
		expect(work.longestSegmented).toBe(7);
	});
});
