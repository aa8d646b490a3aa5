import { useState } from 'react';
import { cutText, TEXT_PREVIEW_CHARS } from '../prepare/prepareContent';

/** A text cut to `limit` characters with a "show all" button; short texts show whole. */
export function LongText({ text, limit = TEXT_PREVIEW_CHARS }: { text: string; limit?: number }) {
  const [expanded, setExpanded] = useState(false);
  const { shown, hiddenChars } = cutText(text, limit);
  if (hiddenChars === 0 || expanded) return <span className="long-text">{text}</span>;
  return (
    <span className="long-text" data-testid="long-text-cut">
      {shown}
      <span className="muted">… </span>
      <button type="button" className="link-button" data-testid="show-all" onClick={() => setExpanded(true)}>
        show all ({hiddenChars.toLocaleString('en-US')} more characters)
      </button>
    </span>
  );
}
