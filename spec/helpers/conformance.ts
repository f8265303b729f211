/** Test-only: run one shared fixture through an adapter and compare with its `.expected.json`. */
import type { OperatorFunction } from 'rxjs';
import { ProviderError } from '../../src/errors';
import type { SseEvent, StreamEvent } from '../../src/events';
import { loadFixture, runAdapter } from './fixtures';
import { parsedArguments, reassemble } from './reassemble';

export function checkFixture(stem: string, adapter: () => OperatorFunction<SseEvent, StreamEvent>): void {
  const { events, expected } = loadFixture(stem);
  const { out, error, completed } = runAdapter(events, adapter());
  const result = reassemble(out);

  expect(result.text).toBe(expected.text);
  if (expected.reasoning !== undefined) expect(result.reasoning).toBe(expected.reasoning);

  if (expected.errors !== undefined && expected.errors.length > 0) {
    expect(error).toBeInstanceOf(ProviderError);
    const wire = expected.errors[0]!.error;
    const providerError = error as ProviderError;
    expect(providerError.message).toContain(String(wire['message']));
    if (typeof wire['code'] === 'string') expect(providerError.providerCode).toBe(wire['code']);
  } else {
    expect(error).toBeUndefined();
    expect(completed).toBe(true);
    expect(result.finish?.rawReason ?? null).toBe(expected.finishReason);
  }

  expect(result.calls.map((c) => c.name)).toEqual(expected.toolCalls.map((c) => c.name));
  expected.toolCalls.forEach((want, position) => {
    const got = result.calls[position]!;
    expect(got.index).toBe(want.index);
    if (want.id !== null) expect(got.id).toBe(want.id);
    else expect(got.id).toBeUndefined();
    expect(parsedArguments(got.rawArguments)).toEqual(want.arguments);
    if (want.rawArguments !== null && want.rawArguments !== '') expect(got.rawArguments).toBe(want.rawArguments);
    if (want.itemId !== undefined) expect(got.metadata['itemId']).toBe(want.itemId);
    if (want.caller !== undefined) expect(got.metadata['caller']).toEqual(want.caller);
    if (want.type !== undefined && expected.api.startsWith('anthropic')) expect(got.metadata['type']).toBe(want.type);
    if (want.thoughtSignaturePresent === true) expect(typeof got.metadata['thoughtSignature']).toBe('string');
    if (expected.errors === undefined) expect(got.ended).toBe(true);
    expect(got.incomplete).toBe(want.blockStopped === false);
  });
}
