/**
 * Tokens of the Bases expression language (Obsidian's help, "Bases syntax"): numbers, single- or
 * double-quoted strings, `/regex/flags` literals, names, and the operators and punctuation.
 */
import { BaseError } from './errors';

/** One token with its 0-based offset in the expression. */
export type Token =
	| { kind: 'number'; value: number; pos: number }
	| { kind: 'string'; value: string; pos: number }
	| { kind: 'regex'; source: string; flags: string; pos: number }
	| { kind: 'name'; value: string; pos: number }
	| { kind: 'op'; value: string; pos: number }
	| { kind: 'end'; pos: number };

/** Longest expression accepted, in characters (formulas are one line; this is far above any real one). */
export const MAX_EXPRESSION_CHARS = 10_000;

const OPERATORS = [
	'&&',
	'||',
	'==',
	'!=',
	'>=',
	'<=',
	'+',
	'-',
	'*',
	'/',
	'%',
	'!',
	'<',
	'>',
	'(',
	')',
	'[',
	']',
	'{',
	'}',
	',',
	'.',
	':',
];
const ESCAPES: Record<string, string> = {
	n: '\n',
	t: '\t',
	r: '\r',
	'\\': '\\',
	'"': '"',
	"'": "'",
	'/': '/',
	'0': '\0',
};

// A `-` joins two parts of a name only between letters (`image-property`); `a - b` and `x-1` stay subtractions.
// Emoji sequences (a joiner U+200D, a variation selector U+FE0F) belong to a property name too, as emoji may name a property.
const NAME_CHAR = String.raw`(?:[\p{L}\p{N}\p{M}_$\p{Extended_Pictographic}]|\u200d|\ufe0f)`;
const NAME = new RegExp(String.raw`^${NAME_CHAR}+(?:-[\p{L}_]${NAME_CHAR}*)*`, 'u');

/** Split `text` into tokens; a {@link BaseError} names the first character that starts none. */
export function tokenize(text: string): Token[] {
	if (text.length > MAX_EXPRESSION_CHARS)
		throw new BaseError(
			`the expression is ${text.length} characters, longer than the ${MAX_EXPRESSION_CHARS}-character limit`,
		);
	const tokens: Token[] = [];
	let i = 0;
	while (i < text.length) {
		const ch = text[i]!;
		if (/\s/.test(ch)) {
			i++;
			continue;
		}
		const start = i;
		if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(text[i + 1] ?? '') && !endsValue(tokens))) {
			const m = /^(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i))!;
			tokens.push({ kind: 'number', value: Number(m[0]), pos: start });
			i += m[0].length;
		} else if (ch === '"' || ch === "'") {
			const [value, next] = readString(text, i);
			tokens.push({ kind: 'string', value, pos: start });
			i = next;
		} else if (ch === '/' && !endsValue(tokens)) {
			const [source, flags, next] = readRegex(text, i);
			tokens.push({ kind: 'regex', source, flags, pos: start });
			i = next;
		} else if (/[\p{L}_$]/u.test(ch) || ch.codePointAt(0)! > 0xff) {
			// Property names may hold letters of any script, digits, `_`, `-` (kepano's `image-property`) and emoji.
			const m = NAME.exec(text.slice(i));
			const word = m ? m[0] : String.fromCodePoint(text.codePointAt(i)!);
			tokens.push({ kind: 'name', value: word, pos: start });
			i += word.length;
		} else {
			const op = OPERATORS.find((o) => text.startsWith(o, i));
			if (!op) throw new BaseError(`unexpected character "${ch}"`, text, i);
			tokens.push({ kind: 'op', value: op, pos: start });
			i += op.length;
		}
	}
	tokens.push({ kind: 'end', pos: text.length });
	return tokens;
}

/** Whether the last token ends a value, so a following `/` or `.` is an operator, not a literal's start. */
function endsValue(tokens: Token[]): boolean {
	const last = tokens[tokens.length - 1];
	if (!last) return false;
	if (last.kind === 'op') return last.value === ')' || last.value === ']' || last.value === '}';
	return true;
}

function readString(text: string, start: number): [string, number] {
	const quote = text[start];
	let out = '';
	let i = start + 1;
	while (i < text.length && text[i] !== quote) {
		if (text[i] === '\\' && i + 1 < text.length) {
			const next = text[i + 1]!;
			if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
				out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
				i += 6;
				continue;
			}
			out += ESCAPES[next] ?? next;
			i += 2;
			continue;
		}
		out += text[i++];
	}
	if (i >= text.length) throw new BaseError('unterminated string', text, start);
	return [out, i + 1];
}

function readRegex(text: string, start: number): [string, string, number] {
	let i = start + 1;
	let inClass = false;
	while (i < text.length) {
		const ch = text[i];
		if (ch === '\\') i += 2;
		else {
			if (ch === '[') inClass = true;
			else if (ch === ']') inClass = false;
			else if (ch === '/' && !inClass) break;
			i++;
		}
	}
	if (i >= text.length) throw new BaseError('unterminated regular expression', text, start);
	const source = text.slice(start + 1, i);
	const flags = /^[a-z]*/.exec(text.slice(i + 1))![0];
	return [source, flags, i + 1 + flags.length];
}
