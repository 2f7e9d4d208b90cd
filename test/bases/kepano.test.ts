/**
 * kepano's vault as the judge of real bases: every view of its 30 `.base` files evaluates without
 * error, and a dozen views give the rows checked by hand against the notes (categories, ratings,
 * dates, the `icon` property of a linked note, backlinks of a category note).
 */
import { beforeAll, expect } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import type { BaseResult } from '../../src/core/bases/index';
import { openVault } from '../../src/node/vault-source';
import { hashTree } from '../helpers/hash';
import { KEPANO_VAULT } from '../helpers/paths';
import { describeShared, itShared } from '../helpers/shared';

const NOW = new Date(2025, 0, 15, 12, 0, 0).getTime();

describeShared("kepano's bases", () => {
	let engine: VaultEngine;
	let before: string;
	beforeAll(async () => {
		before = hashTree(KEPANO_VAULT);
		engine = new VaultEngine(await openVault(KEPANO_VAULT));
	});

	const view = (base: string, name?: string, self?: string): Promise<BaseResult> =>
		engine.base({ base, view: name, this: self, now: NOW });
	const names = (r: BaseResult): string[] => r.rows.map((row) => row.path);

	itShared('every view of every base evaluates without error', async () => {
		const bases = engine.baseFiles();
		expect(bases.length).toBe(30);
		let views = 0;
		for (const base of bases) {
			const listed = await engine.base({ base, list: true });
			expect(listed.status, `${base}: ${listed.error}`).toBe('success');
			for (const v of listed.views) {
				const r = await view(base, v.name);
				expect({ base, view: v.name, status: r.status, error: r.error, limitations: r.limitations }).toEqual({
					base,
					view: v.name,
					status: 'success',
					error: undefined,
					limitations: [],
				});
				views++;
			}
		}
		expect(views).toBeGreaterThan(60);
	});

	itShared('Books: the two notes in the Books category, by name; Template notes left out', async () => {
		const r = await view('Books.base', 'Books');
		expect(names(r)).toEqual(['References/Out of Control.md', 'References/The Machine Stops.md']);
		expect(r.columns.map((c) => c.name)).toEqual(['Name', 'Author', 'length', 'Year', 'rating', 'topics', 'last']);
		expect(r.rows[0]!.values).toMatchObject({
			'note.author': ['[[Kevin Kelly]]'],
			'note.year': 1992,
			'note.rating': 7,
		});
	});

	itShared('Books#Top rated (the embed syntax names the view): sorted by last read, newest first', async () => {
		const r = await engine.base({ base: 'Books.base#Top rated', now: NOW });
		expect(r.view).toBe('Top rated');
		expect(r.rows.map((row) => row.values['note.last'])).toEqual(['2023-09-12', '2023-09-12']);
	});

	itShared('Clippings: five notes in the Clippings category, newest clip first, undated last', async () => {
		const r = await view('Clippings.base', 'Clippings');
		expect(names(r)).toHaveLength(5);
		expect(names(r).at(-1)).toBe('Clippings/Buy wisely.md');
		expect(r.rows.at(-1)!.values['note.created']).toBeNull();
	});

	itShared('People and Places list their category notes with display names', async () => {
		expect(names(await view('People.base'))).toEqual([
			'References/Kevin Kelly.md',
			'References/Paul Chambers.md',
			'References/Steph Ango.md',
		]);
		const places = await view('Places.base', 'Places');
		expect(names(places)).toEqual(['References/Kyoto.md', 'References/Fushimi Inari.md']);
		expect(places.columns.map((c) => c.name)).toEqual(['Name', 'Rating', 'Location', 'Type', 'Last']);
	});

	itShared("Map: a formula reads the icon property of the note a row's type links to", async () => {
		const r = await view('Map.base', 'Map');
		const icon = Object.fromEntries(r.rows.map((row) => [row.path, row.values['formula.Icon']]));
		expect(icon['References/Fushimi Inari.md']).toBe('trees'); // type: [[Parks]]; Parks.md has icon: trees
	});

	itShared('Movies#Favorites and Posts: filters on ratings and categories, sorted by date', async () => {
		expect(names(await view('Movies.base', 'Favorites'))).toEqual(['References/Blade Runner.md']);
		const posts = await view('Posts.base');
		expect(posts.rows.map((row) => row.values['note.published'])).toEqual([
			'2023-09-29',
			'2023-08-06',
			'2022-09-16',
		]);
	});

	itShared('Backlinks with this = the Books category: the notes that link to it', async () => {
		const r = await view('Backlinks.base', 'Backlinks', 'Categories/Books.md');
		expect(r.this).toBe('Categories/Books.md');
		expect(new Set(names(r))).toEqual(
			new Set(['Templates/Book Template.md', 'References/Out of Control.md', 'References/The Machine Stops.md']),
		);
	});

	itShared('Meetings and Evergreen: one note each', async () => {
		expect(names(await view('Meetings.base', 'Meetings'))).toEqual(['Notes/2023-09-12 Meeting with Steph.md']);
		expect(names(await view('Evergreen.base'))).toEqual([
			'Notes/Evergreen notes turn ideas into objects that you can manipulate.md',
		]);
	});

	itShared('nothing was written inside the vault', () => {
		expect(hashTree(KEPANO_VAULT)).toBe(before);
	});
});
