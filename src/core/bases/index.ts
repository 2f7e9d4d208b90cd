/** Bases (`.base` files and ```base blocks) evaluated outside Obsidian: the module's public face. */
import { describeNoteRef, findNote } from '../note-ref';
import type { NoteSource } from '../port';
import { BaseError } from './errors';

export { BaseError } from './errors';
export { baseBlocks, baseFiles, locateBase } from './locate';
export { runBase, type BaseHost, type BaseRequest, type BaseResult } from './run';
export type { BaseColumn, BaseGroup, BaseRow } from './view';
export { supportedFunctions } from './functions';

/** How a base finds the note `--this` names: a path or a note name, else an error naming the parameter. */
export function thisFinder(source: NoteSource): (name: string) => string {
	return (name) => {
		const exact = source.listFiles().find((p) => p === name);
		if (exact) return exact;
		const ref = findNote(source, name);
		if (ref.kind !== 'found') throw new BaseError(describeNoteRef(ref, 'this'));
		return ref.path;
	};
}
