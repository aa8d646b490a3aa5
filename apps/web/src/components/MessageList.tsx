import type { MessageView } from '../prepare/prepareContent';
import { LongText } from './LongText';

/** Model messages in order, each labelled with its role. */
export function MessageList({ messages }: { messages: readonly MessageView[] }) {
  return (
    <ol className="message-list">
      {messages.map((m, i) => (
        <li key={i} className={`message role-${m.roleClass}`} data-testid="content-message" data-role={m.role}>
          <span className="message-role">{m.roleLabel}</span>
          <div className="message-text">
            <LongText text={m.text} />
          </div>
        </li>
      ))}
    </ol>
  );
}
