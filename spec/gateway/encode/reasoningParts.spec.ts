/**
 * The encoders and the reasoning parts: what a format can carry of a part is written so that a
 * reader of the encoded stream gets the same part back (Anthropic thinking blocks with their
 * signatures and redacted blocks, Responses reasoning items with their id and encrypted content,
 * Gemini text signatures); what it cannot carry is left out.
 */
import { from } from 'rxjs';
import type { StreamEvent } from 'rxjs-tool-calls';
import { collect, encoderFor, eventsOf, type Target } from '../../helpers/reencode';
import { anthropicTurn, responsesTurn, type TurnBlock } from '../../helpers/reasoningTurns';

/** Events → the target's SSE text (no error expected). */
function encode(events: ReadonlyArray<StreamEvent>, target: Target, options: { reasoning?: 'keep' | 'drop' } = {}): string {
  const { values, error } = collect(from(events).pipe(encoderFor(target, options)));
  if (error !== undefined) throw error;
  return values.join('');
}
/** The reasoning parts, text and call starts of a stream, in order. */
function turnView(events: ReadonlyArray<StreamEvent>): unknown[] {
  return events.flatMap((e): unknown[] => {
    if (e.type === 'reasoning-end') {
      const { type: _t, choice: _c, index: _i, ...part } = e;
      return [{ part }];
    }
    if (e.type === 'text-delta') return [{ text: e.text, ...(e.signature === undefined ? {} : { signature: e.signature }) }];
    if (e.type === 'tool-call-delta' && e.name !== undefined) return [{ call: e.name }];
    return [];
  });
}
const read = (text: string): StreamEvent[] => {
  const { events, error } = eventsOf(text);
  if (error !== undefined) throw error;
  return events;
};

const anthropicBlocks: TurnBlock[] = [
  { kind: 'thinking', pieces: ['Two ', 'tools.'], signature: 'sig-A' },
  { kind: 'redacted', data: 'RED==' },
  { kind: 'text', pieces: ['Checking.'] },
  { kind: 'thinking', pieces: ['More.'], signature: 'sig-B' },
  { kind: 'call', id: 'toolu_1', name: 'f', args: { a: 1 } },
];

describe('anthropic encoder', () => {
  it('an Anthropic stream re-encoded gives back the same thinking and redacted blocks, whole, in order', () => {
    const source = read(anthropicTurn(anthropicBlocks).join(''));
    const back = read(encode(source, 'anthropic'));
    expect(turnView(back)).toEqual(turnView(source));
    expect(turnView(back)).toEqual([
      { part: { text: 'Two tools.', signature: 'sig-A' } },
      { part: { text: '', redacted: 'RED==' } },
      { text: 'Checking.' },
      { part: { text: 'More.', signature: 'sig-B' } },
      { call: 'f' },
    ]);
  });

  it('writes a part that came whole (no deltas) whole, its signature once, and a signed part ends its block', () => {
    const events: StreamEvent[] = [
      { type: 'reasoning-end', choice: 0, text: 'whole', signature: 'W' },
      { type: 'reasoning-delta', choice: 0, text: 'a', signature: 'S1' },
      { type: 'reasoning-delta', choice: 0, text: 'b', signature: 'S2' },
      { type: 'reasoning-delta', choice: 0, text: 'c' },
      { type: 'reasoning-end', choice: 0, text: 'c', signature: 'S3' },
      { type: 'done' },
    ];
    const written = encode(events, 'anthropic');
    expect(written.match(/"signature_delta"/g)).toHaveLength(4);
    expect(turnView(read(written))).toEqual([
      { part: { text: 'whole', signature: 'W' } },
      { part: { text: 'a', signature: 'S1' } },
      { part: { text: 'b', signature: 'S2' } },
      { part: { text: 'c', signature: 'S3' } },
    ]);
  });

  it('leaves out what Anthropic cannot carry: a Responses item without text, a text part’s signature; and all reasoning with reasoning: drop', () => {
    const events: StreamEvent[] = [
      { type: 'reasoning-end', choice: 0, text: '', itemId: 'rs_1', encryptedContent: 'gAAA' },
      { type: 'text-delta', choice: 0, text: '', signature: 'G' },
      { type: 'text-delta', choice: 0, text: 'Hi' },
      { type: 'done' },
    ];
    expect(turnView(read(encode(events, 'anthropic')))).toEqual([{ text: 'Hi' }]);
    const source = read(anthropicTurn(anthropicBlocks).join(''));
    expect(turnView(read(encode(source, 'anthropic', { reasoning: 'drop' })))).toEqual([{ text: 'Checking.' }, { call: 'f' }]);
  });
});

describe('openai-responses encoder', () => {
  it('a Responses stream re-encoded gives back each reasoning item whole: its id and encrypted content (written whole when it had no deltas)', () => {
    const blocks: TurnBlock[] = [
      { kind: 'reasoning-item', id: 'rs_enc', summary: [], encrypted: 'gAAA-enc' },
      { kind: 'call', id: 'call_1', name: 'f', args: {} },
    ];
    const back = read(encode(read(responsesTurn(blocks).join('')), 'openai-responses'));
    expect(turnView(back)).toEqual([{ part: { text: '', itemId: 'rs_enc', encryptedContent: 'gAAA-enc', summary: [] } }, { call: 'f' }]);
  });

  it('an item streamed as deltas keeps its encrypted content in the done item (under the encoder’s own id); an Anthropic redacted block is left out', () => {
    const source = read(
      responsesTurn([
        { kind: 'reasoning-item', id: 'rs_1', summary: [['Sum']], encrypted: 'gAAA-1' },
        { kind: 'call', id: 'call_1', name: 'f', args: {} },
      ]).join(''),
    );
    const [part] = read(encode([...source.slice(0, -1), { type: 'reasoning-end', choice: 0, text: '', redacted: 'R' }, { type: 'done' }], 'openai-responses')).filter(
      (e) => e.type === 'reasoning-end',
    );
    expect(part).toMatchObject({ type: 'reasoning-end', text: 'Sum', encryptedContent: 'gAAA-1', itemId: expect.stringMatching(/^rs_/) as unknown });
    const ends = read(encode([{ type: 'reasoning-end', choice: 0, text: '', redacted: 'R' }, { type: 'done' }], 'openai-responses')).filter((e) => e.type === 'reasoning-end');
    expect(ends).toEqual([]);
  });
});

describe('gemini and chat encoders', () => {
  it('gemini writes a text part’s signature on it; a reader gets it back on the same text', () => {
    const events: StreamEvent[] = [
      { type: 'text-delta', choice: 0, text: 'Hello', signature: 'S1' },
      { type: 'text-delta', choice: 0, text: '', signature: 'S2' },
      { type: 'reasoning-end', choice: 0, text: '', redacted: 'R' },
      { type: 'done' },
    ];
    expect(turnView(read(encode(events, 'gemini')))).toEqual([
      { text: 'Hello', signature: 'S1' },
      { text: '', signature: 'S2' },
    ]);
  });

  it('chat writes neither signatures nor parts: an empty signed text writes nothing', () => {
    const written = encode([{ type: 'text-delta', choice: 0, text: '', signature: 'S' }, { type: 'reasoning-end', choice: 0, text: 'x', signature: 'T' }, { type: 'done' }], 'openai-chat');
    expect(written).not.toMatch(/"content"|"S"|"T"/);
  });
});
