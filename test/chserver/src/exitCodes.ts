/** The server's exit code when its port is taken (the harness retries a same-port restart on it). */
export const EXIT_PORT_IN_USE = 3;
