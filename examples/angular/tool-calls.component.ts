/**
 * A standalone component that runs {@link ToolCallsService} and renders the text, each tool call's
 * arguments as they grow, and the final result or typed error of each call.
 */
import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { isToolStreamError, type ToolCallResult, type ToolCallSnapshot } from 'rxjs-tool-calls';
import { ToolCallsService } from './tool-calls.service';

@Component({
  selector: 'app-tool-calls',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <button type="button" (click)="start()" [disabled]="service.status() === 'streaming'">Ask</button>
    <button type="button" (click)="service.cancel()" [disabled]="service.status() !== 'streaming'">Stop</button>
    <p class="status">{{ service.status() }}</p>
    <p class="text">{{ service.text() }}</p>
    <ul>
      @for (call of service.calls(); track call.id) {
        <li [class.complete]="call.status === 'complete'">
          <strong>{{ call.name }}</strong> <code>{{ call.rawArguments }}</code>
          <span>{{ outcome(call) }}</span>
        </li>
      }
    </ul>
    @if (streamError(); as error) {
      <p class="error">{{ error }}</p>
    }
  `,
})
export class ToolCallsComponent {
  protected readonly service = inject(ToolCallsService);
  /** The SSE endpoint to post to. */
  readonly url = input.required<string>();
  /** The request body (model, messages, tools, `stream: true`). */
  readonly body = input<unknown>({});

  protected readonly streamError = computed(() => {
    const error = this.service.error();
    if (error === undefined) return undefined;
    return isToolStreamError(error) ? `${error.code}: ${error.message}` : String(error);
  });

  protected start(): void {
    this.service.run(this.url(), this.body());
  }

  protected outcome(call: ToolCallSnapshot): string {
    const result: ToolCallResult | undefined = call.result;
    if (result === undefined) return 'streaming…';
    return result.success ? `✓ ${JSON.stringify(result.data.arguments)}` : `✗ ${result.error.code}`;
  }
}
