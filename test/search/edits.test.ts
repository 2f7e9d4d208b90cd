import { describe, expect, it } from 'vitest';
import { search, SearchIndex } from '../../src/core/search/search';

const note = (path: string, text: string) => ({ path, text, metadata: null });

describe('an index edited many times', () => {
	it('still finds notes after every note was re-indexed (stale postings never zero the idf)', async () => {
		const index = new SearchIndex();
		for (const name of ['a', 'b', 'c']) index.upsert(note(`${name}.md`, `# ${name}\n\nHow sync works.`));
		expect((await search(index, 'sync')).results).toHaveLength(3);
		// Each edit is a removal plus an addition: before the fix, the removed notes' postings pushed
		// the document frequency past the live count and every score fell to zero or below.
		for (let round = 0; round < 5; round++) {
			for (const name of ['a', 'b', 'c'])
				index.upsert(note(`${name}.md`, `# ${name}\n\nHow sync works, edit ${round}.`));
			const result = await search(index, 'sync');
			expect(result.results.map((r) => r.path).sort()).toEqual(['a.md', 'b.md', 'c.md']);
		}
	});

	it('ranks the same after many edits as a fresh build of the same notes', async () => {
		const texts: Record<string, string> = {
			'x.md': 'sync sync conflicts',
			'y.md': 'sync once',
			'z.md': 'nothing here',
		};
		const edited = new SearchIndex();
		for (let round = 0; round < 40; round++)
			for (const [path, text] of Object.entries(texts)) edited.upsert(note(path, text));
		const fresh = new SearchIndex();
		for (const [path, text] of Object.entries(texts)) fresh.upsert(note(path, text));
		const a = await search(edited, 'sync conflicts');
		const b = await search(fresh, 'sync conflicts');
		expect(a.results.map((r) => [r.path, r.score])).toEqual(b.results.map((r) => [r.path, r.score]));
	});

	it('answers as a fresh build right after a few edits, without compacting first', async () => {
		const texts: Record<string, string> = {};
		for (let i = 0; i < 60; i++)
			texts[`n${i}.md`] =
				`# Note ${i}\n\nsync ${i % 3 === 0 ? 'conflicts' : 'works'} ${i % 5 === 0 ? 'encryption' : ''}`;
		const edited = new SearchIndex();
		for (const [path, text] of Object.entries(texts)) edited.upsert(note(path, text));
		edited.index.compact();
		// A few edits: one drops the only note with "vanishing", others move words between notes.
		edited.upsert(note('n1.md', 'temporary vanishing word'));
		texts['n1.md'] = '# Note 1\n\nsync encryption now';
		texts['n2.md'] = 'conflicts conflicts';
		for (const path of ['n1.md', 'n2.md']) edited.upsert(note(path, texts[path]!));
		const fresh = new SearchIndex();
		for (const [path, text] of Object.entries(texts)) fresh.upsert(note(path, text));
		for (const query of ['sync conflicts', 'encryption', 'conf', 'vanishing', 'sycn']) {
			const a = await search(edited, query, { prefixLast: true });
			const b = await search(fresh, query, { prefixLast: true });
			expect(
				a.results.map((r) => [r.path, r.score]),
				query,
			).toEqual(b.results.map((r) => [r.path, r.score]));
		}
		// The old versions' postings are still stored: the answers above did not need a compaction.
		expect(edited.index.hasStalePostings).toBe(true);
		expect(edited.index.lookup('vanish')).toBe(-1);
	});
});

