/** Bases (`.base` files and ```base blocks) evaluated outside Obsidian: the module's public face. */
import { describeNoteRef, findNote } from '../note-ref';
import type { NoteSource } from '../port';
import { FileModel, type BaseData } from './data';
import { BaseError } from './errors';
import { compile, Evaluator } from './evaluate';
import type { Value } from './values';

export { BaseError } from './errors';
export { baseBlocks, baseFiles, locateBase } from './locate';
export { baseData, runBase, type BaseHost, type BaseRequest, type BaseResult } from './run';
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

/** Where one expression is evaluated: the row, `this`, the clock and extra names (`values`). */
export interface ExpressionContext {
	row?: string | null;
	this?: string | null;
	now?: number;
	formulas?: ReadonlyMap<string, string>;
	names?: Readonly<Record<string, Value>>;
}

/** Evaluate one expression over `data` (the evaluator a base's views use); throws {@link BaseError}. */
export function evaluateExpression(data: BaseData, text: string, context: ExpressionContext = {}): Value {
	const ev = new Evaluator(
		new FileModel(data),
		context.formulas ?? new Map(),
		context.this ?? null,
		context.now ?? Date.now(),
		context.names,
	);
	return ev.forRow(context.row ?? null).evaluate(compile(text));
}

export { plainOf, textOf, typeOf, type Value } from './values';
export type { BaseData } from './data';
export { cellText, renderBaseCsv, renderBaseMarkdown, renderBaseText } from './render';
