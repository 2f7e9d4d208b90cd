import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../src/core/schema/load';
import { registryField } from '../../src/core/schema/registry';
import type { Schema } from '../../src/core/schema/types';
import { openVault } from '../../src/node/vault-source';
import { cli } from '../helpers/cli';
import { paths, readerJson, tempVault } from './helpers';

const SCHEMA_PATH = '_meta/frontmatter-schema.md';

/**
 * A schema note written entirely in the seed's registry style (seed 001, step 1): no yaml block,
 * per-type statuses, confidence and maturity as extension sections, source_type on its own.
 */
const REGISTRY_SCHEMA = [
	'# Frontmatter schema',
	'',
	'## Type registry',
	'| Type | Use for |',
	'| --- | --- |',
	'| `claim` | one assertion |',
	'| `skill` | a procedure |',
	'| `source` | something read |',
	'',
	'## Domain registry',
	'- `investing` — markets',
	'- `health` — sleep, diet',
	'',
	'## Status by type',
	'- `claim`: `active`, `superseded`, `archived`',
	'- skill — draft | active | deprecated | archived',
	'',
	'### source',
	'- `unread`',
	'- `read`',
	'',
	'## Confidence extension (claims only)',
	'How sure we are. Ordering, strongest first: `confirmed > likely > contested > speculative > unverifiable`',
	'- `confirmed` — two independent sources',
	'- `likely` — more likely than not',
	'- `contested` — sources disagree',
	'- `speculative` — a hunch',
	'- `unverifiable` — cannot be checked',
	'',
	'## Maturity extension',
	'- `seedling`',
	'- `budding`',
	'- `evergreen`',
	'',
	'## `source_type`',
	'- `book`',
	'- `paper`',
	'',
	'## last_verified',
	'- an ISO date, set when a claim is checked',
].join('\n');

/** Notes with every confidence level, and one without. */
const NOTES: Record<string, string> = {
	[SCHEMA_PATH]: REGISTRY_SCHEMA,
	'Notes/a.md': '---\ntype: claim\nstatus: active\nconfidence: confirmed\n---\nA\n',
	'Notes/b.md': '---\ntype: claim\nstatus: active\nconfidence: likely\n---\nB\n',
	'Notes/c.md': '---\ntype: claim\nstatus: active\nconfidence: contested\n---\nC\n',
	'Notes/d.md': '---\ntype: claim\nstatus: superseded\nconfidence: speculative\n---\nD\n',
	'Notes/e.md': '---\ntype: claim\nstatus: active\n---\nE\n',
	'Notes/f.md': '---\ntype: source\nstatus: read\nsource_type: book\n---\nF\n',
};

/** Load the schema note of a vault made of `files`. */
async function schemaOf(files: Record<string, string>): Promise<Schema> {
	return loadSchema(await openVault(tempVault(files)), { kind: 'vault', path: SCHEMA_PATH });
}

