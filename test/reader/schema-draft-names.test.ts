/** `schema draft` drafts fields people can name: a frontmatter key that is empty or blank is never offered as a field. */
import { describe, expect, it } from 'vitest';
import { draftSchema } from '../../src/core/schema/draft';
import { MemorySource } from '../helpers/memory-source';

describe('schema draft field names', () => {
	it('never offers a field named "" (an empty or blank YAML key), and still drafts the note\'s other fields', async () => {
		const source = new MemorySource({
			'a.md': '---\n"": stray\nstatus: active\n---\nA\n',
			'b.md': '---\n" ": blank\nstatus: done\n---\nB\n',
			'c.md': '---\nstatus: active\n---\nC\n',
		});
		const draft = await draftSchema(source, source.listNotes());
		const names = draft.fields.map((f) => f.name);
		expect(names).toContain('status');
		expect(names.filter((n) => n.trim() === '')).toEqual([]);
	});
});
