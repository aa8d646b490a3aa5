/**
 * Open mode (`--auth none`): no key is asked for, and everything sent goes
 * to the project `default`. Projects and keys made here are kept, and take
 * effect once the server starts with `--auth keys`.
 */
export function OpenModeNote() {
  return (
    <section className="card open-mode-note" aria-label="Open mode" data-testid="open-mode-note">
      <p className="card-title">Open mode: no API keys</p>
      <p className="muted">
        This server takes no keys (<code>--auth none</code>, loopback only): every span it receives goes to the project{' '}
        <code>default</code>, and anyone who can reach it reads the dashboard. Projects and keys made here are kept, and
        take effect once the server starts with <code>--auth keys</code>.
      </p>
    </section>
  );
}
