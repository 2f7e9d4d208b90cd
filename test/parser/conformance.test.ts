/**
 * Conformance: our parser against real Obsidian 1.9 output (shared/conformance/obsidian-1.9,
 * read in place, never copied). For every recorded note, every field we produce must equal
 * Obsidian's, except the entries in KNOWN_DIFFERENCES — each with its reason — which must
 * still differ (so a fixed one is noticed and removed from the list).
 */
import { pathToFileURL } from 'node:url';
import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { expect, it } from 'vitest';
import type { CachedMetadata } from '../../src/core/metadata';
import { getAllTags, parseFrontMatterTags } from '../../src/core/obsidian-rules';
import { parseNote } from '../../src/node/parser/index';
import { CORPUS_DIR, describeShared, HAS_SHARED } from '../helpers/shared';

const CORPUS = pathToFileURL(`${CORPUS_DIR}/`);

/** One recorded note. */
interface Recorded {
	filePath: string;
	fileContents: string;
	cachedMetadata: CachedMetadata;
	getAllTags: string[] | null;
	parseFrontMatterTags: string[] | null;
}

/** The CachedMetadata fields compared (Obsidian's extra keys such as `v` are ignored). */
const FIELDS = [
	'frontmatter',
	'frontmatterPosition',
	'frontmatterLinks',
	'links',
	'embeds',
	'tags',
	'headings',
	'blocks',
	'sections',
	'listItems',
] as const;

/** `file.json:field` → why our output differs from Obsidian's there. Goal: empty. */
const KNOWN_DIFFERENCES: Record<string, string> = {};

const files = (HAS_SHARED ? readdirSync(CORPUS) : []).filter((f) => f.endsWith('.json')).sort();

/** Drop keys Obsidian adds that are not part of the CachedMetadata contract (e.g. `v`). */
function strip(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(strip);
	if (typeof value !== 'object' || value === null) return value;
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(value)) if (k !== 'v') out[k] = strip(v);
	return out;
}

/** The compared entries of one note: theirs and ours, by entry name. */
function entries(file: string): Array<{ name: string; theirs: unknown; ours: unknown }> {
	const rec = JSON.parse(readFileSync(new URL(file, CORPUS), 'utf8')) as Recorded;
	const { metadata } = parseNote(rec.fileContents);
	const theirs = rec.cachedMetadata as Record<string, unknown>;
	const ours = metadata as Record<string, unknown>;
	const out: Array<{ name: string; theirs: unknown; ours: unknown }> = FIELDS.map((field) => ({
		name: field,
		theirs: strip(theirs[field]),
		ours: ours[field],
	}));
	out.push({ name: 'getAllTags', theirs: rec.getAllTags ?? [], ours: getAllTags(metadata) });
	out.push({
		name: 'parseFrontMatterTags',
		theirs: rec.parseFrontMatterTags,
		ours: parseFrontMatterTags(metadata.frontmatter),
	});
	return out;
}

describeShared(`conformance with Obsidian 1.9 (${files.length} recorded notes)`, () => {
	it('finds the corpus', () => {
		expect(files.length).toBeGreaterThan(50);
	});

	for (const file of files) {
		it(file, () => {
			for (const { name, theirs, ours } of entries(file)) {
				const key = `${file}:${name}`;
				if (key in KNOWN_DIFFERENCES) {
					expect(
						isDeepStrictEqual(ours, theirs),
						`${key} is listed as a known difference but now matches: remove it`,
					).toBe(false);
				} else {
					expect(ours, key).toEqual(theirs);
				}
			}
		});
	}

	it('lists only known differences that exist', () => {
		for (const key of Object.keys(KNOWN_DIFFERENCES)) expect(files).toContain(key.split(':')[0]);
	});
});
