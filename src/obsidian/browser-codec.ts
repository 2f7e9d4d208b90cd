import type { CodecHost } from '../core/snapshot/port';

/** The codec's host in a browser: TextEncoder and TextDecoder, made on first use (the checksum is the codec's own); the main thread's and the index worker's (no DOM, no Node module). */
export const browserCodecHost: CodecHost = (() => {
	let utf8: { encoder: TextEncoder; decoder: TextDecoder } | null = null;
	const get = (): { encoder: TextEncoder; decoder: TextDecoder } =>
		(utf8 ??= { encoder: new TextEncoder(), decoder: new TextDecoder() });
	return {
		encode: (text) => get().encoder.encode(text),
		encodeInto: (text, target, at) => get().encoder.encodeInto(text, target.subarray(at)).written,
		decode: (bytes, start, end) => get().decoder.decode(bytes.subarray(start, end)),
	};
})();
