import { bootstrapApplication } from '@angular/platform-browser';
import { App } from './app/app';
import { appConfig } from './app/app.config';
import { ChatPage } from './app/chat';

// `?page=chat`: the multi-turn chat (injectChat); otherwise the one-turn page (injectChatStream).
const page = new URLSearchParams(globalThis.location?.search ?? '').get('page') === 'chat' ? ChatPage : App;
bootstrapApplication(page, appConfig).catch((error: unknown) => console.error(error));
