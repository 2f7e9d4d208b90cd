/**
 * Filling the token budget. Candidates arrive ranked (best first). Each is tried with its
 * longest quote choice, then shorter ones; the first that keeps the WHOLE rendered pack — frame,
 * coverage, gaps and handoff included — within the budget is taken. When even a candidate's
 * shortest choice does not fit, filling stops: the pack is always a prefix of the ranking, and
 * everything from there on is listed under GAPS as left out for budget.
 *
 * The frame is measured with every not-yet-placed candidate counted as left out (the longest
 * GAPS list it can have) and `tokens_used` as wide as the budget, so later steps can only make
 * the real pack smaller than what was checked; buildPack still measures the final Markdown.
 *
 * Placement then puts the best source first and the second best last, weaker ones in the middle:
 * long contexts are read least carefully in the middle.
 */
import { addCounts, tokensOf, type TokenCount } from './tokens';

/** One placed candidate: its index in the ranking and the quote choice used. */
export interface Chosen {
	item: number;
	variant: number;
}

/** How to measure candidates and the frame around them. */
export interface BudgetProblem {
	/** Token budget of the whole pack. */
	budget: number;
	/** Ranked candidates. */
	count: number;
	/** Quote choices of candidate `item`, longest first. */
	variants(item: number): number;
	/** Token count of candidate `item`'s block with choice `variant` and source id `id`. */
	block(item: number, variant: number, id: string): TokenCount;
	/** Token count of everything but the blocks, with `chosen` placed and `leftOut` listed under GAPS. */
	frame(chosen: readonly Chosen[], leftOut: readonly number[]): TokenCount;
}

/** What fits: the chosen candidates in rank order (S1, S2, …) and the ones left out for budget. */
export interface BudgetFill {
	chosen: Chosen[];
	leftOut: number[];
}

/** The source id of the n-th chosen candidate (0-based). */
export function sourceId(n: number): string {
	return `S${n + 1}`;
}

/** Greedy fill, best first, stopping at the first candidate that cannot fit (see the module comment). */
export function fillBudget(p: BudgetProblem): BudgetFill {
	const chosen: Chosen[] = [];
	let blocks: TokenCount = { cjk: 0, other: 0 };
	const rest = (from: number): number[] => Array.from({ length: Math.max(0, p.count - from) }, (_, k) => from + k);
	for (let item = 0; item < p.count; item++) {
		let placed = false;
		const id = sourceId(chosen.length);
		for (let v = 0; v < p.variants(item); v++) {
			const block = p.block(item, v, id);
			const next = [...chosen, { item, variant: v }];
			if (tokensOf(addCounts(blocks, block, p.frame(next, rest(item + 1)))) <= p.budget) {
				chosen.push({ item, variant: v });
				blocks = addCounts(blocks, block);
				placed = true;
				break;
			}
		}
		if (!placed) return { chosen, leftOut: rest(item) };
	}
	return { chosen, leftOut: [] };
}

/**
 * Placement of n sources given in rank order: the best first, the second best last, the rest
 * in rank order between them. Returns rank indices in reading order.
 *
 * @example
 * placement(4); // [0, 2, 3, 1]
 */
export function placement(n: number): number[] {
	if (n < 2) return Array.from({ length: n }, (_, i) => i);
	return [0, ...Array.from({ length: n - 2 }, (_, i) => i + 2), 1];
}
