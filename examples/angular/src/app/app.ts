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
 * Posts a prompt to the app's chat endpoint (a server of your own that calls the model with
 * `stream: true` and passes its SSE through) and shows the answer as it streams: the text, each
 * tool call's arguments growing, then the validated result, or the typed error that ended the turn.
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
  protected readonly chat = injectChatStream({ url: '/api/chat', tools });
  protected readonly streaming = computed(() => this.chat.state()?.status === 'streaming');

  protected ask(prompt: string): void {
    this.chat.start({ model: 'demo-model', stream: true, messages: [{ role: 'user', content: prompt }] });
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
