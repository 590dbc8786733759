import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export type HttpAnswer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * Any request through node:http with keep-alive, answering the status, headers and whole body (as text). As httpGet
 * (http-get.ts), and for the same reason: fetch costs several times the CPU of the request itself, and the client
 * shares the cores with the services it measures.
 */
export const httpRequest = (
  method: string,
  url: string,
  opts: { headers?: Record<string, string>; body?: string } = {},
): Promise<HttpAnswer> =>
  new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...opts.headers };
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = Buffer.byteLength(opts.body);
    }
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
