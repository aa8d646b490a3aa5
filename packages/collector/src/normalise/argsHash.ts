const HEX = '0123456789abcdef';

function hex32(n: number): string {
  let out = '';
  for (let shift = 28; shift >= 0; shift -= 4) out += HEX[(n >>> shift) & 15];
  return out;
}

/**
 * A 16-hex-digit hash of a tool call's arguments as an instrumentation
 * recorded them (`ai.toolCall.args`, `gen_ai.tool.call.arguments`,
 * OpenInference `input.value`…): 64-bit FNV-1a over the UTF-16 code units,
 * computed in two 32-bit halves with no allocation but the result. It is
 * what the loop detector compares — the same tool with the same arguments
 * within a run — so it only has to be stable for the same text; our SDK
 * sends its own `telltale.tool.args_hash` (SHA-256 of canonical JSON), which
 * takes precedence. Non-string values (arrays, maps) are not hashed: ''.
 */
export function argsHash(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  // FNV-1a 64: offset basis 0xcbf29ce484222325, prime 0x100000001b3 (= 2^40 + 0x1b3)
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (let i = 0; i < value.length; i++) {
    lo = (lo ^ value.charCodeAt(i)) >>> 0;
    // (hi:lo) × 0x100000001b3 mod 2^64: lo×0x1b3, hi×0x1b3 + lo×2^8 (the 2^40 term's high half) + carry
    const loMul = lo * 0x1b3;
    const carry = Math.floor(loMul / 0x1_0000_0000);
    hi = (Math.imul(hi, 0x1b3) + (lo << 8) + carry) >>> 0;
    lo = loMul >>> 0;
  }
  return hex32(hi) + hex32(lo);
}
