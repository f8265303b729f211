/**
 * No hidden work: nothing runs, and nothing stays, that a user's subscription did not cause. A
 * user's decoder sees only the user's bytes, once per subscription and only when they arrive; no
 * work is queued after a subscription; unsubscribing lets go of the source; and no module of the
 * library keeps mutable state of its own (checked in the sources).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Subject, type OperatorFunction } from 'rxjs';
import ts from 'typescript';
import { chatState, openaiChat, partialObject, partialToolCalls, readStreamEvents, readToolCalls, toolCalls, type FramedRecord, type StreamEvent } from 'rxjs-tool-calls';
import { wireFormat, type WireDecoder, type EventSink } from 'rxjs-tool-calls/advanced';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** A format whose decoder records every event it is given. */
function spyFormat(seen: string[], made: { count: number }) {
  return wireFormat({
    ...openaiChat,
    format: 'spy-chat',
    decoder: (): WireDecoder => {
      made.count++;
      const inner = openaiChat.decoder();
      return {
        provider: inner.provider,
        sse: (event: FramedRecord, emit: EventSink) => {
          seen.push(event.data);
          inner.sse(event, emit);
        },
        payload: (name, payload, emit) => inner.payload(name, payload, emit),
        end: (emit) => inner.end(emit),
        interrupt: (error, emit) => inner.interrupt?.(error, emit) === true,
      };
    },
  });
}

describe('no hidden work', () => {
  it("a user's decoder is made at the first byte of each subscription and sees only that stream's events", async () => {
    const seen: string[] = [];
    const made = { count: 0 };
    const format = spyFormat(seen, made);
    const source = new Subject<string>();
    const results: unknown[] = [];
    source.pipe(readToolCalls({ provider: format })).subscribe((r) => results.push(r));
    await tick();
    expect(made.count).toBe(0); // nothing before the first byte, not even in a later turn
    expect(seen).toEqual([]);
    source.next(openaiChunk({ toolCalls: [{ index: 0, id: 'c1', name: 'f', arguments: '{}' }], finishReason: 'tool_calls' }));
    source.next(openaiDone());
    source.complete();
    await tick();
    expect(made.count).toBe(1);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe('[DONE]');
    expect(results).toHaveLength(1);
  });

  it('queues nothing after a subscription: no timer, no microtask work', async () => {
    const made = { count: 0 };
    const seen: string[] = [];
    const format = spyFormat(seen, made);
    jest.useFakeTimers();
    try {
      const source = new Subject<string>();
      const subscription = source.pipe(readStreamEvents({ provider: format })).subscribe();
      expect(jest.getTimerCount()).toBe(0);
      subscription.unsubscribe();
    } finally {
      jest.useRealTimers();
    }
    await Promise.resolve();
    await tick();
    expect(made.count).toBe(0);
  });

  it.each<[string, () => OperatorFunction<string, unknown>]>([
    ['readToolCalls()', () => readToolCalls()],
    ['readStreamEvents()', () => readStreamEvents()],
  ])('%s: unsubscribing lets go of the source', (_name, make) => {
    const source = new Subject<string>();
    const subscription = source.pipe(make()).subscribe({ error: () => undefined });
    source.next(openaiChunk({ toolCalls: [{ index: 0, id: 'c1', name: 'f', arguments: '{"a' }] }));
    expect(source.observed).toBe(true);
    subscription.unsubscribe();
    expect(source.observed).toBe(false);
  });

  it.each<[string, () => OperatorFunction<StreamEvent, unknown>]>([
    ['toolCalls()', () => toolCalls()],
    ['partialToolCalls()', () => partialToolCalls()],
    ['partialObject()', () => partialObject()],
    ['chatState()', () => chatState()],
  ])('%s: unsubscribing lets go of the source', (_name, make) => {
    const source = new Subject<StreamEvent>();
    const subscription = source.pipe(make()).subscribe({ error: () => undefined });
    source.next({ type: 'tool-call-delta', choice: 0, index: 0, id: 'c1', name: 'f', argumentsDelta: '{"a' });
    expect(source.observed).toBe(true);
    subscription.unsubscribe();
    expect(source.observed).toBe(false);
  });
});

const SRC = path.resolve(__dirname, '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/**
 * Module-level declarations that could hold state: `let`/`var`, and `const`s made with `new` of
 * something other than a read-only lookup (`Set`, `RegExp`, `TextDecoder` used without
 * `{ stream: true }`, which keeps nothing between calls).
 */
function moduleState(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of list.declarations) {
      const name = declaration.name.getText(source);
      if (!isConst) {
        found.push(`${name} (let/var)`);
        continue;
      }
      const init = declaration.initializer;
      if (init !== undefined && ts.isNewExpression(init)) {
        const made = init.expression.getText(source);
        if (!['Set', 'RegExp', 'TextDecoder'].includes(made)) found.push(`${name} (new ${made})`);
      }
    }
  }
  return found;
}

describe('no module-level state in src/', () => {
  it.each(sources(SRC).map((file) => [path.relative(SRC, file), file] as const))('%s declares no mutable module state', (_name, file) => {
    expect(moduleState(file)).toEqual([]);
  });
});
