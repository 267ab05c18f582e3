import { loggedCall, type CallLogDeps } from './call-log.js';
import { maskKeepLast4Digits, maskNameFirstChar, summary } from './masking.js';

export const MESSAGE_CHANNELS = ['SMS', 'KAKAO'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

export interface TextMessage {
  channel: MessageChannel;
  phone: string;
  recipientName: string;
  text: string;
  /** what the message is about (`APPROVAL#3`) */
  reference: string;
}

export interface MessageAdapter {
  readonly name: string;
  send(message: TextMessage): Promise<{ messageId: string }>;
}

export class MessageSendError extends Error {
  override name = 'MessageSendError';
}

export type MockMessageBehaviour = 'succeed' | 'fail';

/** Deterministic message service: records what it "sent"; `fail` throws MessageSendError on every send. */
export class MockMessageAdapter implements MessageAdapter {
  readonly name = 'mock-message';
  readonly sent: TextMessage[] = [];
  private seq = 0;

  constructor(public behaviour: MockMessageBehaviour = 'succeed') {}

  reset(): void {
    this.sent.length = 0;
    this.seq = 0;
    this.behaviour = 'succeed';
  }

  async send(message: TextMessage): Promise<{ messageId: string }> {
    if (this.behaviour === 'fail') throw new MessageSendError('mock message service is unavailable');
    this.sent.push({ ...message });
    this.seq += 1;
    return { messageId: `MOCK-MSG-${this.seq}` };
  }
}

/** The message adapter with an external_call_log row per call (masked phone and recipient). */
export function withMessageCallLog(adapter: MessageAdapter, deps: CallLogDeps): MessageAdapter {
  return {
    name: adapter.name,
    send: (message) =>
      loggedCall(
        deps,
        {
          callType: 'MESSAGE',
          adapterName: adapter.name,
          methodName: 'send',
          targetRef: message.reference,
          requestSummary: summary({
            channel: message.channel,
            phone: maskKeepLast4Digits(message.phone),
            recipientName: maskNameFirstChar(message.recipientName),
            text: message.text,
          }),
        },
        () => adapter.send(message),
        (r) => summary({ messageId: r.messageId }),
      ),
  };
}
