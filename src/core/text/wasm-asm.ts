/**
 * Just enough of WebAssembly's binary format to spell out a small module by hand in TypeScript
 * (no toolchain at build time): numbers, sections, and the instructions the byte scans use, each
 * as the bytes it encodes to.
 */

/** `value` as an unsigned LEB128 number (WebAssembly's sizes, counts, indices and offsets). */
export function leb(value: number): number[] {
	const out: number[] = [];
	let v = value;
	do {
		const byte = v & 0x7f;
		v >>>= 7;
		out.push(v === 0 ? byte : byte | 0x80);
	} while (v !== 0);
	return out;
}

/** `value` as a signed LEB128 number (the operand of `i32.const`). */
function sleb(value: number): number[] {
	const out: number[] = [];
	let v = value | 0;
	for (;;) {
		const byte = v & 0x7f;
		v >>= 7;
		if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
			out.push(byte);
			return out;
		}
		out.push(byte | 0x80);
	}
}

/** A WebAssembly section: its id, its size, its bytes. */
export function section(id: number, bytes: number[]): number[] {
	return [id, ...leb(bytes.length), ...bytes];
}

/** The value types. */
export const I32 = 0x7f;
export const V128 = 0x7b;

/** A SIMD instruction: its prefix and its number. */
const simd = (code: number): number[] => [0xfd, ...leb(code)];

/** The instructions, each as its bytes (memory ones take the address's constant offset; alignment 0 is a hint only). */
export const op = {
	unreachable: [0x00],
	block: [0x02, 0x40],
	loop: [0x03, 0x40],
	if: [0x04, 0x40],
	else: [0x05],
	end: [0x0b],
	br: (depth: number): number[] => [0x0c, ...leb(depth)],
	brIf: (depth: number): number[] => [0x0d, ...leb(depth)],
	return: [0x0f],
	call: (index: number): number[] => [0x10, ...leb(index)],
	select: [0x1b],
	get: (local: number): number[] => [0x20, ...leb(local)],
	set: (local: number): number[] => [0x21, ...leb(local)],
	tee: (local: number): number[] => [0x22, ...leb(local)],
	globalGet: (index: number): number[] => [0x23, ...leb(index)],
	globalSet: (index: number): number[] => [0x24, ...leb(index)],
	load: (offset: number): number[] => [0x28, 0, ...leb(offset)],
	load8: (offset: number): number[] => [0x2d, 0, ...leb(offset)],
	store: (offset: number): number[] => [0x36, 0, ...leb(offset)],
	store8: (offset: number): number[] => [0x3a, 0, ...leb(offset)],
	const: (value: number): number[] => [0x41, ...sleb(value)],
	eqz: [0x45],
	eq: [0x46],
	ne: [0x47],
	ltS: [0x48],
	ltU: [0x49],
	gtS: [0x4a],
	gtU: [0x4b],
	leS: [0x4c],
	geS: [0x4e],
	geU: [0x4f],
	clz: [0x67],
	ctz: [0x68],
	popcnt: [0x69],
	add: [0x6a],
	sub: [0x6b],
	and: [0x71],
	or: [0x72],
	shl: [0x74],
	divU: [0x6e],
	remU: [0x70],
	/** memory.copy (dest, source, length). */
	copy: [0xfc, 0x0a, 0, 0],
	v128Load: (offset: number): number[] => [...simd(0x00), 0, ...leb(offset)],
	v128Const: (bytes: number[]): number[] => [...simd(0x0c), ...bytes],
	splat8: simd(0x0f),
	eq8: simd(0x23),
	ltU8: simd(0x26),
	andnot: simd(0x4f),
	v128And: simd(0x4e),
	v128Or: simd(0x50),
	anyTrue: simd(0x53),
	bitmask8: simd(0x64),
};

/** v128.const of one byte sixteen times. */
export function splat(byte: number): number[] {
	return op.v128Const(Array<number>(16).fill(byte));
}

/** A function's type: its parameters and its one result (i32), or none. */
export function funcType(params: number[], result: boolean): number[] {
	return [0x60, ...leb(params.length), ...params, ...(result ? [1, I32] : [0])];
}

/** A function's body: its locals (runs of one type) and its code, sized. */
export function funcBody(locals: [count: number, type: number][], code: number[]): number[] {
	const body = [...leb(locals.length), ...locals.flatMap(([count, type]) => [...leb(count), type]), ...code, 0x0b];
	return [...leb(body.length), ...body];
}

/** A whole module: its types, functions (by type index), one memory of `pages` exported as `m`, globals, exports, bodies. */
export function wasmModule(parts: {
	types: number[][];
	functions: number[];
	pages: number;
	globals?: number[][];
	exports: [name: string, func: number][];
	bodies: number[][];
}): Uint8Array<ArrayBuffer> {
	const name = (text: string): number[] => [...leb(text.length), ...[...text].map((c) => c.charCodeAt(0))];
	const exported = [[...name('m'), 2, 0], ...parts.exports.map(([text, index]) => [...name(text), 0, ...leb(index)])];
	const globals = parts.globals ?? [];
	return new Uint8Array([
		...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
		...section(1, [...leb(parts.types.length), ...parts.types.flat()]),
		...section(3, [...leb(parts.functions.length), ...parts.functions.flatMap(leb)]),
		...section(5, [1, 0, ...leb(parts.pages)]),
		...(globals.length > 0 ? section(6, [...leb(globals.length), ...globals.flat()]) : []),
		...section(7, [...leb(exported.length), ...exported.flat()]),
		...section(10, [...leb(parts.bodies.length), ...parts.bodies.flat()]),
	]);
}

/** The part of WebAssembly's JavaScript API the scans use (core compiles without the DOM's or Node's types for it). */
export interface WasmApi {
	validate(bytes: Uint8Array): boolean;
	Module: new (bytes: Uint8Array) => object;
	Instance: new (module: object) => { exports: Record<string, unknown> };
}

/** A module's memory as the scans use it. */
export interface WasmMemory {
	readonly buffer: ArrayBuffer;
	grow(pages: number): number;
}

/** The host's WebAssembly, typed here (module-local: the DOM's and Node's own declarations are not core's). */
declare const WebAssembly: WasmApi | undefined;

/** WebAssembly's API where the host has it, else null. */
export function wasmApi(): WasmApi | null {
	return typeof WebAssembly === 'undefined' ? null : WebAssembly;
}
