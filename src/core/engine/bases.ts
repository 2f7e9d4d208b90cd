/** The engine's `base` operations: a base's view evaluated over the notes the scope keeps, and the bases there are. */
import { baseFiles, runBase, thisFinder, type BaseRequest, type BaseResult } from '../bases/index';
import type { LinkGraph } from '../link-graph';
import type { NoteSource } from '../port';
import type { ScopeRules } from '../scope';

/** A base's view (or, with `list`, its views): the `vault-query base --json` object. */
export function baseAnswer(
	source: NoteSource,
	rules: ScopeRules,
	graph: LinkGraph,
	request: BaseRequest,
): Promise<BaseResult> {
	return runBase({ source, rules, backlinks: (p) => graph.linkersOf(p), findThis: thisFinder(source) }, request);
}

/** Every `.base` file the scope rules keep, in walk order. */
export function basesInScope(source: NoteSource, rules: ScopeRules): string[] {
	return baseFiles(source).filter((p) => rules.ruleFor(p) === null);
}
