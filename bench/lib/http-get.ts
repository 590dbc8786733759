import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * A GET through node:http with keep-alive, reading the whole body and answering the status. The throughput benches
 * use it rather than fetch: undici's fetch costs about five times the CPU of the request itself on this machine
 * (measured: a bare node server answers 2,000/s to fetch and 11,000/s to this), and the client shares the cores with
 * the server it measures.
 */
export const httpGet = (url: string, headers?: Record<string, string>): Promise<number> =>
  new Promise((resolve, reject) => {
    http
      .get(url, { agent, ...(headers ? { headers } : {}) }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      })
      .on('error', reject);
  });
