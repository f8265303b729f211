/**
 * fast-check arbitraries of reasoning turns (the blocks of `reasoningTurns.ts`) for the round-trip
 * property of `spec/tools/reasoningRoundTrip.property.spec.ts`.
 */
import fc from 'fast-check';
import type { CallBlock, TurnBlock, TurnFormat } from './reasoningTurns';

export const TOOL_NAMES = ['get_weather', 'get_time', 'search'] as const;

const piece = fc.string({ minLength: 1, maxLength: 6, unit: 'grapheme' });
const pieces = fc.array(piece, { minLength: 1, maxLength: 4 });
const opaque = fc.string({ minLength: 1, maxLength: 24 });
const args = fc.dictionary(fc.constantFrom('city', 'q', 'n'), fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxKeys: 2 });

type Draft = Exclude<TurnBlock, CallBlock> | { readonly kind: 'call'; readonly name: string; readonly args: Readonly<Record<string, unknown>>; readonly signature?: string };

function draftBlocks(format: TurnFormat): fc.Arbitrary<Draft> {
  const call = fc.record(
    { kind: fc.constant('call' as const), name: fc.constantFrom(...TOOL_NAMES), args, ...(format === 'gemini' ? { signature: opaque } : {}) },
    { requiredKeys: ['kind', 'name', 'args'] },
  );
  const text =
    format === 'gemini'
      ? fc.record({ kind: fc.constant('text' as const), pieces, signature: opaque, signatureApart: fc.boolean() }, { requiredKeys: ['kind', 'pieces'] })
      : fc.record({ kind: fc.constant('text' as const), pieces });
  switch (format) {
    case 'anthropic':
      return fc.oneof(fc.record({ kind: fc.constant('thinking' as const), pieces, signature: opaque }), fc.record({ kind: fc.constant('redacted' as const), data: opaque }), text, call);
    case 'openai-responses':
      return fc.oneof(
        fc.record({ kind: fc.constant('reasoning-item' as const), id: fc.constant(''), summary: fc.array(pieces, { maxLength: 2 }), encrypted: opaque }, { requiredKeys: ['kind', 'id', 'summary'] }),
        text,
        call,
      );
    case 'openai-chat':
      return fc.oneof(fc.record({ kind: fc.constant('thinking' as const), pieces }), text, call);
    case 'gemini':
      return fc.oneof(fc.record({ kind: fc.constant('thinking' as const), pieces, signature: opaque }, { requiredKeys: ['kind', 'pieces'] }), text, call);
  }
}

/** A turn of `format` with at least one call; ids unique by position. */
export function turnArbitrary(format: TurnFormat): fc.Arbitrary<TurnBlock[]> {
  // A chat server streams its reasoning in one field: `reasoning` (Groq-style) for a whole turn or none of it.
  return fc
    .tuple(fc.array(draftBlocks(format), { minLength: 1, maxLength: 7 }), format === 'openai-chat' ? fc.boolean() : fc.constant(false))
    .filter(([drafts]) => drafts.some((d) => d.kind === 'call'))
    .map(([drafts, inReasoning]) =>
      drafts.map((d, i): TurnBlock => {
        if (d.kind === 'call') return { ...d, id: `call_${i}` };
        if (d.kind === 'reasoning-item') return { ...d, id: `rs_${i}` };
        if (d.kind === 'thinking' && inReasoning) return { ...d, field: 'reasoning' };
        return d;
      }),
    );
}
