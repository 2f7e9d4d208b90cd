/**
 * Finding a base from what a user typed: a `.base` file by path or file name (`Books.base`,
 * `Templates/Bases/Books.base`), optionally with `#View name` as Obsidian's embeds write it, or a
 * note's ```base block (`Note#base`, `Note#base-2` for the second block).
 */
import { findNote, describeNoteRef } from '../note-ref';
import type { NoteSource } from '../port';
import { fileName } from '../paths';
import { BaseError } from './errors';

/** A located base: its text, where it is, the view named after `#` and the default `this`. */
export interface LocatedBase {
	/** `Templates/Bases/Books.base`, or `Note.md#base`. */
	label: string;
	/** The `.base` file or the note holding the block. */
	path: string;
	text: string;
	/** A view named in the reference (`Books.base#Top rated`), or null. */
	view: string | null;
	/** `this` when nothing else says: the base file itself, or the note embedding the block. */
	thisPath: string;
}

/** Every `.base` file of the vault, in walk order. */
export function baseFiles(source: NoteSource): string[] {
	return source.listFiles().filter((p) => p.toLowerCase().endsWith('.base'));
}

const BLOCK = /^(`{3,}|~{3,})[ \t]*base[ \t]*\r?\n([\s\S]*?)^\1[ \t]*$/gm;

/** The ```base blocks of a note's text, in order. */
export function baseBlocks(text: string): string[] {
	return [...text.matchAll(BLOCK)].map((m) => m[2]!);
}

/** Locate the base `ref` names; a {@link BaseError} names the parameter and near candidates. */
export async function locateBase(source: NoteSource, ref: string): Promise<LocatedBase> {
	const trimmed = ref.trim().replace(/^!?\[\[|\]\]$/g, '');
	if (trimmed === '') throw new BaseError('base: give a .base file or NOTE#base');
	const hash = trimmed.indexOf('#');
	const left = hash < 0 ? trimmed : trimmed.slice(0, hash);
	const fragment = hash < 0 ? null : trimmed.slice(hash + 1).trim();
	if (left.toLowerCase().endsWith('.base')) {
		const path = findBaseFile(source, left);
		const text = await source.readSideFile(path);
		if (text === null) throw new BaseError(`base: ${path} could not be read`);
		return { label: path, path, text, view: fragment || null, thisPath: path };
	}
	const note = findNote(source, left);
	if (note.kind !== 'found') throw new BaseError(describeNoteRef(note, 'base'));
	const m = /^base(?:-(\d+))?$/i.exec(fragment ?? 'base');
	if (!m)
		throw new BaseError(`base: "#${fragment}" — a note's base block is named #base (or #base-2 for the second)`);
	const blocks = baseBlocks(await source.read(note.path));
	const n = m[1] === undefined ? 1 : Number(m[1]);
	if (n < 1 || blocks.length < n)
		throw new BaseError(
			`base: ${note.path} has ${blocks.length} base block(s)${blocks.length ? `; use #base to #base-${blocks.length}` : ''}`,
		);
	return {
		label: `${note.path}#base${n > 1 ? `-${n}` : ''}`,
		path: note.path,
		text: blocks[n - 1]!,
		view: null,
		thisPath: note.path,
	};
}

function findBaseFile(source: NoteSource, wanted: string): string {
	const bases = baseFiles(source);
	const clean = wanted.replace(/^\/+/, '');
	const lower = clean.toLowerCase();
	const exact = bases.filter((p) => p.toLowerCase() === lower);
	if (exact.length === 1) return exact[0]!;
	const bySuffix = bases.filter((p) => `/${p.toLowerCase()}`.endsWith(`/${lower}`));
	if (bySuffix.length === 1) return bySuffix[0]!;
	if (bySuffix.length > 1)
		throw new BaseError(`base: "${wanted}" names ${bySuffix.length} files — give a path: ${bySuffix.join(', ')}`);
	const names = bases.map(fileName);
	const hint = names.length
		? `; bases in this vault: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}`
		: '; this vault has no .base files';
	throw new BaseError(`base: no base file "${wanted}"${hint}`);
}
