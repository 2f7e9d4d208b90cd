/**
 * Issue 14, packs: what counts as evidence. A question or a pointer sentence is never a
 * `relevant` source (the pointer is followed instead); a note's own title words are never mere
 * mentions in its own body; how-to questions quote fenced code, whole blocks or whole lines.
 */
import { describe, expect, it } from 'vitest';
import { buildPack, type ContextPack, type PackRequest } from '../../src/core/pack/pack';
import { isPointer, isQuestion } from '../../src/core/pack/prose';
import { SearchIndex } from '../../src/core/search/search';
import { MemorySource } from '../helpers/memory-source';

async function packOf(files: Record<string, string>, request: Omit<PackRequest, 'builtAt'>): Promise<ContextPack> {
	const source = new MemorySource(files);
	const index = await SearchIndex.build(source);
	return buildPack(source, index, { budget: 2000, ...request, builtAt: '2026-12-01' });
}

/** The quotes of the sources COVERAGE lists as relevant for any facet. */
function relevantQuotes(pack: ContextPack): string[] {
	const ids = new Set(pack.coverage.flatMap((c) => c.sources));
	return pack.pack.filter((s) => ids.has(s.id)).flatMap((s) => s.quotes);
}

/** Every quote is verbatim inside the lines it cites. */
function expectGrounded(pack: ContextPack, files: Record<string, string>): void {
	for (const s of pack.pack) {
		const lines = files[s.path]!.split('\n')
			.slice(s.lines[0] - 1, s.lines[1])
			.join('\n');
		for (const q of s.quotes) expect(lines, `${s.id} ${s.path}`).toContain(q);
	}
}

describe('pointer and question sentences', () => {
	it('tells a pointer from a claim written with links', () => {
		expect(isPointer('See [[Panel facts]].')).toBe(true);
		expect(isPointer('The facts so far are in [[copilot-data-retention]].')).toBe(true);
		expect(isPointer('Raised in [[research/copilot-data-handling]].')).toBe(true);
		expect(isPointer('[[Panel facts]]')).toBe(true);
		expect(isPointer('参见[[内部链接]]。')).toBe(true);
		expect(isPointer('[[Evergreen notes]] are [[atomic]].')).toBe(false);
		expect(isPointer('Panels convert sunlight, see the table.')).toBe(false);
		expect(isPointer('Efficiency drops in heat.')).toBe(false);
		expect(isQuestion('How efficient are solar panels?')).toBe(true);
	});

	it('a question plus a pointer is not evidence: the note it points at is the relevant source', async () => {
		const files = {
			'Solar panels.md':
				'# Solar panels\n\nHow efficient are solar panels? The facts are in [[Panel facts]].\n\nWe looked at the roof in May.\n',
			'Panel facts.md':
				'# Panel facts\n\nModern cells convert about 22 percent of sunlight into power. Output drops in summer heat.\n',
			'Garden.md': '# Garden\n\nTomatoes need sun.\n',
		};
		const pack = await packOf(files, { query: 'How efficient are solar panels?' });
		expect(pack.status).toBe('success');
		expect(pack.pack[0]).toMatchObject({ id: 'S1', path: 'Panel facts.md' });
		expect(pack.pack[0]!.quotes[0]).toMatch(/^Modern cells convert about 22 percent of sunlight into power./);
		expect(pack.coverage[0]!.sources).toEqual(['S1']);
		const hub = pack.pack.find((s) => s.path === 'Solar panels.md');
		expect(hub === undefined || !pack.coverage[0]!.sources.includes(hub.id)).toBe(true);
		for (const q of relevantQuotes(pack)) {
			expect(q).not.toMatch(/\?$/);
			expect(isPointer(q)).toBe(false);
		}
		expectGrounded(pack, files);
	});

	it('a relevant section quotes its statements, never its question or pointer', async () => {
		const files = {
			'Sync.md':
				'# Sync encryption\n\nDoes sync encrypt notes? Sync encrypts notes on the device. More in [[Security]].\n',
			'Security.md': '# Security\n\nPasswords are hashed.\n',
		};
		const pack = await packOf(files, { query: 'sync encrypt notes' });
		const sync = pack.pack.find((s) => s.path === 'Sync.md');
		expect(sync && pack.coverage[0]!.sources).toContain(sync?.id);
		expect(sync?.quotes).toEqual(['Sync encrypts notes on the device.']);
	});
});

