// The demo page's module: one fetch per panel, read with the browser bundle of rxjs-tool-calls.
import { accumulateToolCalls, fromResponse, isToolStreamError, readStreamEvents, share, toolCalls } from './dist/rxjs-tool-calls.js';

/** For the browser test: every distinct argument text each call showed, per panel. */
const history = (window.__toolCallHistory = {});

function callItem(list, id) {
  let item = list.querySelector(`li[data-id="${CSS.escape(id)}"]`);
  if (item === null) {
    item = document.createElement('li');
    item.dataset.id = id;
    item.innerHTML = '<span class="name"></span><span class="id"></span><pre class="args"></pre><div class="result"></div>';
    list.append(item);
  }
  return item;
}

function describeResult(result) {
  if (result.success) return ['ok', `✓ ${JSON.stringify(result.data.arguments)}`];
  const { error } = result;
  return ['bad', `✗ ${error.code}${error.reason ? ` (${error.reason})` : ''}`];
}

function run(panel) {
  const [text, list, errorBox, state] = ['.text', '.calls', '.error', '.state'].map((selector) => panel.querySelector(selector));
  const seen = (history[panel.id] = {});
  const setState = (value) => {
    panel.dataset.state = value;
    state.textContent = value;
  };
  setState('streaming');
  const events$ = fromResponse(fetch(panel.dataset.url)).pipe(readStreamEvents(), share());

  events$.pipe(accumulateToolCalls()).subscribe({
    next(calls) {
      for (const call of calls) {
        const item = callItem(list, call.id);
        item.querySelector('.name').textContent = call.name;
        item.querySelector('.id').textContent = call.id;
        item.querySelector('.args').textContent = call.rawArguments;
        if (call.status === 'streaming') item.className = 'streaming';
        const shown = (seen[call.id] ??= []);
        if (shown.at(-1) !== call.rawArguments) shown.push(call.rawArguments);
      }
    },
    error: () => undefined,
  });
  events$.pipe(toolCalls()).subscribe({
    next(result) {
      const call = result.success ? result.data : result.error.toolCall;
      const item = callItem(list, call.id);
      const [kind, line] = describeResult(result);
      item.className = kind;
      item.querySelector('.result').textContent = line;
    },
    error: () => undefined,
  });
  events$.subscribe({
    next(event) {
      if (event.type === 'text-delta') text.textContent += event.text;
    },
    error(error) {
      errorBox.textContent = isToolStreamError(error) ? `${error.code}: ${error.message}` : String(error);
      setState('failed');
    },
    complete: () => setState('done'),
  });
}

for (const panel of document.querySelectorAll('section[data-url]')) run(panel);