describe("a compaction in a host's steps", () => {
	it('leaves searches during its pauses to read the edits as they are, not compact again in one block', async () => {
		const index = new SearchIndex();
		for (let i = 0; i < 400; i++) index.upsert(note(`n${i}.md`, `# Note ${i}\n\nsync works ${i}`));
		index.index.compact();
		for (let i = 0; i < 40; i++) index.upsert(note(`n${i}.md`, `# Note ${i}\n\nsync conflicts ${i}`));
		expect(index.index.needsCompaction).toBe(true); // 40 removals: more than 32
		const steps = index.index.compactSteps();
		expect(steps.next().done).toBe(false); // paused half-way
		expect(index.index.needsCompaction).toBe(false);
		expect((await search(index, 'conflicts', { limit: 100 })).results).toHaveLength(40);
		while (steps.next().done !== true);
		expect(index.index.needsCompaction).toBe(false);
		expect((await search(index, 'conflicts', { limit: 100 })).results).toHaveLength(40);
	});
});

describe("edits landing in a compaction's pauses", () => {
	it('answer as a fresh build of the same notes, during and after it, and after the next compaction', async () => {
		// Enough postings (~100k) that the compaction pauses several times (every 64k postings of work).
		const words = ['sync', 'conflicts', 'works', 'vault', 'mobile', 'encryption', 'plugin', 'theme'];
		for (let w = 0; w < 400; w++) words.push(`w${w.toString(36)}`);
		let seed = 7;
		const random = (n: number): number => {
			seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
			return seed % n;
		};
		const textOf = (i: number): string =>
			`# Note ${i}\n\n${Array.from({ length: 30 + random(20) }, () => words[random(words.length)]).join(' ')}`;
		const texts = new Map<string, string>();
		const edited = new SearchIndex();
		const put = (path: string, text: string): void => {
			texts.set(path, text);
			edited.upsert(note(path, text));
		};
		for (let i = 0; i < 3000; i++) put(`n${i}.md`, textOf(i));
		edited.index.compact();
		for (let i = 0; i < 200; i++) put(`n${i}.md`, textOf(i)); // 200 removals: a compaction is due
		expect(edited.index.needsCompaction).toBe(true);
		const answers = async (index: SearchIndex) => {
			const out: unknown[] = [];
			for (const query of ['sync conflicts', 'vault', 'mobile encryption', 'plugin theme works'])
				out.push((await search(index, query, { limit: 50 })).results.map((r) => [r.path, r.score]));
			return out;
		};
		const fresh = (): SearchIndex => {
			const index = new SearchIndex();
			for (const [path, text] of texts) index.upsert(note(path, text));
			return index;
		};
		const steps = edited.index.compactSteps();
		let pauses = 0;
		let next = 4000;
		while (steps.next().done !== true) {
			pauses++;
			// An edit, a new note or a removal in each pause.
			const kind = random(3);
			if (kind === 0) put(`n${random(3000)}.md`, textOf(random(1000)));
			else if (kind === 1) put(`n${next++}.md`, textOf(next));
			else {
				const path = `n${random(3000)}.md`;
				texts.delete(path);
				edited.remove(path);
			}
			if (pauses % 2 === 0) expect(await answers(edited)).toEqual(await answers(fresh()));
		}
		expect(pauses).toBeGreaterThan(3);
		expect(await answers(edited)).toEqual(await answers(fresh()));
		edited.index.compact(); // what landed in the pauses is folded by the next one
		expect(edited.index.hasStalePostings).toBe(false);
		expect(await answers(edited)).toEqual(await answers(fresh()));
	});
});

describe('regex clauses', () => {
	it('refuses a backreference by name before reading any note, like grep', async () => {
		const index = new SearchIndex();
		index.upsert(note('a.md', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab'));
		const result = await search(index, '/(a+)\\1$/');
		expect(result.status).toBe('failed');
		expect(result.error).toBe(
			'regex /(a+)\\1$/: refused, "\\1" is a backreference, which linear-time regular expressions (RE2 syntax) do not support; rewrite the pattern without it',
		);
	});

	it('names the compile error of an invalid regex', async () => {
		const result = await search(new SearchIndex(), '/([a-z/');
		expect(result.status).toBe('failed');
		expect(result.error).toMatch(
			/^regex \/\(\[a-z\/: invalid regular expression \(RE2 syntax\): missing closing \]/,
		);
	});
});