describe("a note's own title words in its own body", () => {
	it('count as evidence even as link text, so the note titled by the asked term is relevant; elsewhere a link is still a mention', async () => {
		const files = {
			'Lightness.md':
				'[[Lightness]] is the [[perceived reflectance]] of a surface, from [[black]] to [[white]].\n',
			'Colour.md': 'Hue and [[lightness]] are two dimensions of [[colour]].\n',
		};
		const pack = await packOf(files, { query: 'lightness' });
		expect(pack.pack[0]).toMatchObject({ id: 'S1', path: 'Lightness.md' });
		expect(pack.coverage[0]).toMatchObject({ status: 'covered', sources: ['S1'] });
		const colour = pack.pack.find((s) => s.path === 'Colour.md');
		expect(colour === undefined || pack.coverage[0]!.partial_sources.includes(colour.id)).toBe(true);
	});

	it('only a name that is the asked term: a title merely sharing a word with the question keeps its links as mentions', async () => {
		const files = {
			'Colour lightness scale.md': 'The scale of [[lightness]] from [[black]] to [[white]].\n',
			'Other.md': 'Nothing here.\n',
		};
		const pack = await packOf(files, { query: 'lightness' });
		expect(pack.coverage[0]!.sources).toEqual([]);
		expect(pack.coverage[0]!.partial_sources).toEqual(['S1']);
	});

	it('aliases count like the title', async () => {
		const files = {
			'Value.md':
				'---\naliases: [lightness]\n---\n[[Lightness]] is how light a colour looks, from [[black]] to [[white]].\n',
			'Colour.md': 'Hue and [[lightness]] are two dimensions of [[colour]].\n',
		};
		const pack = await packOf(files, { query: 'lightness' });
		expect(pack.pack[0]).toMatchObject({ path: 'Value.md' });
		expect(pack.coverage[0]!.sources).toEqual(['S1']);
	});
});

describe('fenced code', () => {
	const files = {
		'Install.md':
			'# Installing the CLI\n\nInstall the command line tool with npm:\n\n```bash\nnpm install -g vault-query\n```\n\nThe tool reads a vault and answers questions about it.\n',
		'Listing.md': `# Sync script listing\n\nThe sync script copies notes.\n\n\`\`\`bash\n${Array.from({ length: 20 }, (_, i) => (i === 7 ? 'rsync -a notes/ backup/' : `echo step ${i}`)).join('\n')}\n\`\`\`\n`,
	};

	it('a how-to question quotes the whole block after the sentence that introduces it', async () => {
		const pack = await packOf(files, { query: 'how do I install the command line tool?' });
		const install = pack.pack.find((s) => s.path === 'Install.md');
		expect(install?.quotes).toContain('```bash\nnpm install -g vault-query\n```');
		expectGrounded(pack, files);
	});

	it('a question naming the command quotes it; a question that neither asks how nor names it quotes no code', async () => {
		const named = await packOf(files, { query: 'rsync notes backup' });
		const listing = named.pack.find((s) => s.path === 'Listing.md');
		// A block over 12 lines is quoted by whole lines, not whole.
		expect(listing?.quotes).toContain('rsync -a notes/ backup/');
		expect(listing?.quotes.every((q) => !q.startsWith('```'))).toBe(true);
		expectGrounded(named, files);
		const plain = await packOf(files, { query: 'what does the tool read' });
		expect(plain.pack.flatMap((s) => s.quotes).some((q) => q.includes('npm install'))).toBe(false);
	});

	it('stays within a small budget', async () => {
		const pack = await packOf(files, { query: 'how do I install the command line tool?', budget: 300 });
		expect(pack.status).toBe('success');
		expect(pack.handoff.tokens_used).toBeLessThanOrEqual(300);
	});
});
