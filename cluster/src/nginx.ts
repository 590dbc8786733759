import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { watch } from './watched';

/** Where nginx is, or null: Debian's package puts it in /usr/sbin, which a normal user's PATH may lack. */
export function findNginx(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'])
    if (existsSync(candidate)) return candidate;
  const which = spawnSync('which', ['nginx'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

export type Routes = {
  port: number;
  /** command-api's and query-api's nodes, as host:port. */
  command: readonly string[];
  query: readonly string[];
  /** POST paths that are reads (the two the API has): they go to query-api. */
  postQueries: readonly string[];
  /** Where nginx keeps its pid, log and temporary files; nginx's own defaults when absent (in a container). */
  dir?: string;
  /** Run the workers as root (nginx started by root on a developer's machine, with files in a root-owned folder). */
  asRoot?: boolean;
};

/**
 * nginx's configuration for the distributed deployment: one port for the browser, routed as the gateway routes in one
 * process — GET and HEAD, and the POSTs that are reads, to query-api; every other method to command-api; sockets to
 * query-api, each client address to the same node (socket.io's polling then upgrade must reach one node); pages to
 * query-api. `npm run cluster` and docker-compose.yml (deploy/nginx.conf, generated from this) both use it.
 */
export function nginxConfig(routes: Routes): string {
  const servers = (nodes: readonly string[]) => nodes.map((n) => `    server ${n};`).join('\n');
  const forwarded = `      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;`;
  const dir = routes.dir;
  const files = dir
    ? `pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
`
    : '';
  const temp = dir
    ? `  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
`
    : '';
  // A proxied socket holds two connections (browser and node): 10,000 sockets need 20,000 and as many files.
  return `${routes.asRoot ? 'user root root;\n' : ''}worker_processes auto;
worker_rlimit_nofile 65536;
${files}events { worker_connections 32768; }
http {
  access_log off;
${temp}  # Pictures are sent as they are taken; the apps refuse what is too large with a message of their own.
  client_max_body_size 25m;
  upstream command {
${servers(routes.command)}
    keepalive 32;
  }
  upstream query {
${servers(routes.query)}
    keepalive 32;
  }
  upstream sockets {
    # One node per client address, so socket.io's polling reaches the node it upgrades on. The whole address:
    # ip_hash would use only its first three parts, sending every client behind one /24 to one node.
    hash $remote_addr consistent;
${servers(routes.query)}
  }
  map $request_method $api {
    GET query;
    HEAD query;
    default command;
  }
  map $http_upgrade $connection_upgrade {
    default upgrade;
    '' close;
  }
  server {
    listen ${routes.port};
    proxy_http_version 1.1;
    location /socket.io/ {
      proxy_pass http://sockets;
${forwarded}
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_read_timeout 1h;
    }
${routes.postQueries
  .map(
    (p) => `    location = ${p} {
      proxy_pass http://query;
${forwarded}
      proxy_set_header Connection "";
    }`,
  )
  .join('\n')}
    location ~ ^/(api|dev)/ {
      proxy_pass http://$api;
${forwarded}
      proxy_set_header Connection "";
    }
    location / {
      proxy_pass http://query;
${forwarded}
      proxy_set_header Connection "";
    }
  }
}
`;
}

export type Nginx = { child: ChildProcess; config: string; output(): string; stop(): Promise<void> };

/** nginx in the foreground with `routes`, its files in `dir`; resolves once it listens. */
export async function startNginx(
  binary: string,
  dir: string,
  routes: Omit<Routes, 'dir' | 'asRoot'>,
): Promise<Nginx> {
  for (const sub of ['tmp/body', 'tmp/proxy', 'tmp/fastcgi', 'tmp/uwsgi', 'tmp/scgi'])
    mkdirSync(path.join(dir, sub), { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  const config = nginxConfig({ ...routes, dir, asRoot: process.getuid?.() === 0 });
  writeFileSync(conf, config);
  const nginx = watch(
    spawn(binary, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', conf, '-g', 'daemon off;'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  await nginx.untilListening(routes.port, 15_000, 'nginx');
  return {
    child: nginx.child,
    config,
    output: nginx.output,
    // Graceful: it finishes what it serves.
    stop: async () => void (await nginx.stop('SIGQUIT', 10_000)),
  };
}
