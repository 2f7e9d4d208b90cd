/**
 * Compiling user regexes safely. JavaScript has no regex timeout, so a pattern such as
 * `(a+)+$` can freeze Obsidian on one long line. We refuse the classic catastrophic shapes up
 * front (a quantified group that itself contains a quantifier), and say so in the
 * error.
 */

/** Find a group that is quantified and contains a quantifier inside it: `(a+)+`, `(\w*)*`, `(x+y?){2,}`. */
export function nestedQuantifier(pattern: string): string | null {
	const stack: number[] = [];
	const inner: boolean[] = [];
	for (let i = 0; i < pattern.length; i++) {
		const ch = pattern[i];
		if (ch === '\\') {
			i++;
			continue;
		}
		if (ch === '[') {
			// Skip a character class: quantifiers inside it are literal.
			while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
			continue;
		}
		if (ch === '(') {
			stack.push(i);
			inner.push(false);
		} else if (ch === ')') {
			const start = stack.pop();
			const risky = inner.pop() ?? false;
			const next = pattern[i + 1];
			const quantified = next === '*' || next === '+' || (next === '{' && /^\{\d*,\d*\}/.test(pattern.slice(i + 1)));
			if (start !== undefined && risky && quantified) return pattern.slice(start, i + 2);
			if (inner.length > 0 && (risky || quantified)) inner[inner.length - 1] = true;
		} else if ((ch === '*' || ch === '+' || (ch === '{' && /^\{\d+,\d*\}/.test(pattern.slice(i)))) && inner.length > 0) {
			inner[inner.length - 1] = true;
		}
	}
	return null;
}
