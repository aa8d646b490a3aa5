/** One request a `cannedFetch` double saw. */
export interface RecordedRequest {
  url: string;
  method: string;
  contentType: string | null;
  authorization: string | null;
  body: unknown;
}

/** A `fetch` double answering one canned JSON response, recording each request. */
export function cannedFetch(status: number, body: unknown): typeof fetch & { requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const impl: typeof fetch = (input, init) => {
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const headers = new Headers(init?.headers);
    requests.push({
      url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      method: init?.method ?? 'GET',
      contentType: headers.get('content-type'),
      authorization: headers.get('authorization'),
      body: text === undefined ? undefined : JSON.parse(text),
    });
    return Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );
  };
  return Object.assign(impl, { requests });
}