describe('schema note in the full registry style', () => {
	it('reads per-type statuses, ordered and plain extensions, and a source_type section', async () => {
		const schema = await schemaOf(NOTES);
		expect(schema.fields.get('status')).toMatchObject({
			type: 'enum',
			dependsOn: {
				field: 'type',
				values: {
					claim: ['active', 'superseded', 'archived'],
					skill: ['draft', 'active', 'deprecated', 'archived'],
					source: ['unread', 'read'],
				},
			},
		});
		expect(schema.fields.get('confidence')).toMatchObject({
			type: 'enum',
			ordered: true,
			values: ['confirmed', 'likely', 'contested', 'speculative', 'unverifiable'],
		});
		expect(schema.fields.get('maturity')).toMatchObject({
			type: 'enum',
			values: ['seedling', 'budding', 'evergreen'],
		});
		expect(schema.fields.get('maturity')?.ordered).toBeUndefined();
		expect(schema.fields.get('source_type')?.values).toEqual(['book', 'paper']);
		// A snake_case heading over prose bullets describes a field; it declares no enum.
		expect(schema.fields.has('last_verified')).toBe(false);
		expect(schema.notes).toEqual([]);
	});

	it('names the sections the seed uses', () => {
		expect(registryField('Confidence extension (claims only)')).toBe('confidence');
		expect(registryField('Maturity extension — optional')).toBe('maturity');
		expect(registryField('`source_type`')).toBe('source_type');
		expect(registryField('Status by type')).toBeNull(); // per-type lists, not a plain enum
		expect(registryField('Notes')).toBeNull();
	});

	it('an ordering that leaves out a listed value fails closed, naming it', async () => {
		const text = REGISTRY_SCHEMA.replace(
			'`confirmed > likely > contested > speculative > unverifiable`',
			'`confirmed > likely > contested`',
		);
		await expect(schemaOf({ ...NOTES, [SCHEMA_PATH]: text })).rejects.toThrow(
			/"## Confidence extension \(claims only\)" lists "speculative", "unverifiable" but its ordering \(confirmed > likely > contested\) leaves them out/,
		);
	});

	it('min_confidence keeps the level asked for and every stronger one; notes without confidence are out', async () => {
		const vault = tempVault(NOTES);
		const { code, report } = await readerJson(
			['filter', '--where', 'type=claim', '--min-confidence', 'likely', '--no-cache'],
			vault,
		);
		expect(code).toBe(0);
		expect(paths(report)).toEqual(['Notes/a.md', 'Notes/b.md']);
		expect(report.limitations.join('\n')).toContain(
			'min_confidence=likely (3 notes below it or without confidence excluded)',
		);
		const ranked = await readerJson(['filter', '--where', 'confidence>=contested', '--no-cache'], vault);
		expect(paths(ranked.report)).toEqual(['Notes/a.md', 'Notes/b.md', 'Notes/c.md']);
	});

	it('an unknown confidence value is an error naming it and the ordering', async () => {
		const vault = tempVault(NOTES);
		const { code, report } = await readerJson(
			['filter', '--where', 'type=claim', '--min-confidence', 'probable', '--no-cache'],
			vault,
		);
		expect(code).toBe(2);
		expect(report.error).toBe(
			'min_confidence: "probable" is not a confidence value; the schema allows: confirmed, likely, contested, speculative, unverifiable',
		);
	});

	it('statuses are checked per type, and source_type values against its section', async () => {
		const vault = tempVault(NOTES);
		expect(
			(await readerJson(['filter', '--where', 'type=source', '--where', 'status=active', '--no-cache'], vault))
				.report.error,
		).toBe('where: "active" is not a valid status for type source; the schema allows: unread, read');
		const books = await readerJson(['filter', '--where', 'source_type=book', '--no-cache'], vault);
		expect(paths(books.report)).toEqual(['Notes/f.md']);
		expect(
			(await readerJson(['filter', '--where', 'source_type=blog', '--no-cache'], vault)).report.error,
		).toContain('"blog" is not a valid source_type; the schema allows: book, paper');
	});
});

describe('schema draft in the registry style', () => {
	it('drafts Status by type and the seed confidence ordering, and the reader accepts the draft', async () => {
		const files = {
			'a.md': '---\ntype: claim\nstatus: active\nconfidence: likely\n---\n',
			'b.md': '---\ntype: claim\nstatus: superseded\nconfidence: confirmed\n---\n',
			'c.md': '---\ntype: skill\nstatus: draft\n---\n',
			'd.md': '---\ntype: skill\nstatus: draft\n---\n',
		};
		const vault = tempVault(files);
		const draft = (await cli(['schema', 'draft', '--vault', vault, '--no-cache'])).stdout;
		expect(draft).toContain('## Status by type\n\n- `claim`: `active`, `superseded`\n- `skill`: `draft`\n');
		expect(draft).toContain(
			'Ordering, strongest first: `confirmed > likely > contested > speculative > unverifiable`',
		);
		const schema = await loadSchema(await openVault(tempVault({ ...files, [SCHEMA_PATH]: draft })), {
			kind: 'vault',
			path: SCHEMA_PATH,
		});
		expect(schema.fields.get('status')?.dependsOn?.values).toEqual({
			claim: ['active', 'superseded'],
			skill: ['draft'],
		});
		expect(schema.fields.get('confidence')).toMatchObject({
			ordered: true,
			values: ['confirmed', 'likely', 'contested', 'speculative', 'unverifiable'],
		});
		expect(schema.notes).toEqual([]);
	});
});
