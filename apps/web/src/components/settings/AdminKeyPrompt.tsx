import { useState } from 'react';
import { StatusView } from '../StatusView';

/** Asks for the admin key after the server refused the admin API (401 / 403); this browser keeps it, like the read key. */
export function AdminKeyPrompt({ message, onAdminKey }: { message: string; onAdminKey: (key: string) => void }) {
  const [key, setKey] = useState('');
  return (
    <StatusView kind="error" title="Managing projects and keys needs the admin key">
      <p data-testid="admin-key-message">
        {message}. Paste the key the server was started with (<code>telltale start --auth keys --admin-key …</code>);
        read and ingest keys cannot manage keys. This browser keeps it.
      </p>
      <form
        className="read-key-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim() !== '') onAdminKey(key);
        }}
      >
        <input
          type="password"
          aria-label="Admin key"
          placeholder="admin key"
          autoComplete="off"
          data-testid="admin-key-input"
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
        <button type="submit" className="button" data-testid="admin-key-submit">
          Use key
        </button>
      </form>
    </StatusView>
  );
}
