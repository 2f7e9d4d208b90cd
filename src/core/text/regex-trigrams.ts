/**
 * The trigrams a regex requires: a small parser of the pattern (JavaScript syntax, as the matcher
 * takes it) that tracks, for each part, the finite set of strings it can match when that set is
 * small ("exact") and the trigram condition any text holding a match satisfies. Anything it does
 * not understand — inline flags, odd escapes, classes — requires nothing, so the answer is always a
 * superset: candidates may be too many, never too few (test/text/trigram.property.test.ts).
 */
import { foldCase, nfc } from './normalize';
import { allTrigrams, and, ANY, or, type TrigramQuery } from './trigram-query';

/** What one part of a pattern can match. */
interface Info {
	/** Every string it can match (index form), when few and short; null when unknown. */
	exact: string[] | null;
	/** A condition any text holding a match satisfies, beyond `exact`. */
	req: TrigramQuery;
}

const MAX_EXACT = 16;
const MAX_EXACT_LENGTH = 32;
const UNKNOWN: Info = { exact: null, req: ANY };
const EMPTY: Info = { exact: [''], req: ANY };

/** Thrown when the parser meets what it will not reason about; the pattern then requires nothing. */
class Bail extends Error {}

/** `info` as one condition: its requirement and its exact strings' trigrams. */
function full(info: Info): TrigramQuery {
	return info.exact ? and([info.req, or(info.exact.map(allTrigrams))]) : info.req;
}

/** `a` followed by `b`. */
function concat(a: Info, b: Info): Info {
	if (a.exact && b.exact && a.exact.length * b.exact.length <= MAX_EXACT) {
		const product = a.exact.flatMap((x) => (b.exact ?? []).map((y) => x + y));
		if (product.every((s) => s.length <= MAX_EXACT_LENGTH)) return { exact: product, req: and([a.req, b.req]) };
	}
	return { exact: b.exact, req: and([full(a), b.req]) };
}

/** Any one of `branches`. */
function alternate(branches: Info[]): Info {
	const exact = branches.every((b) => b.exact) ? [...new Set(branches.flatMap((b) => b.exact ?? []))] : null;
	if (exact && exact.length <= MAX_EXACT) return { exact, req: or(branches.map((b) => b.req)) };
	return { exact: null, req: or(branches.map(full)) };
}

const HEX = /^[0-9a-fA-F]+$/;

/** A recursive-descent reading of the pattern. */
class Reader {
	private i = 0;

	constructor(private readonly s: string) {}

	/** The whole pattern's condition. */
	read(): TrigramQuery {
		const info = this.alternation();
		if (this.i !== this.s.length) throw new Bail();
		return full(info);
	}

	private alternation(): Info {
		const branches = [this.sequence()];
		while (this.s[this.i] === '|') {
			this.i++;
			branches.push(this.sequence());
		}
		return branches.length === 1 ? branches[0]! : alternate(branches);
	}

	private sequence(): Info {
		let info = EMPTY;
		while (this.i < this.s.length && this.s[this.i] !== '|' && this.s[this.i] !== ')')
			info = concat(info, this.quantified(this.atom()));
		return info;
	}

	private quantified(atom: Info): Info {
		const c = this.s[this.i];
		let min: number;
		if (c === '*' || c === '?') {
			min = 0;
			this.i++;
		} else if (c === '+') {
			min = 1;
			this.i++;
		} else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.s.slice(this.i))) {
			const m = /^\{(\d+)(,\d*)?\}/.exec(this.s.slice(this.i)) ?? ['', '0'];
			min = Number(m[1]);
			this.i += m[0].length;
		} else return atom;
		if (this.s[this.i] === '?') this.i++;
		// A second quantifier: RE2 refuses most, and reading it as a literal would require too much.
		const next = this.s[this.i];
		if (next === '*' || next === '+' || next === '?' || (next === '{' && /^\{\d/.test(this.s.slice(this.i))))
			throw new Bail();
		return min === 0 ? UNKNOWN : { exact: null, req: full(atom) };
	}

	private atom(): Info {
		const c = this.s[this.i]!;
		if (c === '(') return this.group();
		if (c === '[') return this.charClass();
		if (c === '\\') return this.escape();
		if (c === '*' || c === '+' || c === '?') throw new Bail();
		this.i++;
		if (c === '.') return UNKNOWN;
		if (c === '^' || c === '$') return EMPTY;
		if (c === '\r') return UNKNOWN;
		const code = c.charCodeAt(0);
		if (code >= 0xd800 && code <= 0xdbff && this.i < this.s.length) return literal(c + this.s[this.i++]!);
		return literal(c);
	}

	private group(): Info {
		this.i++;
		if (this.s[this.i] === '?') {
			const head = /^\?(:|<[A-Za-z_]\w*>|P<[A-Za-z_]\w*>)/.exec(this.s.slice(this.i));
			if (!head) throw new Bail(); // inline flags, lookaround: reason about none of them
			this.i += head[0].length;
		}
		const inner = this.alternation();
		if (this.s[this.i] !== ')') throw new Bail();
		this.i++;
		return inner;
	}

	private charClass(): Info {
		this.i++;
		if (this.s[this.i] === '^') this.i++;
		if (this.s[this.i] === ']') throw new Bail();
		while (this.i < this.s.length && this.s[this.i] !== ']') this.i += this.s[this.i] === '\\' ? 2 : 1;
		if (this.i >= this.s.length) throw new Bail();
		this.i++;
		return UNKNOWN;
	}

	private escape(): Info {
		const d = this.s[this.i + 1];
		if (d === undefined) throw new Bail();
		this.i += 2;
		if (d === 'n') return literal('\n');
		if (d === 't') return literal('\t');
		if (d === 'x' || d === 'u') return this.hexEscape();
		if (/[A-Za-z0-9]/.test(d)) {
			if (d === 'p' || d === 'P') this.skipBraces();
			return d === 'b' || d === 'B' ? EMPTY : UNKNOWN;
		}
		return d === '\r' ? UNKNOWN : literal(d);
	}

	private hexEscape(): Info {
		const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(this.s.slice(this.i));
		const digits = braced ? braced[1]! : this.s.slice(this.i, this.i + (this.s[this.i - 1] === 'x' ? 2 : 4));
		if (!HEX.test(digits)) return UNKNOWN;
		this.i += braced ? braced[0].length : digits.length;
		const code = parseInt(digits, 16);
		return code > 0x10ffff || code === 0x0d ? UNKNOWN : literal(String.fromCodePoint(code));
	}

	private skipBraces(): void {
		if (this.s[this.i] !== '{') {
			this.i++;
			return;
		}
		const close = this.s.indexOf('}', this.i);
		if (close < 0) throw new Bail();
		this.i = close + 1;
	}
}

/** One literal character (or surrogate pair), folded. */
function literal(ch: string): Info {
	return { exact: [foldCase(ch)], req: ANY };
}

/** The trigram condition every text holding a match of `pattern` satisfies (`any` when there is none to use). */
export function regexQuery(pattern: string): TrigramQuery {
	try {
		return new Reader(nfc(pattern)).read();
	} catch {
		return ANY;
	}
}
