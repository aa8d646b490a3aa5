import type { ContentBlock } from '../prepare/prepareContent';
import { JsonTree } from './JsonTree';
import { LongText } from './LongText';
import { MessageList } from './MessageList';

/** One side of a step (its input or its output): messages, tool arguments / result, text. */
export function ContentBlocks({ blocks, emptyText }: { blocks: readonly ContentBlock[]; emptyText: string }) {
  if (blocks.length === 0) return <p className="muted small">{emptyText}</p>;
  return (
    <>
      {blocks.map((block, i) => {
        switch (block.kind) {
          case 'messages':
            return <MessageList key={i} messages={block.messages} />;
          case 'json':
            return (
              <div key={i} className="content-json" data-testid={`content-${block.label.toLowerCase()}`}>
                <span className="content-label">{block.label}</span>
                <JsonTree value={block.value} />
              </div>
            );
          case 'text':
            return (
              <div key={i} className="content-text" data-testid="content-text">
                <LongText text={block.text} />
              </div>
            );
        }
      })}
    </>
  );
}
