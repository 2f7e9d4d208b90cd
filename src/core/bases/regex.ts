/**
 * Regular expressions in bases (`/abc/.matches(…)`, `replace(/:/g, "-")`, `split(/,/)`) run on the
 * project's linear-time engine: the same bounds and refusals as every user pattern
 * (`core/text/pattern.ts`), compiled by re2js, so no formula can take exponential time.
 */
import { RE2JS } from 're2js';
import { nfc } from '../text/normalize';
import { MAX_REGEX_PROGRAM, patternProblem } from '../text/pattern';
import { BaseError } from './errors';
import type { Call } from './fn-types';
import { textOf, typeOf, type RegexValue, type Value } from './values';

const cache = new Map<string, RegexValue>();

/** Compile `/source/flags`; a {@link BaseError} says why a pattern is refused. */
export function compileRegex(source: string, flags: string): RegexValue {
	const key = `${flags}/${source}`;
	const hit = cache.get(key);
	if (hit) return hit;
	const problem = patternProblem(source, true);
	if (problem) throw new BaseError(problem.replace(/^pattern: /, `regular expression /${source}/: `));
	const unknown = flags.replace(/[gimsu]/g, '');
	if (unknown !== '') throw new BaseError(`regular expression /${source}/${flags}: unknown flag "${unknown[0]}"`);
	let re: RE2JS;
	try {
		const bits =
			(flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) |
			(flags.includes('m') ? RE2JS.MULTILINE : 0) |
			(flags.includes('s') ? RE2JS.DOTALL : 0);
		re = RE2JS.compile(RE2JS.translateRegExp(nfc(source)), bits);
	} catch (error) {
		const message = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
		throw new BaseError(`regular expression /${source}/: invalid (RE2 syntax): ${message}`);
	}
	if (re.programSize() > MAX_REGEX_PROGRAM)
		throw new BaseError(
			`regular expression /${source}/: too complex once compiled (limit ${MAX_REGEX_PROGRAM} instructions)`,
		);
	const value: RegexValue = { kind: 'regex', source, flags, re };
	if (cache.size > 500) cache.clear();
	cache.set(key, value);
	return value;
}

/** The argument as a regex: a regex value, or a string compiled as one. */
export function regexOf(c: Call, v: Value): RegexValue {
	if (typeOf(v) === 'regexp') return v as RegexValue;
	if (typeof v !== 'string')
		return c.env.fail(`argument 1 must be a regular expression or a string, not ${typeOf(v)}`);
	return compileRegex(v, '');
}

/** `replace` with a regex: the first match, or every match with the `g` flag; `$1` names a group. */
export function replaceRegex(c: Call, text: string, re: RegexValue, replacement: string): string {
	c.env.budget.spend(Math.ceil(text.length / 100) + 1);
	const m = re.re.matcher(nfc(text));
	return re.flags.includes('g') ? m.replaceAll(replacement) : m.replaceFirst(replacement);
}

/** `split` at every match. */
export function splitRegex(c: Call, text: string, re: RegexValue): string[] {
	c.env.budget.spend(Math.ceil(text.length / 100) + 1);
	return re.re.split(nfc(text), -1);
}

/** Whether `re` matches somewhere in `v`'s text. */
export function regexMatches(re: RegexValue, v: Value): boolean {
	return re.re.test(nfc(textOf(v)));
}
