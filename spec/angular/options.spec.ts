/**
 * The angular entry checks its options when they are made: `streamFrom()`, `angularTextChunks()` and
 * `injectChatStream()` (before it looks for an injector). Angular's packages are ESM only (jest runs
 * CommonJS): `@angular/core` is stood in for by the few names `injectChatStream()` uses, with a
 * plain `signal`; the real Angular runs it in scripts/angular-interop.mjs.
 */
import { HttpClient } from '@angular/common/http';
import { DestroyRef, type Injector } from '@angular/core';
import { lastValueFrom, NEVER, of, type Observable } from 'rxjs';
import { angularTextChunks, injectChat, injectChatStream, streamFrom, type AngularHttpEventLike } from 'rxjs-tool-calls/angular';
import { openaiChunk, openaiDone } from 'rxjs-tool-calls/marbles';
import { describeOptionChecks, invalidOption } from '../helpers/optionChecks';

jest.mock('@angular/core', () => ({
  assertInInjectionContext: () => {
    throw new Error('NG0203: not in an injection context');
  },
  DestroyRef: class {},
  inject: () => undefined,
  Injector: class {},
  signal: <T>(initial: T) => {
    let value = initial;
    const read = Object.assign(() => value, { set: (next: T) => void (value = next), asReadonly: () => read });
    return read;
  },
}));
jest.mock('@angular/common/http', () => ({ HttpClient: class {} }));

/** An HttpClient stand-in answering every request with `events`. */
function fakeHttp(events: () => Observable<AngularHttpEventLike> = () => NEVER): HttpClient {
  return { request: events } as unknown as HttpClient;
}

/** An injector with the HttpClient stand-in and a DestroyRef. */
function injector(http: HttpClient): Injector {
  return { get: (token: unknown) => (token === HttpClient ? http : token === DestroyRef ? { onDestroy: () => undefined } : undefined) } as unknown as Injector;
}

describeOptionChecks([
  ['streamFrom', (o) => streamFrom(fakeHttp(), '/chat', null, o), 'withCredentials', true],
  ['angularTextChunks', (o) => angularTextChunks(o), 'provider', 'openai'],
  ['injectChatStream', (o) => injectChatStream({ url: '/chat', injector: injector(fakeHttp()), ...o }), 'idleTimeoutMs', 1000],
  ['injectChat', (o) => injectChat({ request: () => NEVER, injector: injector(fakeHttp()), ...o }), 'maxSteps', 3],
]);

describe('values the angular entry cannot use', () => {
  it.each([
    ['method: 1', () => streamFrom(fakeHttp(), '/chat', null, { method: 1 as never }), 'options.method'],
    ['provider: 1', () => angularTextChunks({ provider: 1 as never }), 'options.provider'],
    ['withCredentials: yes', () => injectChatStream({ url: '/chat', withCredentials: 'yes' as never }), 'options.withCredentials'],
    ['provider: openai', () => injectChatStream({ url: '/chat', provider: 'openai' as never }), 'options.provider'],
    ['url: 1', () => injectChatStream({ url: 1 as never }), 'options.url'],
    ['request: a URL', () => injectChat({ request: '/chat' as never }), 'options.request'],
    ['maxSteps: 0', () => injectChat({ request: () => NEVER, maxSteps: 0 }), 'options.maxSteps'],
  ])('%s', (_what, make, option) => {
    expect(invalidOption(make).option).toBe(option);
  });
});

describe('valid options work as before', () => {
  it('streamFrom() passes its request options on', async () => {
    const seen: unknown[] = [];
    const http = { request: (...args: unknown[]) => (seen.push(args), of<AngularHttpEventLike>({ type: 4, body: 'data: x\n\n' })) } as unknown as HttpClient;
    expect(await lastValueFrom(streamFrom(http, '/chat', { q: 1 }, { method: 'PUT', withCredentials: true, provider: 'proxy' }))).toBe('data: x\n\n');
    expect(seen).toEqual([['PUT', '/chat', { body: { q: 1 }, observe: 'events', reportProgress: true, responseType: 'text', withCredentials: true }]]);
  });

  it('injectChatStream() with an injector and options of every stage streams a turn into its state', () => {
    const body = openaiChunk({ role: 'assistant', content: 'Hi' }) + openaiChunk({ finishReason: 'stop' }) + openaiDone();
    const http = fakeHttp(() => of<AngularHttpEventLike>({ type: 4, body }));
    const chat = injectChatStream({ url: '/chat', injector: injector(http), provider: 'openai-chat', choice: 0, maxToolCalls: 8, headers: { authorization: 'Bearer k' } });
    chat.start({ messages: [] });
    expect(chat.state()).toMatchObject({ status: 'done', text: 'Hi', finishReason: 'stop' });
  });

  it('injectChatStream() without an injector looks for an injection context, after its options are checked (a misspelt injector is named as such)', () => {
    expect(() => injectChatStream({ url: '/chat' })).toThrow('NG0203');
    const error = invalidOption(() => injectChatStream({ url: '/chat', injecter: injector(fakeHttp()) } as never));
    expect({ option: error.option, near: error.expected.includes("did you mean 'injector'?") }).toEqual({ option: 'options.injecter', near: true });
  });
});
