import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../src/core/schema/load';
import { registryField, registryValue } from '../../src/core/schema/registry';
import type { Schema } from '../../src/core/schema/types';
import { openVault } from '../../src/node/vault-source';
import { readerJson, SMALL_SCHEMA, tempVault } from './helpers';

const SCHEMA_PATH = '_meta/frontmatter-schema.md';

/** Load the schema note `text` from a fresh temp vault (plus any other files). */
async function schemaOf(text: string, files: Record<string, string> = {}): Promise<Schema> {
	const vault = tempVault({ [SCHEMA_PATH]: text, ...files });
	return loadSchema(await openVault(vault), { kind: 'vault', path: SCHEMA_PATH });
}

/** The SchemaError message for a schema note, with the vault path cut off. */
async function schemaError(text: string): Promise<string> {
	try {
		await schemaOf(text);
	} catch (error) {
		return error instanceof Error ? error.message.replace(/^.*?frontmatter-schema\.md:? /, '') : String(error);
	}
	throw new Error('expected a schema error');
}

const block = (yaml: string): string => `# Schema\n\n\`\`\`yaml\n${yaml}\n\`\`\`\n`;

describe('schema note: the yaml fields: block', () => {
	it('reads type names, enum lists, ordered enums and per-type values', async () => {
		const schema = await schemaOf(
			block(
				[
					'fields:',
					'  type: [claim, skill]',
					'  status:',
					'    depends_on: type',
					'    values:',
					'      claim: [active, superseded]',
					'      skill: [draft, active]',
					'  confidence: { type: enum, ordered: true, values: [confirmed, likely] }',
					'  seen: date',
					'  tags: list',
					'  rating: number',
					'  done: checkbox',
					'  source: link',
				].join('\n'),
			),
		);
		expect(Object.fromEntries([...schema.fields].map(([name, spec]) => [name, spec.type]))).toEqual({
			type: 'enum',
			status: 'enum',
			confidence: 'enum',
			seen: 'date',
			tags: 'list',
			rating: 'number',
			done: 'checkbox',
			source: 'link',
		});
		expect(schema.fields.get('status')).toMatchObject({
			values: ['active', 'superseded', 'draft'],
			dependsOn: { field: 'type', values: { claim: ['active', 'superseded'], skill: ['draft', 'active'] } },
		});
		expect(schema.fields.get('confidence')).toMatchObject({ ordered: true, values: ['confirmed', 'likely'] });
	});

	it("ignores yaml blocks without fields: (frontmatter examples) and the note's own frontmatter", async () => {
		const schema = await schemaOf(
			`---\nfields: nope\n---\n${block('type: claim\nstatus: active')}\n${block('fields:\n  rating: number')}`,
		);
		expect([...schema.fields.keys()]).toEqual(['rating']);
	});

	it.each([
		[
			'an unknown type, with a near miss',
			'fields:\n  rating: nubmer',
			'field "rating": unknown type "nubmer"; types are text, number, date, list, enum, link, checkbox; did you mean "number"?',
		],
		[
			'an unknown key in a field',
			'fields:\n  domain: { type: enum, valuse: [a] }',
			'field "domain": unknown key "valuse"; a field takes type, values, ordered, depends_on, description; did you mean "values"?',
		],
		[
			'an enum without values',
			'fields:\n  domain: enum',
			'field "domain": an enum needs its values, e.g. domain: [a, b]',
		],
		[
			'values on a number',
			'fields:\n  rating: { type: number, values: [1, 2] }',
			'field "rating": only enum and list fields take values (this one is number)',
		],
		[
			'ordered on a list',
			'fields:\n  tags: { type: list, ordered: true }',
			'field "tags": only an enum can be ordered',
		],
		[
			'depends_on an undeclared field',
			'fields:\n  status: { depends_on: kind, values: { a: [x] } }',
			'field "status" depends_on "kind", which the schema does not declare',
		],
		[
			'per-type values keyed by an unknown type',
			'fields:\n  type: [claim, skill]\n  status: { depends_on: type, values: { claims: [x] } }',
			'field "status" lists values for type "claims", which is not one of claim, skill; did you mean "claim"?',
		],
		[
			'a top-level key other than fields',
			'fields:\n  a: text\nfeilds: {}',
			'unknown top-level key "feilds"; the schema block holds only fields:',
		],
	])('rejects %s', async (_name, yaml, message) => {
		expect(await schemaError(block(yaml))).toBe(message);
	});

	it('rejects invalid YAML and two schema blocks, naming the lines', async () => {
		expect(await schemaError(block('fields:\n  a: [unclosed'))).toMatch(
			/^the schema block at line 3 is not valid YAML/,
		);
		expect(await schemaError(`${block('fields:\n  a: text')}\n${block('fields:\n  b: text')}`)).toMatch(
			/has 2 schema blocks \(yaml with fields:, lines 3 and 10\); keep one$/,
		);
	});

	it('fails closed on a note that declares nothing', async () => {
		expect(await schemaError('# Schema\n\nProse only.\n')).toMatch(
			/declares no fields: add a ```yaml block with fields: or a "## Type registry" section/,
		);
	});
});

describe("schema note: the seed's registry sections", () => {
	it('reads a list or a table under "## <field> registry" as an enum', async () => {
		const text = [
			'# Schema',
			'',
			'## Type registry',
			'- `claim` — one assertion',
			'- **skill**: a procedure',
			'- source (a book)',
			'',
			'## Domain registry',
			'',
			'| Domain | Notes |',
			'| --- | --- |',
			'| `investing` | markets |',
			'| health | sleep |',
			'',
			'## Source type registry',
			'| Notes | Value |',
			'|---|---|',
			'| a paper | paper |',
			'',
			'## Unrelated',
			'- not-a-value',
		].join('\n');
		const schema = await schemaOf(text);
		expect(schema.fields.get('type')?.values).toEqual(['claim', 'skill', 'source']);
		expect(schema.fields.get('domain')?.values).toEqual(['investing', 'health']);
		expect(schema.fields.get('source_type')?.values).toEqual(['paper']);
		expect(schema.fields.has('unrelated')).toBe(false);
	});

	it('the yaml block wins over a registry for the same field, and says so', async () => {
		const schema = await schemaOf(`## Type registry\n- a\n- b\n\n${block('fields:\n  type: [x, y]')}`);
		expect(schema.fields.get('type')?.values).toEqual(['x', 'y']);
		expect(schema.notes).toEqual([
			'type: the schema block declaration (enum) is used; the registry one (enum) is ignored',
		]);
	});

	it('names fields and values the way the seed writes them', () => {
		expect(registryField('Type registry')).toBe('type');
		expect(registryField('`source_type:` registry')).toBe('source_type');
		expect(registryField('Registry')).toBeNull();
		expect(registryValue('`likely` — more likely than not')).toBe('likely');
		expect(registryValue('speculative - a hunch')).toBe('speculative');
	});
});

describe('.obsidian/types.json', () => {
	it('types the fields the schema note does not declare; the schema note wins a conflict', async () => {
		const types = JSON.stringify({
			types: {
				rating: 'number',
				due: 'datetime',
				topics: 'multitext',
				done: 'checkbox',
				type: 'text',
				status: 'number',
				odd: 'weird',
			},
		});
		const schema = await schemaOf(SMALL_SCHEMA, { '.obsidian/types.json': types });
		expect(
			Object.fromEntries([...schema.fields].map(([name, spec]) => [name, `${spec.type}/${spec.origin}`])),
		).toEqual({
			type: 'enum/schema block',
			status: 'enum/schema block',
			rating: 'number/schema block',
			due: 'date/types.json',
			topics: 'list/types.json',
			done: 'checkbox/types.json',
		});
		// An enum narrows Obsidian's text (not noted); an enum against a number is a conflict (noted).
		expect(schema.notes).toEqual([
			'status: the schema block declaration (enum) is used; the types.json one (number) is ignored',
			'types.json: property types not understood, left out of the schema: odd ("weird")',
		]);
	});

	it('a malformed types.json is reported, not fatal', async () => {
		const schema = await schemaOf(SMALL_SCHEMA, { '.obsidian/types.json': '{ nope' });
		expect(schema.notes[0]).toMatch(/^types\.json not used: /);
	});
});

describe('where validation against the schema', () => {
	it('a per-type status is checked against the type the query asks for', async () => {
		const { code, report } = await readerJson(['filter', '--where', 'type=skill', '--where', 'status=superseded']);
		expect(code).toBe(2);
		expect(report.error).toBe(
			'where: "superseded" is not a valid status for type skill; the schema allows: draft, active, deprecated, archived',
		);
		const claim = await readerJson(['filter', '--where', 'type=claim', '--where', 'status=superseded']);
		expect(claim.report.results.map((r) => r.path)).toEqual(['skill-lab/sleep-debt.md']);
	});

	it('ordering operators need a number, date or ordered enum; values must parse', async () => {
		expect((await readerJson(['filter', '--where', 'maturity>seedling'])).report.error).toBe(
			'where: ">" compares numbers, dates and ordered enums; maturity is an unordered enum (use = or !=)',
		);
		expect((await readerJson(['filter', '--where', 'tags>=a'])).report.error).toBe(
			'where: ">=" compares numbers, dates and ordered enums; tags is a list field (use = or !=)',
		);
		expect((await readerJson(['filter', '--where', 'rating>=seven'])).report.error).toBe(
			'where: rating is a number field; "seven" is not a number written in plain decimal (like 7, -2 or 4.5)',
		);
		expect((await readerJson(['filter', '--where', 'last_verified>2026-02-30'])).report.error).toMatch(
			/^where: last_verified is a date field; "2026-02-30" is not a date/,
		);
		expect((await readerJson(['filter', '--where', 'confidence>=likly'])).report.error).toBe(
			'where: "likly" is not a valid confidence; the schema allows: confirmed, likely, contested, speculative, unverifiable; did you mean "likely"?',
		);
		expect((await readerJson(['filter', '--where', 'rating'])).report.error).toBe(
			'where: "rating" is not a predicate; write field=value, or field>=value for numbers and dates',
		);
	});

	it('min_confidence and max_staleness_days are checked against the schema too', async () => {
		expect((await readerJson(['filter', '--where', 'type=claim', '--min-confidence', 'Likely'])).report.error).toBe(
			'min_confidence: "Likely" is not a confidence value; the schema allows: confirmed, likely, contested, speculative, unverifiable; did you mean "likely"?',
		);
		const vault = tempVault({ [SCHEMA_PATH]: SMALL_SCHEMA, 'Notes/a.md': '---\ntype: claim\n---\n' });
		expect(
			(await readerJson(['filter', '--where', 'type=claim', '--min-confidence', 'likely'], vault)).report.error,
		).toBe('min_confidence: the schema declares no "confidence" field to filter on');
		expect(
			(await readerJson(['filter', '--where', 'type=claim', '--max-staleness-days', '3'], vault)).report.error,
		).toBe('max_staleness_days: the schema declares no "last_verified" field to filter on');
	});
});
