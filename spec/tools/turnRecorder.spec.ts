/**
 * `TurnRecorder`: one assistant turn from its events, in stream order, as the message builders get it.
 */
import type { StreamEvent } from 'rxjs-tool-calls';
import { TurnRecorder } from '../../src/tools/turnRecorder';

function record(events: ReadonlyArray<StreamEvent>) {
  const recorder = new TurnRecorder();
  for (const event of events) recorder.push(event);
  return recorder.step([]);
}

describe('TurnRecorder', () => {
  it('a reasoning-end is the part, whole, in place of the deltas before it; text pieces and calls keep their places', () => {
    const step = record([
      { type: 'reasoning-delta', choice: 0, text: 'Th' },
      { type: 'reasoning-delta', choice: 0, text: 'ink' },
      { type: 'reasoning-delta', choice: 0, text: '', signature: 'S' },
      { type: 'reasoning-end', choice: 0, index: 0, text: 'Think', signature: 'S' },
      { type: 'reasoning-end', choice: 0, index: 1, text: '', redacted: 'R' },
      { type: 'text-delta', choice: 0, text: 'Let ' },
      { type: 'text-delta', choice: 0, text: 'me.' },
      { type: 'tool-call-delta', choice: 0, index: 3, id: 'a', name: 'f', argumentsDelta: '' },
      { type: 'tool-call-delta', choice: 0, index: 3, argumentsDelta: '{}' },
      { type: 'text-delta', choice: 0, text: 'And' },
      { type: 'tool-call-delta', choice: 0, index: 5, id: 'b', name: 'g', argumentsDelta: '{}' },
      { type: 'tool-call-delta', choice: 0, index: 3, argumentsDelta: '' },
      { type: 'done' },
    ]);
    expect(step).toEqual({
      text: 'Let me.And',
      results: [],
      reasoning: [
        { text: 'Think', signature: 'S' },
        { text: '', redacted: 'R' },
      ],
      content: [
        { type: 'reasoning', part: { text: 'Think', signature: 'S' } },
        { type: 'reasoning', part: { text: '', redacted: 'R' } },
        { type: 'text', text: 'Let me.' },
        { type: 'call', index: 3 },
        { type: 'text', text: 'And' },
        { type: 'call', index: 5 },
      ],
    });
  });

  it('without reasoning-end, consecutive deltas form one part; a signature ends it (one that follows is a part of its own), as other output does', () => {
    const step = record([
      { type: 'reasoning-delta', choice: 0, text: 'a' },
      { type: 'reasoning-delta', choice: 0, text: 'b', signature: 'S1' },
      { type: 'reasoning-delta', choice: 0, text: '', signature: 'S2' },
      { type: 'reasoning-delta', choice: 0, text: 'c' },
      { type: 'text-delta', choice: 0, text: 'x' },
      { type: 'reasoning-delta', choice: 0, text: 'd', metadata: { field: 'reasoning' } },
      { type: 'reasoning-delta', choice: 0, text: 'e' },
    ]);
    expect(step.content).toEqual([
      { type: 'reasoning', part: { text: 'ab', signature: 'S1' } },
      { type: 'reasoning', part: { text: '', signature: 'S2' } },
      { type: 'reasoning', part: { text: 'c' } },
      { type: 'text', text: 'x' },
      { type: 'reasoning', part: { text: 'de', metadata: { field: 'reasoning' } } },
    ]);
  });

  it('a signed text piece (Gemini) ends at the next text; an empty signed piece joins the text before it', () => {
    const step = record([
      { type: 'text-delta', choice: 0, text: 'Hel' },
      { type: 'text-delta', choice: 0, text: 'lo', signature: 'S1' },
      { type: 'text-delta', choice: 0, text: ' world' },
      { type: 'text-delta', choice: 0, text: '', signature: 'S2' },
      { type: 'text-delta', choice: 0, text: '!' },
    ]);
    expect(step.content).toEqual([
      { type: 'text', text: 'Hello', signature: 'S1' },
      { type: 'text', text: ' world', signature: 'S2' },
      { type: 'text', text: '!' },
    ]);
  });

  it('calls without a wire index are placed by id, numbered in order of first sight; other choices are not recorded', () => {
    const step = record([
      { type: 'tool-call-delta', choice: 0, id: 'a', name: 'f', argumentsDelta: '{' },
      { type: 'tool-call-delta', choice: 0, argumentsDelta: '}' },
      { type: 'text-delta', choice: 1, text: 'other' },
      { type: 'reasoning-end', choice: 1, text: 'other', signature: 'X' },
      { type: 'tool-call-delta', choice: 1, index: 7, id: 'z', name: 'f', argumentsDelta: '{}' },
      { type: 'tool-call-delta', choice: 0, id: 'b', name: 'g', argumentsDelta: '{}' },
      { type: 'tool-call-delta', choice: 0, id: 'a', argumentsDelta: '' },
    ]);
    expect(step.content).toEqual([
      { type: 'call', index: 0 },
      { type: 'call', index: 1 },
    ]);
    expect(step.reasoning).toEqual([]);
  });
});
