import { describe, expect, it } from 'vitest';
import { hashRange, WordCache } from '../../src/core/search/word-cache';

/** Looks `word` up as a range inside a longer text, the way the index build does. */
function lookup<V>(cache: WordCache<V>, word: string): V | undefined {
	const text = `«${word}»`;
	return cache.find(text, 1, 1 + word.length, hashRange(text, 1, 1 + word.length));
}

describe('word cache', () => {
	it('finds every word added, by a range of any text, through growth, and none that was not', () => {
		const cache = new WordCache<number>();
		const words = Array.from({ length: 50_000 }, (_, i) => `w${i.toString(36)}`);
		for (const [i, word] of words.entries()) cache.add(word, hashRange(word, 0, word.length), i);
		expect(cache.size).toBe(words.length);
		expect(words.every((word, i) => lookup(cache, word) === i)).toBe(true);
		expect(lookup(cache, 'w')).toBeUndefined();
		expect(lookup(cache, 'absent')).toBeUndefined();
		expect(lookup(cache, `${words[7]}-`)).toBeUndefined(); // base 36 never writes a hyphen
	});

	it('tells apart words whose hashes collide', () => {
		const cache = new WordCache<string>();
		cache.add('one', 42, 'first');
		cache.add('two', 42, 'second');
		cache.add('thr', 42, 'third');
		expect(cache.find('one', 0, 3, 42)).toBe('first');
		expect(cache.find('xtwo', 1, 4, 42)).toBe('second');
		expect(cache.find('thr', 0, 3, 42)).toBe('third');
		expect(cache.find('fou', 0, 3, 42)).toBeUndefined();
	});

	it('is empty after clear and takes new words again', () => {
		const cache = new WordCache<number>();
		for (let i = 0; i < 5000; i++) cache.add(`k${i}`, hashRange(`k${i}`, 0, `k${i}`.length), i);
		cache.clear();
		expect(cache.size).toBe(0);
		expect(lookup(cache, 'k1')).toBeUndefined();
		cache.add('k1', hashRange('k1', 0, 2), 9);
		expect(lookup(cache, 'k1')).toBe(9);
	});
});
