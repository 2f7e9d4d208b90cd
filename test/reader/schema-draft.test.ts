import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { hashTree } from '../helpers/hash';
import { KEPANO_VAULT } from '../helpers/paths';
import { describeShared, itShared } from '../helpers/shared';
import { paths, readerJson, tempVault } from './helpers';

/** Save `text` to a file in a fresh temp folder (outside every vault) and return its path. */
function saveOutside(text: string): string {
	const file = join(mkdtempSync(join(tmpdir(), 'vq-draft-')), 'schema.md');
	writeFileSync(file, text);
	return file;
}

/** The fields block of a draft, one `name: declaration` per line, comments dropped. */
function fieldLines(draft: string): Map<string, string> {
	const block = /```yaml\nfields:\n([\s\S]*?)```/.exec(draft)?.[1] ?? '';
	return new Map(
		block
			.split('\n')
			.filter((l) => l.trim() !== '')
			.map((l) => {
				const [name, rest] = l.trim().split(/:\s(.*)/s);
				return [name!, rest!.replace(/\s+#.*$/, '')];
			}),
	);
}

/** A small vault that exercises every inference rule. */
const FILES: Record<string, string> = {
	'.obsidian/types.json': JSON.stringify({ types: { rating: 'number', mood: 'text' } }),
	'a.md': '---\ntype: claim\nstatus: active\nrating: 7\ndone: true\ncreated: 2026-01-02\nowner: "[[Ada]]"\ntopics: [x, y]\nsummary: A long sentence that nobody would ever repeat word for word anywhere.\nmood: calm\n---\nA\n',
	'b.md': '---\ntype: claim\nstatus: active\nrating: "8"\ndone: false\ncreated: 2026-02-03\ntopics: z\nmood: calm\n---\nB\n',
	'c.md': '---\ntype: skill\nstatus: draft\nrating: 3\ncreated: 2026-03-04\nmood: calm\n---\nC\n',
	'd.md': '---\ntype: skill\nstatus: active\nempty:\nmood: tense\n---\nD\n',
	'e.md': 'no frontmatter\n',
};

describe('vault-query schema draft', () => {
	it('types each property from types.json, else from its values; few repeated text values become an enum; statuses go under their type', async () => {
		const vault = tempVault(FILES);
		const before = hashTree(vault);
		const run = await cli(['schema', 'draft', '--vault', vault, '--no-cache']);
		expect(run.code).toBe(0);
		expect(hashTree(vault)).toBe(before);
		expect(run.stdout).toContain('from the 4 notes with frontmatter (of 5 in scope)');
		const fields = fieldLines(run.stdout);
		expect(fields.get('rating')).toBe('number'); // types.json wins over the string "8"
		expect(fields.get('done')).toBe('checkbox');
		expect(fields.get('created')).toBe('date');
		expect(fields.get('owner')).toBe('link');
		expect(fields.get('topics')).toBe('list'); // a list in one note, a single item in another
		expect(fields.get('summary')).toBe('text'); // used once: prose, not a vocabulary
		expect(fields.get('empty')).toBe('text');
		expect(fields.get('mood')).toBe('["calm", "tense"]'); // types.json says text; an enum narrows it
		// `type` is in the seed's registry section, not in the fields block.
		expect(fields.has('type')).toBe(false);
		expect(run.stdout).toMatch(/## Type registry\n\n- `claim`\n- `skill`\n/);
		// Every status is under a type: the seed's per-type section, not a flat enum.
		expect(fields.has('status')).toBe(false);
		expect(run.stdout).toContain('## Status by type\n\n- `claim`: `active`\n- `skill`: `active`, `draft`\n');
		expect(run.stdout).toContain('## Domain registry\n\nNo note has a `domain` property.');
	});

	it('the printed draft is a schema the reader accepts as it stands, without notes about it', async () => {
		const vault = tempVault(FILES);
		const schema = saveOutside((await cli(['schema', 'draft', '--vault', vault, '--no-cache'])).stdout);
		const active = await readerJson(
			['filter', '--where', 'status=active', '--where', 'rating>=7', '--schema', schema, '--no-cache'],
			vault,
		);
		expect(active.code).toBe(0);
		expect(paths(active.report)).toEqual(['a.md', 'b.md']);
		expect(active.report.limitations.filter((l) => l.startsWith('Schema:'))).toEqual([]);
		const typo = await readerJson(['filter', '--where', 'status=actve', '--schema', schema, '--no-cache'], vault);
		expect(typo.code).toBe(2);
		expect(typo.report.error).toContain('the schema allows: active, draft; did you mean "active"?');
		const type = await readerJson(['filter', '--where', 'type=source', '--schema', schema, '--no-cache'], vault);
		expect(type.report.error).toContain('"source" is not a valid type; the schema allows: claim, skill');
	});

	it('takes one action, draft; --json prints one object with the note', async () => {
		const vault = tempVault(FILES);
		const wrong = await cli(['schema', 'write', '--vault', vault, '--json']);
		expect(wrong.code).toBe(2);
		expect(JSON.parse(wrong.stdout)).toMatchObject({
			status: 'failed',
			error: expect.stringContaining('unknown schema action "write"') as unknown,
		});
		const json = await cli(['schema', 'draft', '--vault', vault, '--json', '--no-cache']);
		const parsed = JSON.parse(json.stdout) as { status: string; schema: string };
		expect(parsed.status).toBe('success');
		expect(parsed.schema).toMatch(/^# Frontmatter schema\n/);
	});
});

describeShared('schema draft on kepano-obsidian (no schema note of its own)', () => {
	itShared('draft → saved outside the vault → filter --where rating>=7 --schema accepts it', async () => {
		const before = hashTree(KEPANO_VAULT);
		const draft = await cli(['schema', 'draft', '--vault', KEPANO_VAULT, '--no-cache']);
		expect(draft.code).toBe(0);
		expect(fieldLines(draft.stdout).get('rating')).toBe('number');
		expect(fieldLines(draft.stdout).get('categories')).toBe('list');
		const schema = saveOutside(draft.stdout);
		const { code, report } = await readerJson(
			['filter', '--where', 'rating>=7', '--schema', schema, '--no-cache'],
			KEPANO_VAULT,
		);
		expect(code).toBe(0);
		expect(report.schema?.path).toBe(schema);
		expect(paths(report)).toContain('References/Blade Runner.md');
		expect(report.results.every((r) => typeof r.frontmatter.rating === 'number' && r.frontmatter.rating >= 7)).toBe(
			true,
		);
		expect(hashTree(KEPANO_VAULT)).toBe(before);
	});
});
