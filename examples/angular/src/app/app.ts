import { JsonPipe } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed } from '@angular/core';
import { isToolStreamError, type ChatState, type TypedChatStateCall } from 'rxjs-tool-calls';
import { injectChatStream } from 'rxjs-tool-calls/angular';
import { z } from 'zod';

/** The tools the model may call: typed partial arguments while they stream, validated when complete. */
const tools = {
  get_weather: z.object({ city: z.string(), days: z.number().int().min(1).max(14), units: z.enum(['celsius', 'fahrenheit']) }),
};

type Call = TypedChatStateCall<typeof tools>;

/**
 * The backend's protocol, from the page's `?backend=`: OpenAI chat (the default), the AI SDK UI
 * message stream (a `useChat` backend: `toUIMessageStreamResponse()`) or AG-UI. The answer is read
 * the same way; only what is posted differs.
 */
type Backend = 'openai-chat' | 'ai-sdk-ui' | 'ag-ui';

const backend: Backend = ((): Backend => {
  const asked = new URLSearchParams(globalThis.location?.search ?? '').get('backend');
  return asked === 'ai-sdk-ui' || asked === 'ag-ui' ? asked : 'openai-chat';
})();

/** Each backend's endpoint, and the request it expects for one question. */
const BACKENDS: Record<Backend, { readonly url: string; readonly body: (prompt: string) => unknown }> = {
  'openai-chat': { url: '/api/chat', body: (prompt) => ({ model: 'demo-model', stream: true, messages: [{ role: 'user', content: prompt }] }) },
  // What useChat's transport posts: the chat's UI messages.
  'ai-sdk-ui': { url: '/api/ui-chat', body: (prompt) => ({ id: 'chat-1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: prompt }] }], trigger: 'submit-message' }) },
  // What an AG-UI client posts: a RunAgentInput.
  'ag-ui': {
    url: '/api/agent',
    body: (prompt) => ({ threadId: 'thread-1', runId: 'run-1', messages: [{ id: 'u1', role: 'user', content: prompt }], tools: [], context: [], state: {}, forwardedProps: {} }),
  },
};

/**
 * Posts a prompt to the app's chat endpoint (a server of your own that calls the model with
 * `stream: true` and passes its SSE through, or a backend that speaks the AI SDK or AG-UI) and shows
 * the answer as it streams: the text, each tool call's arguments growing, then the validated result
 * and what the backend's tool returned, or the typed error that ended the turn.
 */
@Component({
  selector: 'app-root',
  imports: [JsonPipe],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h1>rxjs-tool-calls <small>Angular · zoneless · signals</small></h1>
    <form (submit)="$event.preventDefault(); ask(prompt.value)">
      <input #prompt name="prompt" aria-label="Prompt" value="What will the weather be in Zürich this week?" />
      <button type="submit" class="ask" [disabled]="streaming()">Ask</button>
      <button type="button" class="stop" (click)="chat.cancel()" [disabled]="!streaming()">Stop</button>
    </form>
    @if (chat.state(); as state) {
      <p class="status" [attr.data-status]="state.status">
        {{ state.status }}
        @if (state.finishReason) {
          · finish: {{ state.finishReason }}
        }
        @if (state.usage?.totalTokens; as tokens) {
          · {{ tokens }} tokens
        }
      </p>
      <p class="text">{{ state.text }}</p>
      <ul class="calls">
        @for (call of state.calls; track call.id) {
          <li class="call" [attr.data-name]="call.name" [attr.data-outcome]="outcome(call)">
            <header>
              <strong>{{ call.name }}</strong> <span class="outcome">{{ outcomeText(call) }}</span>
            </header>
            <dl>
              <dt>city</dt>
              <dd class="city">{{ call.partialArguments.city ?? '…' }}</dd>
              <dt>days</dt>
              <dd class="days">{{ call.partialArguments.days ?? '…' }}</dd>
              <dt>units</dt>
              <dd class="units">{{ call.partialArguments.units ?? '…' }}</dd>
            </dl>
            <code class="args">{{ call.partialArguments | json }}</code>
            @if (call.output; as output) {
              <p class="output">the backend's tool returned {{ output.error ?? (output.output | json) }}</p>
            }
          </li>
        }
      </ul>
      @if (errorText(state); as error) {
        <p class="error">{{ error }}</p>
      }
    }
  `,
})
export class App {
  protected readonly chat = injectChatStream({ url: BACKENDS[backend].url, tools });
  protected readonly streaming = computed(() => this.chat.state()?.status === 'streaming');

  protected ask(prompt: string): void {
    this.chat.start(BACKENDS[backend].body(prompt));
  }

  /** `receiving` until the call's result arrives, then `ok` or the error code. */
  protected outcome(call: Call): string {
    if (call.result === undefined) return 'receiving';
    return call.result.success ? 'ok' : call.result.error.code;
  }

  protected outcomeText(call: Call): string {
    const result = call.result;
    if (result === undefined) return `receiving… (${call.openPath?.join('.') || 'arguments'})`;
    return result.success ? '✓ validated' : `✗ ${result.error.code}: ${result.error.message}`;
  }

  protected errorText(state: ChatState<Call>): string | undefined {
    const error = state.error;
    if (state.status !== 'error') return undefined;
    if (isToolStreamError(error)) return `${error.code}: ${error.message}`;
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}
