/** One API call (`/api/v1{path}`) with `key` as the bearer and an optional JSON body: status and parsed body. */
export async function apiWithKey<T>(
  url: string,
  method: string,
  path: string,
  key: string,
  body?: unknown,
  timeoutMs = 30_000,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: res.status, body: (await res.json()) as T };
}
