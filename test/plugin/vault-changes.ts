/**
 * Random changes to a small vault, for the plugin's property tests: the live index (each change
 * reaches the plugin as an event) and the saved index (changes made while the plugin is closed).
 * Both then compare the plugin's answers with those of an engine built afresh.
 */
import fc from 'fast-check';
import type { PluginEngine } from '../../src/obsidian/plugin-engine';
import type { FakeApp } from './fake-app';

const FOLDERS = ['', 'notes/', 'notes/deep/', 'private/', 'archive/'];
const NAMES = ['alpha', 'beta', 'gamma', 'delta'];
const EXTENSIONS = ['.md', '.md', '.md', '.txt'];
export const TEXTS = [
	'Zebra migration notes. See [[beta]].',
	'---\ntags: [zebra]\nlinks: [alpha]\n---\nStripes and savannah.',
	'# Heading\n\nZebra crossing rules, [[gamma]] and [[alpha]].',
	'Savannah weather; nothing about stripes.',
	'---\naliases: [Stripy]\n---\nZebra herds, see [[notes/alpha]].',
	'Savannah weather; nothing about zebras.', // the same size as another text: only the mtime tells them apart
	'---\ntags: [zebra\n---\nZebra notes under frontmatter that does not parse.', // listed as skipped, indexed by its body
] as const;
const QUERIES = ['zebra', 'savannah', 'stripes', 'backlinks:alpha', 'crossing', 'stripy', 'weather'];

/** A change as drawn: numbers that pick the file, folder, name, extension and text when it is applied. */
export type Op =
	| { kind: 'create'; folder: number; name: number; ext: number; text: number }
	| { kind: 'write'; pick: number; text: number }
	| { kind: 'rename'; pick: number; folder: number; name: number; ext: number }
	| { kind: 'delete'; pick: number };

const place = {
	folder: fc.nat(FOLDERS.length - 1),
	name: fc.nat(NAMES.length - 1),
	ext: fc.nat(EXTENSIONS.length - 1),
};
export const op: fc.Arbitrary<Op> = fc.oneof(
	fc.record({ kind: fc.constant('create' as const), ...place, text: fc.nat(TEXTS.length - 1) }),
	fc.record({ kind: fc.constant('write' as const), pick: fc.nat(20), text: fc.nat(TEXTS.length - 1) }),
	fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(20), ...place }),
	fc.record({ kind: fc.constant('delete' as const), pick: fc.nat(20) }),
);

/** A change as it applies to the vault now. */
export type Change =
	| { kind: 'create'; path: string; text: string }
	| { kind: 'write'; path: string; text: string }
	| { kind: 'rename'; path: string; to: string }
	| { kind: 'delete'; path: string };

/** What `o` does to `app`'s files now, or null when it cannot apply (as a user could not). */
export function changeOf(app: FakeApp, o: Op): Change | null {
	const files = app.vault
		.getFiles()
		.map((f) => f.path)
		.sort();
	if (o.kind === 'create' || o.kind === 'rename') {
		const target = `${FOLDERS[o.folder]}${NAMES[o.name]}${EXTENSIONS[o.ext]}`;
		if (files.includes(target)) return null;
		if (o.kind === 'create') return { kind: 'create', path: target, text: TEXTS[o.text]! };
		return files.length === 0 ? null : { kind: 'rename', path: files[o.pick % files.length]!, to: target };
	}
	if (files.length === 0) return null;
	const path = files[o.pick % files.length]!;
	return o.kind === 'write' ? { kind: 'write', path, text: TEXTS[o.text]! } : { kind: 'delete', path };
}

/** What a user could compare: hits with their backlinks and tags, and a pack's sources. */
export async function answers(engine: Pick<PluginEngine, 'search' | 'pack'>): Promise<unknown> {
	const out: Record<string, unknown> = {};
	for (const q of QUERIES) {
		const r = await engine.search(q, { limit: 20 });
		out[q] =
			r.status === 'failed'
				? r.error
				: r.results.map((h) => ({ path: h.path, backlinks: h.backlinks, tags: h.tags }));
	}
	const pack = await engine.pack({ query: 'zebra stripes savannah', builtAt: '2026-01-01', budget: 4000 });
	out.pack = pack.pack.map((s) => `${s.path}#${s.section}`);
	return out;
}
