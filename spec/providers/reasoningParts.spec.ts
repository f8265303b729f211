/**
 * What each decoder streams of the reasoning a tool loop must send back: Anthropic thinking and
 * redacted blocks ended whole (`reasoning-end` with the block index), Responses reasoning items ended
 * whole (id, summaries, encrypted content), Gemini signatures on the text parts they came with.
 */
import { from } from 'rxjs';
import { readStreamEvents, type StreamEvent } from 'rxjs-tool-calls';
import { anthropicEvent, responsesEvent, sseEvent, splitEveryByte } from 'rxjs-tool-calls/marbles';
import { loadFixtures } from '../helpers/fixtures';
import { collect } from '../helpers/reencode';
import { anthropicTurn, responsesTurn } from '../helpers/reasoningTurns';

function read(pieces: ReadonlyArray<string | Uint8Array>): StreamEvent[] {
  const { values, error } = collect(from(pieces).pipe(readStreamEvents()));
  if (error !== undefined) throw error;
  return values;
}
const reasoningEvents = (events: StreamEvent[]): StreamEvent[] => events.filter((e) => e.type === 'reasoning-delta' || e.type === 'reasoning-end' || e.type === 'text-delta');

describe('anthropic', () => {
  it('ends each thinking block with its whole text and signature, and each redacted block with its data, in block order', () => {
    const events = read(
      anthropicTurn([
        { kind: 'thinking', pieces: ['Two ', 'tools.'], signature: 'sig-A' },
        { kind: 'redacted', data: 'RED==' },
        { kind: 'text', pieces: ['Checking.'] },
        { kind: 'thinking', pieces: ['Then this.'], signature: 'sig-B' },
        { kind: 'call', id: 'toolu_1', name: 'f', args: {} },
      ]),
    );
    expect(reasoningEvents(events)).toEqual([
      { type: 'reasoning-delta', choice: 0, text: 'Two ' },
      { type: 'reasoning-delta', choice: 0, text: 'tools.' },
      { type: 'reasoning-delta', choice: 0, text: '', signature: 'sig-A' },
      { type: 'reasoning-end', choice: 0, index: 0, text: 'Two tools.', signature: 'sig-A' },
      { type: 'reasoning-end', choice: 0, index: 1, text: '', redacted: 'RED==' },
      { type: 'text-delta', choice: 0, text: 'Checking.' },
      { type: 'reasoning-delta', choice: 0, text: 'Then this.' },
      { type: 'reasoning-delta', choice: 0, text: '', signature: 'sig-B' },
      { type: 'reasoning-end', choice: 0, index: 3, text: 'Then this.', signature: 'sig-B' },
    ]);
    // The call keeps its block index, in the same numbering.
    expect(events.find((e) => e.type === 'tool-call-delta')).toMatchObject({ index: 4, id: 'toolu_1' });
  });

  it('takes text and signature given in the block start, joins signature deltas, and ends no block that never stopped', () => {
    const events = read([
      anthropicEvent('message_start', { message: { id: 'm', model: 'c', usage: { input_tokens: 1, output_tokens: 1 } } }),
      anthropicEvent('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: 'Whole', signature: 'S1' } }),
      anthropicEvent('content_block_stop', { index: 0 }),
      anthropicEvent('content_block_start', { index: 1, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      anthropicEvent('content_block_delta', { index: 1, delta: { type: 'signature_delta', signature: 'ab' } }),
      anthropicEvent('content_block_delta', { index: 1, delta: { type: 'signature_delta', signature: 'cd' } }),
      anthropicEvent('content_block_stop', { index: 1 }),
      anthropicEvent('content_block_start', { index: 2, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      anthropicEvent('content_block_delta', { index: 2, delta: { type: 'thinking_delta', thinking: 'cut' } }),
      anthropicEvent('message_delta', { delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 3 } }),
      anthropicEvent('message_stop'),
    ]);
    expect(events.filter((e) => e.type === 'reasoning-end')).toEqual([
      { type: 'reasoning-end', choice: 0, index: 0, text: 'Whole', signature: 'S1' },
      { type: 'reasoning-end', choice: 0, index: 1, text: '', signature: 'abcd' },
    ]);
    expect(events.filter((e) => e.type === 'reasoning-delta').map((e) => (e.type === 'reasoning-delta' ? [e.text, e.signature] : []))).toEqual([
      ['Whole', undefined],
      ['', 'S1'],
      ['', 'ab'],
      ['', 'cd'],
      ['cut', undefined],
    ]);
  });

  it('the recorded stream (thinking-then-no-arg-tool): one whole part, before the call', () => {
    const fixture = loadFixtures().find((f) => f.name === 'anthropic/thinking-then-no-arg-tool');
    const events = read(splitEveryByte(fixture?.bytes ?? new Uint8Array()));
    const end = events.findIndex((e) => e.type === 'reasoning-end');
    expect(events[end]).toMatchObject({ type: 'reasoning-end', index: 0, signature: expect.stringMatching(/^EoQDCm0IDhgCKkCDzGs2/) as unknown });
    expect(end).toBeLessThan(events.findIndex((e) => e.type === 'tool-call-delta'));
  });
});

describe('openai-responses', () => {
  it('ends a reasoning item with its id, summaries, reasoning_text content and encrypted content, at its output_index', () => {
    const events = read(
      responsesTurn([
        { kind: 'reasoning-item', id: 'rs_1', summary: [['A', 'b'], ['C']], encrypted: 'gAAA=' },
        { kind: 'call', id: 'call_1', name: 'f', args: { x: 1 } },
      ]),
    );
    expect(reasoningEvents(events)).toEqual([
      { type: 'reasoning-delta', choice: 0, text: 'A' },
      { type: 'reasoning-delta', choice: 0, text: 'b' },
      { type: 'reasoning-delta', choice: 0, text: 'C' },
      { type: 'reasoning-end', choice: 0, index: 0, text: '', itemId: 'rs_1', encryptedContent: 'gAAA=', summary: ['Ab', 'C'] },
    ]);
    expect(events.find((e) => e.type === 'tool-call-delta')).toMatchObject({ index: 1, id: 'call_1', metadata: { itemId: 'fc_call_1' } });
  });

  it('takes reasoning_text content as the text, and a reasoning item only the final output has (once)', () => {
    const item = {
      id: 'rs_9',
      type: 'reasoning',
      summary: [],
      content: [
        { type: 'reasoning_text', text: 'open ' },
        { type: 'reasoning_text', text: 'weights' },
      ],
    };
    const events = read([
      responsesEvent('response.created', { response: { id: 'r', model: 'm', output: [] } }),
      responsesEvent('response.completed', { response: { id: 'r', status: 'completed', output: [item, { ...item, id: 'rs_9' }] } }),
    ]);
    expect(events.filter((e) => e.type === 'reasoning-end')).toEqual([{ type: 'reasoning-end', choice: 0, index: 0, text: 'open weights', itemId: 'rs_9', summary: [] }]);
  });

  it('the recorded stream (reasoning then function call): the encrypted content of output_item.done, not of .added', () => {
    const fixture = loadFixtures().find((f) => f.name === 'openai/responses-reasoning-then-function-call');
    const source = new TextDecoder().decode(fixture?.bytes);
    const done = /"type":"response\.output_item\.done".*?"encrypted_content":"([^"]+)"/.exec(source)?.[1];
    const added = /"type":"response\.output_item\.added".*?"encrypted_content":"([^"]+)"/.exec(source)?.[1];
    expect(done).not.toBe(added);
    const ends = read([fixture?.bytes ?? new Uint8Array()]).filter((e) => e.type === 'reasoning-end');
    expect(ends).toEqual([{ type: 'reasoning-end', choice: 0, index: 0, text: '', itemId: 'rs_0050471a34b36ae60068c97bac4dcc819595fd0f80d6b3c405', encryptedContent: done, summary: [] }]);
  });
});

describe('gemini', () => {
  const chunk = (parts: unknown[], finishReason?: string): string =>
    sseEvent({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts }, ...(finishReason === undefined ? {} : { finishReason }) }] }) });

  it('keeps a signature on the text part it came with (an empty last part too), and on thought parts', () => {
    const events = read([
      chunk([{ text: 'plan', thought: true, thoughtSignature: 'T' }]),
      chunk([{ text: 'Hello', thoughtSignature: 'S1' }]),
      chunk([{ text: ' world' }]),
      chunk([{ text: '', thoughtSignature: 'S2' }], 'STOP'),
    ]);
    expect(reasoningEvents(events)).toEqual([
      { type: 'reasoning-delta', choice: 0, text: 'plan', signature: 'T' },
      { type: 'text-delta', choice: 0, text: 'Hello', signature: 'S1' },
      { type: 'text-delta', choice: 0, text: ' world' },
      { type: 'text-delta', choice: 0, text: '', signature: 'S2' },
    ]);
  });
});
