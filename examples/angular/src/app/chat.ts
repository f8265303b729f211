import { JsonPipe } from '@angular/common';
import { HttpClient } from '@angular/common/http';
import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { Observable, Subject } from 'rxjs';
import { injectChat, streamFrom } from 'rxjs-tool-calls/angular';
import { tool } from 'rxjs-tool-calls/tools';
import { z } from 'zod';

/**
 * The multi-turn chat page (`?page=chat`): `injectChat()` over an AI SDK UI backend (POST
 * /api/turns, useChat's UI messages as the body). The backend asks for the client tool `locate`,
 * which needs the user's approval and then runs here in the browser, reporting progress until the
 * user lets it finish; its output goes back as the next request automatically.
 */
@Component({
  selector: 'app-root',
  imports: [JsonPipe],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h1>rxjs-tool-calls <small>injectChat · multi-turn</small></h1>
    <form (submit)="$event.preventDefault(); chat.send(prompt.value); prompt.value = ''">
      <input #prompt name="prompt" aria-label="Message" />
      <button type="submit" class="send" [disabled]="chat.status() !== 'ready' && chat.status() !== 'error'">Send</button>
      <button type="button" class="stop" (click)="chat.stop()">Stop</button>
    </form>
    <p class="chat-status" [attr.data-status]="chat.status()">{{ chat.status() }}</p>
    <ol class="messages">
      @for (message of chat.messages(); track message.id) {
        @if (message.role === 'user') {
          <li class="message user">{{ message.text }}</li>
        } @else {
          <li class="message assistant" [attr.data-status]="message.status">
            <p class="text">{{ message.text }}</p>
            @for (call of message.calls; track call.id) {
              <div class="call" [attr.data-name]="call.name">
                <strong>{{ call.name }}</strong> <code class="args">{{ call.partialArguments | json }}</code>
                @if (call.approval; as approval) {
                  <span class="approval">{{ approval.approved === undefined ? 'waiting for approval' : approval.approved ? 'approved' : 'denied' }}</span>
                }
                @if (call.output; as output) {
                  <span class="output" [class.progress]="output.preliminary">{{ output.preliminary ? 'progress: ' : '' }}{{ output.error ?? (output.output | json) }}</span>
                }
              </div>
            }
          </li>
        }
      }
    </ol>
    @for (approval of chat.approvals(); track approval.id) {
      <p class="pending-approval">
        Allow {{ approval.call.name }}?
        <button type="button" class="approve" (click)="approval.approve()">Allow</button>
        <button type="button" class="deny" (click)="approval.deny('the user said no')">Deny</button>
      </p>
    }
    @if (chat.status() === 'running') {
      <button type="button" class="finish-locating" (click)="located.next('Zürich')">Finish locating</button>
    }
    @if (chat.error(); as error) {
      <p class="error">{{ error.code }}: {{ error.message }}</p>
    }
  `,
})
export class ChatPage {
  private readonly http = inject(HttpClient);
  /** What finishes `locate` (a button here; a geolocation answer in a real app). */
  protected readonly located = new Subject<string>();
  protected readonly chat = injectChat({
    request: (_messages, { uiMessages }) => streamFrom(this.http, '/api/turns', { id: 'chat-1', messages: uiMessages, trigger: 'submit-message' }),
    tools: {
      locate: tool({
        description: "The user's city, from the browser",
        schema: z.object({}),
        needsApproval: true,
        // A progress value first, then the city once it is known.
        execute: () =>
          new Observable<string>((subscriber) => {
            subscriber.next('asking the browser…');
            const subscription = this.located.subscribe((city) => {
              subscriber.next(city);
              subscriber.complete();
            });
            return () => subscription.unsubscribe();
          }),
      }),
    },
  });
}
