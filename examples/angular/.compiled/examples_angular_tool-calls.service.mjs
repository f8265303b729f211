var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __knownSymbol = (name, symbol) => (symbol = Symbol[name]) ? symbol : /* @__PURE__ */ Symbol.for("Symbol." + name);
var __typeError = (msg) => {
  throw TypeError(msg);
};
var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
var __name = (target, value) => __defProp(target, "name", { value, configurable: true });
var __decoratorStart = (base) => [, , , __create(base?.[__knownSymbol("metadata")] ?? null)];
var __decoratorStrings = ["class", "method", "getter", "setter", "accessor", "field", "value", "get", "set"];
var __expectFn = (fn) => fn !== void 0 && typeof fn !== "function" ? __typeError("Function expected") : fn;
var __decoratorContext = (kind, name, done, metadata, fns) => ({ kind: __decoratorStrings[kind], name, metadata, addInitializer: (fn) => done._ ? __typeError("Already initialized") : fns.push(__expectFn(fn || null)) });
var __decoratorMetadata = (array, target) => __defNormalProp(target, __knownSymbol("metadata"), array[3]);
var __runInitializers = (array, flags, self, value) => {
  for (var i = 0, fns = array[flags >> 1], n = fns && fns.length; i < n; i++) flags & 1 ? fns[i].call(self) : value = fns[i].call(self, value);
  return value;
};
var __decorateElement = (array, flags, name, decorators, target, extra) => {
  var fn, it, done, ctx, access, k = flags & 7, s = !!(flags & 8), p = !!(flags & 16);
  var j = k > 3 ? array.length + 1 : k ? s ? 1 : 2 : 0, key = __decoratorStrings[k + 5];
  var initializers = k > 3 && (array[j - 1] = []), extraInitializers = array[j] || (array[j] = []);
  var desc = k && (!p && !s && (target = target.prototype), k < 5 && (k > 3 || !p) && __getOwnPropDesc(k < 4 ? target : { get [name]() {
    return __privateGet(this, extra);
  }, set [name](x) {
    return __privateSet(this, extra, x);
  } }, name));
  k ? p && k < 4 && __name(extra, (k > 2 ? "set " : k > 1 ? "get " : "") + name) : __name(target, name);
  for (var i = decorators.length - 1; i >= 0; i--) {
    ctx = __decoratorContext(k, name, done = {}, array[3], extraInitializers);
    if (k) {
      ctx.static = s, ctx.private = p, access = ctx.access = { has: p ? (x) => __privateIn(target, x) : (x) => name in x };
      if (k ^ 3) access.get = p ? (x) => (k ^ 1 ? __privateGet : __privateMethod)(x, target, k ^ 4 ? extra : desc.get) : (x) => x[name];
      if (k > 2) access.set = p ? (x, y) => __privateSet(x, target, y, k ^ 4 ? extra : desc.set) : (x, y) => x[name] = y;
    }
    it = (0, decorators[i])(k ? k < 4 ? p ? extra : desc[key] : k > 4 ? void 0 : { get: desc.get, set: desc.set } : target, ctx), done._ = 1;
    if (k ^ 4 || it === void 0) __expectFn(it) && (k > 4 ? initializers.unshift(it) : k ? p ? extra = it : desc[key] = it : target = it);
    else if (typeof it !== "object" || it === null) __typeError("Object expected");
    else __expectFn(fn = it.get) && (desc.get = fn), __expectFn(fn = it.set) && (desc.set = fn), __expectFn(fn = it.init) && initializers.unshift(fn);
  }
  return k || __decoratorMetadata(array, target), desc && __defProp(target, name, desc), p ? k ^ 4 ? extra : desc : target;
};
var __accessCheck = (obj, member, msg) => member.has(obj) || __typeError("Cannot " + msg);
var __privateIn = (member, obj) => Object(obj) !== obj ? __typeError('Cannot use the "in" operator on this value') : member.has(obj);
var __privateGet = (obj, member, getter) => (__accessCheck(obj, member, "read from private field"), getter ? getter.call(obj) : member.get(obj));
var __privateSet = (obj, member, value, setter) => (__accessCheck(obj, member, "write to private field"), setter ? setter.call(obj, value) : member.set(obj, value), value);
var __privateMethod = (obj, member, method) => (__accessCheck(obj, member, "access private method"), method);

// examples/angular/tool-calls.service.ts
import { HttpClient } from "@angular/common/http";
import { DestroyRef, Injectable, inject, signal } from "@angular/core";
import { share, Subscription } from "rxjs";
import {
  accumulateToolCalls,
  angularTextChunks,
  readStreamEvents,
  readToolCalls,
  toolCalls
} from "rxjs-tool-calls";
var _ToolCallsService_decorators, _init;
_ToolCallsService_decorators = [Injectable({ providedIn: "root" })];
var ToolCallsService = class {
  http = inject(HttpClient);
  running;
  /** The assistant's text so far. */
  text = signal("");
  /** Every tool call so far, arguments growing while they stream. */
  calls = signal([]);
  /** One result per completed call (parsed arguments or a typed error). */
  results = signal([]);
  /** The error that ended the stream, if one did (`ToolStreamError` subclasses have a `code`). */
  error = signal(void 0);
  status = signal("idle");
  constructor() {
    inject(DestroyRef).onDestroy(() => this.cancel());
  }
  /** The response text as it arrives: `HttpClient` progress events → new text chunks. */
  chunks(url, body, provider = "http") {
    return this.http.request("POST", url, { body, observe: "events", reportProgress: true, responseType: "text" }).pipe(angularTextChunks({ provider }));
  }
  /** One result per tool call, each the moment it is complete. Unsubscribing aborts the request. */
  toolCalls(url, body, provider = "auto") {
    return this.chunks(url, body).pipe(readToolCalls({ provider }));
  }
  /** Every normalised event of the stream (text, tool-call fragments, finish, usage, …). */
  events(url, body, provider = "auto") {
    return this.chunks(url, body).pipe(readStreamEvents({ provider }));
  }
  /** Start a run that fills the signals; a new run (or {@link cancel}) aborts the previous one. */
  run(url, body, provider = "auto") {
    this.cancel();
    this.text.set("");
    this.calls.set([]);
    this.results.set([]);
    this.error.set(void 0);
    this.status.set("streaming");
    const events$ = this.events(url, body, provider).pipe(share());
    const running = new Subscription();
    running.add(events$.pipe(accumulateToolCalls()).subscribe({ next: (calls) => this.calls.set(calls), error: () => void 0 }));
    running.add(events$.pipe(toolCalls()).subscribe({ next: (result) => this.results.update((all) => [...all, result]), error: () => void 0 }));
    running.add(
      events$.subscribe({
        next: (event) => {
          if (event.type === "text-delta") this.text.update((text) => text + event.text);
        },
        error: (error) => {
          this.error.set(error);
          this.status.set("failed");
        },
        complete: () => this.status.set("done")
      })
    );
    this.running = running;
  }
  /** Abort the current run's request. */
  cancel() {
    this.running?.unsubscribe();
    this.running = void 0;
    if (this.status() === "streaming") this.status.set("idle");
  }
};
_init = __decoratorStart(null);
ToolCallsService = __decorateElement(_init, 0, "ToolCallsService", _ToolCallsService_decorators, ToolCallsService);
__runInitializers(_init, 1, ToolCallsService);
export {
  ToolCallsService
};
